import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Messages } from '../../../schema/messages';
import { useOnline } from '../../connectivity/use-connectivity';
import { translateMessage } from '../../i18n/server-messages';
import { Page } from '../../screens/Page';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import type { BoardBackend } from '../store/backend';
import { WithBackend } from './with-backend';
import { BoardPasswordSettings } from '../parts/BoardPasswordSettings';
import { useBoardMeta } from './use-board-meta';
import { BoardTemplateActions } from '../../templates/BoardTemplateActions';
import { MoveBoardSection } from '../../board-jobs/MoveBoardSection';
import '../boards.css';

/**
 * edit-board (/team/{teamId}/boards/{boardId}/edit): name, public or private, members, save as
 * template and duplicate (src/templates), delete.
 * Each control is enabled only when the permission model allows it (UPDATE_BOARD,
 * MANAGE_BOARD_MEMBERS, DELETE_BOARD); the server checks again.
 */
export default function EditBoardPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Board settings`} narrow>
      <WithBackend>{(backend) => <EditBoard backend={backend} />}</WithBackend>
    </Page>
  );
}

function EditBoard({ backend }: { backend: BoardBackend }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const { teamId, boardId, board, info, access, loading } = useBoardMeta(backend);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [members, setMembers] = useState<number[]>([]);
  useEffect(() => {
    if (board) {
      setName(board.name);
      setMembers(board.user_ids ?? []);
    }
  }, [board?.id, board?.row_version]); // eslint-disable-line react-hooks/exhaustive-deps

  if (loading) return <Spinner />;
  if (!board) return <EmptyState title={translateMessage(Messages.notFound)} />;
  const canUpdate = access.can('UPDATE_BOARD', boardId, board.created_by ?? null);
  const canMembers = access.can('MANAGE_BOARD_MEMBERS', boardId, board.created_by ?? null);
  const canDelete = access.can('DELETE_BOARD', boardId, board.created_by ?? null);
  const save = (patch: Record<string, unknown>) => backend.save('folder', { ...stripCollection(board), ...patch }, { teamId });

  return (
    <div className="edit-board" data-testid="edit-board">
      <form
        className="board-form"
        noValidate
        onSubmit={async (event: FormEvent) => {
          event.preventDefault();
          if (!name.trim()) return setError(t`enter the board name`);
          await save({ name: name.trim() });
          toast.show(t`Saved.`, { kind: 'success' });
        }}
      >
        <label>
          <Trans>Board name</Trans>
          <input value={name} disabled={!canUpdate} aria-invalid={error ? true : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" disabled={!canUpdate}>
          <Trans>Save name</Trans>
        </Button>
      </form>

      <section className="board-section">
        <h2>
          <Trans>Visibility</Trans>
        </h2>
        <label className="inline-field">
          <input type="checkbox" data-testid="board-public" checked={Boolean(board.is_public)} disabled={!canUpdate} onChange={(e) => void save({ is_public: e.target.checked })} />
          <Trans>Public: anyone with the link can view this board without signing in.</Trans>
        </label>
        {board.is_public && (
          <p className="hint">
            <Trans>Share this link:</Trans> <code data-testid="public-link">{`${location.origin}${pathFor('board', { rootId: boardId })}`}</code>
          </p>
        )}
        {board.is_public && <BoardPasswordSettings teamId={teamId} boardId={boardId} mayChange={canUpdate && (info?.viewer.role === 'owner' || info?.viewer.role === 'admin')} />}
      </section>

      <section className="board-section">
        <h2>
          <Trans>Members</Trans>
        </h2>
        <p className="hint">
          <Trans>With no members chosen, everyone in the workspace belongs to the board.</Trans>
        </p>
        <ul className="member-picks">
          {(info?.members ?? []).map((m) => (
            <li key={m.id}>
              <label className="inline-field">
                <input type="checkbox" disabled={!canMembers} checked={members.includes(m.id)} onChange={(e) => setMembers(e.target.checked ? [...members, m.id] : members.filter((id) => id !== m.id))} />
                {m.name} <small>{m.email}</small>
              </label>
            </li>
          ))}
        </ul>
        <Button
          disabled={!canMembers || !online}
          title={online ? undefined : translateMessage(Messages.offlineFeature)}
          onClick={async () => {
            try {
              await backend.setBoardMembers(boardId, members);
              toast.show(t`Members saved.`, { kind: 'success' });
            } catch (err) {
              toast.show(translateMessage((err as Error).message), { kind: 'error' });
            }
          }}
        >
          <Trans>Save members</Trans>
        </Button>
      </section>

      <BoardTemplateActions
        teamId={teamId}
        boardId={boardId}
        boardName={board.name}
        online={online}
        canSave={access.can('SAVE_AS_TEMPLATE', boardId, board.created_by ?? null)}
        canDuplicate={access.can('CREATE_BOARD', boardId, null)}
      />

      {canDelete && <MoveBoardSection teamId={teamId} boardId={boardId} boardName={board.name} online={online} />}

      {canDelete && (
        <section className="board-section">
          <h2>
            <Trans>Delete board</Trans>
          </h2>
          <Button
            variant="danger"
            onClick={async () => {
              if (!(await confirm({ message: t`Move this board to trash?`, danger: true }))) return;
              await backend.remove('folder', boardId, { teamId });
              await navigate({ href: pathFor('team.boards', { teamId }) });
            }}
          >
            <Trans>Delete board</Trans>
          </Button>
        </section>
      )}
      <p>
        <a href={pathFor('board', { rootId: boardId })}>
          <Trans>Back to the board</Trans>
        </a>
      </p>
    </div>
  );
}

function stripCollection<T extends object>(record: T): T {
  const { collection: _c, ...rest } = record as T & { collection?: string };
  return rest as T;
}
