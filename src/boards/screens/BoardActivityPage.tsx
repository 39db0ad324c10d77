import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Messages } from '../../../schema/messages';
import { translateMessage } from '../../i18n/server-messages';
import { Page } from '../../screens/Page';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { ActivityList } from '../activity/ActivityList';
import { useActivityLookup } from '../activity/use-lookup';
import type { BoardBackend } from '../store/backend';
import { useAttributes, useItems, type Item } from '../store/live';
import { WithBackend } from './with-backend';
import { useBoardMeta } from './use-board-meta';
import '../boards.css';

/**
 * board.activity (/team/{teamId}/boards/{boardId}/activity): the board's activity log, every
 * item's and folder's changes with before → after, filtered by person and days. Needs
 * VIEW_ACTIVITY_LOG (the server checks it too). Each line links to its item.
 */
export default function BoardActivityPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Board activity`}>
      <WithBackend>{(backend) => <BoardActivity backend={backend} />}</WithBackend>
    </Page>
  );
}

function BoardActivity({ backend }: { backend: BoardBackend }) {
  const { teamId, boardId, board, folders, info, access, loading } = useBoardMeta(backend);
  const attributes = useAttributes(boardId);
  const items = useItems(boardId);
  const members = info?.members ?? [];
  const lookup = useActivityLookup(attributes, folders, items, members);
  if (loading) return <Spinner />;
  if (!board) return <EmptyState title={translateMessage(Messages.notFound)} />;
  if (!access.can('VIEW_ACTIVITY_LOG', boardId)) return <EmptyState title={translateMessage(Messages.unauthorized)} />;
  const folderOf = new Map((items ?? []).map((i: Item) => [i.id, i.folder_id]));
  return (
    <div className="board-activity" data-testid="board-activity">
      <p>
        <Link to={pathFor('board', { rootId: boardId })} className="link-button">
          <Trans>Back to {board.name}</Trans>
        </Link>
      </p>
      <ActivityList
        teamId={teamId}
        scope={{ boardId }}
        lookup={lookup}
        members={members}
        itemLink={(itemId, name) =>
          folderOf.has(itemId) ? (
            <Link to={pathFor('folder', { rootId: boardId, folderId: folderOf.get(itemId) ?? boardId, itemId })} search={{ t: 'activity' }} className="activity-item-link">
              {name}
            </Link>
          ) : (
            <span className="activity-item-link">{name}</span>
          )
        }
      />
    </div>
  );
}
