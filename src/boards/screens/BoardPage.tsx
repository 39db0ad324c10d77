import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { lazyRetry } from '../../ui/lazy-retry';
import { useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { FolderTree as FolderTreeIcon } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Messages } from '../../../schema/messages';
import { pathFor } from '../../../schema/routes';
import type { PermissionName } from '../../../schema/permissions';
import { useSession } from '../../api/session';
import { translateMessage } from '../../i18n/server-messages';
import { conflictInbox } from '../../connectivity/conflicts';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { BoardContext, type BoardState } from '../BoardContext';
import { BoardActions } from '../store/actions';
import { BoardBackendContext, type BoardBackend } from '../store/backend';
import { heldBoardFolder, useAttributes, useFolders, type Folder } from '../store/live';
import { useBackendFor } from '../store/use-backend';
import { useWorkspaceInfo } from '../store/workspace-info';
import { ReadOnlyBanner } from '../../screens/billing/ReadOnlyBanner';
import { boardAccess } from '../model/access';
import { sortByPosition } from '../model/positions';
import { buildFolderTree } from '../model/tree';
import { FolderTree } from '../parts/FolderTree';
import { FolderPane } from '../parts/FolderPane';
import { ItemPanel } from '../parts/ItemPanel';
import { useUndoKeys } from '../parts/use-undo-keys';
import { BoardPasswordForm } from '../parts/BoardPasswordForm';
import { hasBoardPassword, isBoardPasswordError, lookupPublicBoard } from '../public-board';
import '../boards.css';
import '../board-look.css';
import { brandName } from '../../whitelabel/tenant';

/** The Automations panel (?t=automations, and its usage tab ?t=usage): a lazy chunk. */
const AutomationsPanel = lazyRetry(() => import('../automations/AutomationsPanel'));

/**
 * The board route (/b/{rootId}) and its folder route (/b/{rootId}/{folderId}/{itemId?}): the folder
 * tree, the open folder's views and the item panel. Viewable without login when the board is public.
 */
export default function BoardPage() {
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : null;
  const { backend, error } = useBackendFor(userId, session.status !== 'loading');
  if (error) return <BoardProblem text={String((error as Error).message ?? error)} />;
  if (!backend) return <BoardLoading />;
  return (
    <BoardBackendContext.Provider value={backend}>
      <BoardLoader backend={backend} />
    </BoardBackendContext.Provider>
  );
}

function BoardLoading() {
  const { t } = useLingui();
  return (
    <div className="board-loading">
      <Spinner label={t`Loading board`} />
    </div>
  );
}

function BoardProblem({ text }: { text: string }) {
  const { t } = useLingui();
  const { status } = useSession();
  const navigate = useNavigate();
  // Signed out and the board is not public: the sign-in page, which comes back here (issue #17 part 7).
  const signIn = `${pathFor('login')}?intended=${encodeURIComponent(window.location.pathname + window.location.search)}`;
  useEffect(() => {
    if (status === 'signedOut') void navigate({ href: signIn, replace: true });
  }, [status, signIn, navigate]);
  return (
    <div className="board-problem" data-testid="board-problem">
      <EmptyState
        title={t`This board is not available.`}
        text={text}
        action={
          status === 'signedOut' ? (
            <a href={signIn} className="ui-button ui-button--primary ui-button--md">
              <Trans>Sign in</Trans>
            </a>
          ) : undefined
        }
      />
    </div>
  );
}

/** Tries loading the board again a few times (it may not have reached the server yet). */
function retryOpen(backend: BoardBackend, teamId: number, boardId: string, live: () => boolean, delays = [1000, 3000, 10_000, 30_000]) {
  const [delay, ...rest] = delays;
  if (delay === undefined) return;
  setTimeout(() => {
    if (!live()) return;
    backend.openBoard(teamId, boardId).catch(() => retryOpen(backend, teamId, boardId, live, rest));
  }, delay);
}

type LoadState = { status: 'finding' } | { status: 'missing'; message: string } | { status: 'password' } | { status: 'ready'; teamId: number };

/**
 * The board's workspace: this device's copy or the user's workspaces first; a public board's link
 * carries no workspace, so the server's public lookup answers for everyone else (and says whether
 * the board asks for a password). The old `?team=` links still work.
 */
async function findTeam(backend: BoardBackend, boardId: string, teamHint: number | null): Promise<{ teamId: number | null; passwordRequired: boolean }> {
  const known = backend.userId === null ? null : await backend.findBoardTeam(boardId, teamHint).catch(() => null);
  if (known !== null) return { teamId: known, passwordRequired: false };
  const pub = await lookupPublicBoard(boardId);
  if (pub) return { teamId: pub.team_id, passwordRequired: pub.password_required };
  // Offline or not public: this device's copy, or the link's hint.
  return { teamId: await backend.findBoardTeam(boardId, teamHint).catch(() => null), passwordRequired: false };
}

