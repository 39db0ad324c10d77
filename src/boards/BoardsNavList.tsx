import { useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, SquareKanban } from 'lucide-react';
import { pathFor } from '../../schema/routes';
import { useSession } from '../api/session';
import { BoardBackendContext, type BoardBackend } from './store/backend';
import { useKnownBoards, type Folder } from './store/live';
import { useBackendFor } from './store/use-backend';
import { sortByPosition } from './model/positions';

/**
 * The sidebar's boards of one workspace: those on the server (when online) and those on this
 * device (offline), with a link to create a board. Loaded lazily by BoardsNav.
 */
export default function BoardsNavList({ teamId }: { teamId: number }) {
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : null;
  const { backend } = useBackendFor(userId, session.status === 'signedIn');
  if (!backend) return null;
  return (
    <BoardBackendContext.Provider value={backend}>
      <BoardsList backend={backend} teamId={teamId} />
    </BoardBackendContext.Provider>
  );
}

function BoardsList({ backend, teamId }: { backend: BoardBackend; teamId: number }) {
  const { t } = useLingui();
  const local = useKnownBoards(teamId);
  const [remote, setRemote] = useState<Folder[]>([]);
  useEffect(() => {
    let live = true;
    backend.listBoards(teamId).then(
      (list) => live && setRemote(list as unknown as Folder[]),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [backend, teamId]);
  const boards = useMemo(() => {
    const byId = new Map<string, Folder>();
    for (const b of [...remote, ...(local ?? [])]) if (!b.deleted_at) byId.set(b.id, b);
    return sortByPosition([...byId.values()]);
  }, [remote, local]);
  return (
    <ul className="shell-subnav boards-nav" aria-label={t`Boards`} data-testid={`boards-nav-${teamId}`}>
      {boards.map((b) => (
        <li key={b.id}>
          <Link to={pathFor('board', { rootId: b.id })} activeProps={{ 'aria-current': 'page' }}>
            <SquareKanban size={14} aria-hidden="true" />
            {b.name}
          </Link>
        </li>
      ))}
      <li>
        <Link to={pathFor('create-board', { teamId })}>
          <Plus size={14} aria-hidden="true" />
          <Trans>New board</Trans>
        </Link>
      </li>
    </ul>
  );
}