function BoardLoader({ backend }: { backend: BoardBackend }) {
  const { t } = useLingui();
  const params = useParams({ strict: false }) as { rootId: string };
  const rootId = params.rootId;
  const teamHint = Number((useSearch({ strict: false }) as { team?: string }).team) || null;
  const [state, setState] = useState<LoadState>({ status: 'finding' });
  /** Bumped when a password was accepted, to load again with it. */
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: 'finding' });
    (async () => {
      const { teamId, passwordRequired } = await findTeam(backend, rootId, teamHint);
      if (!live) return;
      if (teamId === null) {
        setState({ status: 'missing', message: backend.userId === null ? t`Sign in to open this board.` : translateMessage(Messages.notFound) });
        return;
      }
      if (passwordRequired && !hasBoardPassword(rootId)) {
        setState({ status: 'password' });
        return;
      }
      const local = heldBoardFolder(backend.db, rootId) ?? (await backend.db.records.get(['folder', rootId]));
      if (local) {
        // Warm open: show this device's copy at once and catch up with the server behind it.
        if (live) setState({ status: 'ready', teamId });
        // After the first rows are on screen: a full index load writes in one big transaction,
        // and reads queued behind it would wait.
        await new Promise((resolve) => setTimeout(resolve, 400));
        if (!live) return;
        backend.openBoard(teamId, rootId).catch((err) => {
          const status = (err as { status?: number }).status;
          if (isBoardPasswordError(err)) {
            if (live) setState({ status: 'password' });
          } else if (status === 401 || status === 403) {
            if (live) setState({ status: 'missing', message: translateMessage((err as Error).message || Messages.unauthorized) });
          } else retryOpen(backend, teamId, rootId, () => live);
        });
        return;
      }
      try {
        await backend.openBoard(teamId, rootId);
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (isBoardPasswordError(err)) {
          if (live) setState({ status: 'password' });
          return;
        }
        if (status === 401 || status === 403 || status === 404) {
          if (live) setState({ status: 'missing', message: translateMessage((err as Error).message || Messages.unauthorized) });
          return;
        }
        retryOpen(backend, teamId, rootId, () => live);
      }
      if (live) setState({ status: 'ready', teamId });
    })();
    return () => {
      live = false;
    };
  }, [backend, rootId, teamHint, t, attempt]);

  if (state.status === 'finding') return <BoardLoading />;
  if (state.status === 'password') return <BoardPasswordForm boardId={rootId} onUnlocked={() => setAttempt((n) => n + 1)} />;
  if (state.status === 'missing') return <BoardProblem text={state.message} />;
  return <BoardScreen backend={backend} teamId={state.teamId} boardId={rootId} />;
}

function BoardScreen({ backend, teamId, boardId }: { backend: BoardBackend; teamId: number; boardId: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const params = useParams({ strict: false }) as { folderId?: string; itemId?: string };
  const search = useSearch({ strict: false }) as { view?: string; t?: string };
  const folders = useFolders(boardId);
  const attributesRaw = useAttributes(boardId);
  const info = useWorkspaceInfo(teamId, backend.userId);
  const actions = useMemo(() => new BoardActions(backend, teamId, boardId), [backend, teamId, boardId]);
  useUndoKeys(actions);

  useEffect(
    () =>
      backend.onProblem((problem) => {
        // The spec's message, with the item and the field named; Review opens the inbox (issue #30 part 2).
        if (problem.kind === 'conflict') {
          const where = [problem.label?.item ? `“${problem.label.item}”` : null, problem.label?.field ?? problem.field ?? null].filter(Boolean).join(' · ');
          toast.show(where ? `${translateMessage(Messages.conflict)} ${where}` : translateMessage(Messages.conflict), {
            kind: 'error',
            id: `conflict-${problem.id}-${problem.field ?? ''}`,
            action: { label: t`Review`, run: () => conflictInbox.openPanel() },
          });
        }
        else toast.show(translateMessage(problem.message), { kind: 'error' });
      }),
    [backend],
  );

  const tree = useMemo(() => buildFolderTree((folders ?? []) as Folder[], boardId), [folders, boardId]);
  const attributes = useMemo(() => sortByPosition((attributesRaw ?? []).filter((a) => !a.deleted_at)), [attributesRaw]);
  const access = useMemo(
    () =>
      boardAccess(info?.workspace ?? { id: teamId, owner_id: null, permissions: {} }, info?.viewer ?? { id: backend.userId, role: backend.userId === null ? 'guest' : 'guest' }, folders ?? [], {
        preview: backend.preview,
      }),
    [info, teamId, backend.userId, backend.preview, folders],
  );
  const folderId = params.folderId && tree.byId.has(params.folderId) ? params.folderId : boardId;
  const board = tree.root?.folder;
  // The folder drawer (phones) closes when another folder or item opens.
  const [treeOpen, setTreeOpen] = useState(false);
  useEffect(() => setTreeOpen(false), [params.folderId, params.itemId]);
  useEffect(() => {
    if (!treeOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setTreeOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [treeOpen]);

  const openItem = useCallback(
    (itemId: string | null, inFolder?: string) => {
      void navigate({ href: pathFor('folder', { rootId: boardId, folderId: inFolder ?? folderId, itemId: itemId ?? undefined }) + (search.view ? `?view=${encodeURIComponent(search.view)}` : '') });
    },
    [navigate, boardId, folderId, search.view],
  );
  const openFolder = useCallback((id: string) => void navigate({ href: id === boardId ? pathFor('board', { rootId: boardId }) : pathFor('folder', { rootId: boardId, folderId: id }) }), [navigate, boardId]);

  // Preview (pretend) mode allows everything, a visitor's preview too (decision 0280).
  const anonymous = backend.userId === null && !backend.preview;
  // A workspace whose subscription ended takes no writes (the server refuses them; decision 0360).
  const planReadOnly = !backend.preview && !!info?.readOnly;
  const readOnly = anonymous || planReadOnly;
  const can = useCallback(
    (permission: PermissionName, at = folderId, createdBy?: number | null) => !readOnly && access.can(permission, at, createdBy),
    [readOnly, access, folderId],
  );
  // One object per change of its inputs, not per render: every ValueDisplay on screen reads this
  // context, so a new object re-rendered all visible cells (opening an item, a live re-read).
  const state = useMemo<BoardState | null>(
    () =>
      folders && board
        ? { backend, teamId, boardId, board, folders: folders as Folder[], tree, attributes, actions, access, info, readOnly, can, openItem, openFolder }
        : null,
    [backend, teamId, boardId, board, folders, tree, attributes, actions, access, info, readOnly, can, openItem, openFolder],
  );

  if (!folders || !attributesRaw) return <BoardLoading />;
  if (!board || !state) return <BoardProblem text={translateMessage(Messages.notFound)} />;

  const folder = tree.byId.get(folderId)!.folder;
  return (
    <BoardContext.Provider value={state}>
      <BoardTitle boardId={boardId} title={folder.id === board.id ? board.name : `${folder.name} · ${board.name}`} />
      {planReadOnly && info?.readOnly && <ReadOnlyBanner reason={info.readOnly} owner={info.viewer.role === 'owner'} />}
      <div className={`board-page${params.itemId ? ' has-item' : ''}`} data-testid="board-page" data-board-id={boardId}>
        {/* On a phone the folder tree is a drawer opened from the board's header (the button shows only there). */}
        {treeOpen && <div className="board-tree-backdrop" onClick={() => setTreeOpen(false)} aria-hidden="true" />}
        <aside id="board-folders" className={`board-tree-pane${treeOpen ? ' is-open' : ''}`} aria-label={t`Folders`}>
          <FolderTree activeId={folderId} />
        </aside>
        <section className="board-main">
          <button type="button" className="board-folders-button" aria-expanded={treeOpen} aria-controls="board-folders" onClick={() => setTreeOpen(!treeOpen)} data-testid="board-folders-button">
            <FolderTreeIcon size={16} aria-hidden="true" />
            <Trans>Folders</Trans>
          </button>
          <FolderPane folder={folder} viewId={search.view ?? null} />
        </section>
        {params.itemId && <ItemPanel itemId={params.itemId} tab={search.t ?? 'attributes'} />}
        {!params.itemId && (search.t === 'automations' || search.t === 'usage') && (
          <Suspense fallback={null}>
            <AutomationsPanel tab={search.t} />
          </Suspense>
        )}
      </div>
      {anonymous && (
        <p className="board-readonly-note" data-testid="board-readonly">
          <Trans>You are viewing a public board. Sign in to edit.</Trans>
        </p>
      )}
    </BoardContext.Provider>
  );
}

/**
 * The browser tab names the board (and the folder), not the route ("Board"): set now and again after
 * every navigation the router resolves while this board is open (the router's own title comes first).
 */
function BoardTitle({ boardId, title }: { boardId: string; title: string }) {
  const router = useRouter();
  useEffect(() => {
    const apply = () => {
      if (window.location.pathname.startsWith(pathFor('board', { rootId: boardId }))) document.title = `${title} · ${brandName()}`;
    };
    apply();
    return router.subscribe('onResolved', apply);
  }, [router, boardId, title]);
  return null;
}
