import { useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { ApiRequestError, OFFLINE_STATUS } from '../../api/client';
import { Workspaces, type Member, type Workspace } from '../../api/endpoints';
import { useWorkspaces } from '../../api/workspaces-cache';
import { useSession } from '../../api/session';
import { useOnline } from '../../connectivity/use-connectivity';
import { fetchActivity } from '../../boards/activity/activity-api';
import { whenText, exactTime } from '../../boards/comments/when';
import { BoardBackendContext, type BoardBackend } from '../../boards/store/backend';
import { useKnownBoards, type Folder } from '../../boards/store/live';
import { useBackendFor } from '../../boards/store/use-backend';
import { sortByPosition } from '../../boards/model/positions';
import { Avatar } from '../../ui/Avatar';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { Page } from '../Page';
import { RoleLabel } from './roles';
import { WorkspaceNotFound } from './WorkspaceNotFound';
import { ReadOnlyBanner } from '../billing/ReadOnlyBanner';
import { mergeRecent, type RecentLine } from './recent-activity';
import { useTeamId } from './use-team';
import { useTeamVersion } from '../../navigation/team-events';
import './workspace.css';

type Loaded = { status: 'loading' } | { status: 'ready'; team: Workspace } | { status: 'missing' } | { status: 'offline' };

/**
 * team.boards (/team/{teamId}): the workspace's front page — its boards (server and this device),
 * its members, and what happened lately across its boards (GET /api/{teamId}/activity per board).
 * An id that is not a workspace of the user shows the not-found page.
 */
export default function WorkspaceOverviewPage() {
  const teamId = useTeamId();
  const { list } = useWorkspaces();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  // Live: members, roles and the name follow team.{id}.users.
  const teamVersion = useTeamVersion(teamId);
  useEffect(() => {
    let live = true;
    // A live reload keeps the page on screen; another workspace starts from the spinner.
    setLoaded((prev) => (prev.status === 'ready' && prev.team.id === teamId ? prev : { status: 'loading' }));
    Workspaces.get(teamId).then(
      (team) => live && setLoaded({ status: 'ready', team }),
      (error) => {
        if (!live) return;
        const offline = error instanceof ApiRequestError && error.status === OFFLINE_STATUS;
        setLoaded(offline ? { status: 'offline' } : { status: 'missing' });
      },
    );
    return () => {
      live = false;
    };
  }, [teamId, teamVersion]);

  // Offline the remembered workspaces list still names it.
  const team = loaded.status === 'ready' ? loaded.team : (list?.find((w) => w.id === teamId) ?? null);
  if (loaded.status === 'missing' || (loaded.status === 'offline' && list !== null && !team)) return <WorkspaceNotFound />;
  if (!team) return <Page><Spinner /></Page>;
  return <Overview team={team} />;
}

function Overview({ team }: { team: Workspace }) {
  const { t } = useLingui();
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : null;
  const { backend } = useBackendFor(userId, session.status === 'signedIn');
  return (
    <Page
      title={team.name}
      actions={
        <div className="page-actions">
          <Link to={pathFor('team.members', { teamId: team.id })} className="ui-button ui-button--ghost ui-button--md">
            <Trans>Members</Trans>
          </Link>
          <Link to={pathFor('team.permissions', { teamId: team.id })} className="ui-button ui-button--ghost ui-button--md">
            <Trans>Permissions</Trans>
          </Link>
          <Link to={pathFor('team.settings', { teamId: team.id })} className="ui-button ui-button--ghost ui-button--md">
            <Trans>Settings</Trans>
          </Link>
          {!team.read_only && (
            <Link to={pathFor('create-board', { teamId: team.id })} className="ui-button ui-button--primary ui-button--md" data-testid="overview-new-board">
              <Trans>New board</Trans>
            </Link>
          )}
        </div>
      }
    >
      {team.read_only && <ReadOnlyBanner reason={team.read_only} owner={team.user_role === 'owner'} />}
      <div className="workspace-overview" data-testid="workspace-overview">
        <section aria-labelledby="overview-boards" className="overview-section overview-boards">
          <h2 id="overview-boards">
            <Trans>Boards</Trans>
          </h2>
          {backend ? (
            <BoardBackendContext.Provider value={backend}>
              <BoardsAndActivity backend={backend} teamId={team.id} />
            </BoardBackendContext.Provider>
          ) : (
            <Spinner label={t`Loading boards`} />
          )}
        </section>
        <MembersSection teamId={team.id} count={team.member_count} />
      </div>
    </Page>
  );
}

function BoardsAndActivity({ backend, teamId }: { backend: BoardBackend; teamId: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const local = useKnownBoards(teamId);
  const [remote, setRemote] = useState<Folder[] | null>(null);
  useEffect(() => {
    let live = true;
    backend.listBoards(teamId).then(
      (list) => live && setRemote(list as unknown as Folder[]),
      () => live && setRemote([]),
    );
    return () => {
      live = false;
    };
  }, [backend, teamId]);
  const boards = useMemo(() => {
    const byId = new Map<string, Folder>();
    for (const b of [...(remote ?? []), ...(local ?? [])]) if (!b.deleted_at) byId.set(b.id, b);
    return sortByPosition([...byId.values()]);
  }, [remote, local]);
  const boardNames = useMemo(() => new Map(boards.map((b) => [b.id, b.name])), [boards]);

  if (remote === null && local === undefined) return <Spinner label={t`Loading boards`} />;
  return (
    <>
      {boards.length === 0 ? (
        <EmptyState
          headingLevel={3}
          title={t`No boards yet`}
          text={t`A board holds your items: tasks, bugs, deals, anything you track. Start with one and add columns as you go.`}
          action={
            <Link to={pathFor('create-board', { teamId })} className="ui-button ui-button--primary ui-button--md">
              <Trans>Create the first board</Trans>
            </Link>
          }
        />
      ) : (
        <ul className="overview-board-list" data-testid="overview-boards">
          {boards.map((b) => (
            <li key={b.id}>
              <Link to={pathFor('board', { rootId: b.id })} className="overview-board">
                <span className="overview-board__swatch" aria-hidden="true">
                  {b.name.trim().charAt(0).toUpperCase()}
                </span>
                <span className="overview-board__name">{b.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="overview-activity" className="overview-section overview-activity">
        <h2 id="overview-activity">
          <Trans>Recent activity</Trans>
        </h2>
        {online ? <RecentActivity teamId={teamId} boardIds={boards.map((b) => b.id)} boardNames={boardNames} /> : (
          <p className="muted" role="note">
            <Trans>Recent activity needs a connection to the server. It shows again when you are back online.</Trans>
          </p>
        )}
      </section>
    </>
  );
}

/** At most this many boards are asked for their latest changes (one call each). */
const ACTIVITY_BOARDS = 8;

function RecentActivity({ teamId, boardIds, boardNames }: { teamId: number; boardIds: string[]; boardNames: ReadonlyMap<string, string> }) {
  const { t, i18n } = useLingui();
  const [lines, setLines] = useState<RecentLine[] | null>(null);
  const [members, setMembers] = useState<Map<number, Member>>(new Map());
  const key = boardIds.slice(0, ACTIVITY_BOARDS).join(',');
  useEffect(() => {
    let live = true;
    const ids = key ? key.split(',') : [];
    // A board whose log the user may not read (no VIEW_ACTIVITY_LOG) simply adds nothing.
    Promise.all(ids.map((boardId) => fetchActivity(teamId, { boardId }, null, 10).then((page) => page.data, () => [])))
      .then((pages) => live && setLines(mergeRecent(pages)))
      .catch(() => live && setLines([]));
    Workspaces.members(teamId).then(
      (list) => live && setMembers(new Map(list.map((m) => [m.id, m]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [teamId, key]);
  if (lines === null) return <Spinner label={t`Loading activity`} />;
  if (lines.length === 0) return <p className="muted">{t`Nothing has happened here yet. Changes to items, comments and boards show up here.`}</p>;
  return (
    <ol className="overview-activity-list" data-testid="overview-activity">
      {lines.map((line) => {
        const who = line.actorId === null ? t`Cairn` : (members.get(line.actorId)?.name ?? t`Removed User`);
        const what = line.subject ?? t`an item`;
        const where = line.boardId ? (boardNames.get(line.boardId) ?? '') : '';
        const text = {
          created: t`${who} created ${what}`,
          updated: t`${who} updated ${what}`,
          trashed: t`${who} moved ${what} to the trash`,
          restored: t`${who} restored ${what}`,
          deleted: t`${who} deleted ${what} for good`,
          commented: t`${who} commented on ${what}`,
        }[line.verb];
        return (
          <li key={line.id}>
            <Avatar name={who} photoUrl={line.actorId !== null ? (members.get(line.actorId)?.photo_url ?? null) : null} size="sm" preview={false} />
            <span className="overview-activity__text">
              {line.boardId && line.itemId && line.verb !== 'deleted' ? (
                <Link to={pathFor('folder', { rootId: line.boardId, folderId: line.boardId, itemId: line.itemId })}>{text}</Link>
              ) : (
                text
              )}
              {where && <span className="muted"> · {where}</span>}
            </span>
            <time dateTime={line.at} title={exactTime(line.at, i18n.locale)} className="muted">
              {whenText(line.at, i18n.locale)}
            </time>
          </li>
        );
      })}
    </ol>
  );
}

function MembersSection({ teamId, count }: { teamId: number; count?: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const [members, setMembers] = useState<Member[] | null>(null);
  const teamVersion = useTeamVersion(teamId);
  useEffect(() => {
    if (!online) return;
    let live = true;
    Workspaces.members(teamId).then(
      (list) => live && setMembers(list),
      () => live && setMembers([]),
    );
    return () => {
      live = false;
    };
  }, [teamId, online, teamVersion]);
  const shown = (members ?? []).filter((m) => !m.pending).slice(0, 8);
  const total = count ?? members?.length ?? 0;
  return (
    <section aria-labelledby="overview-members" className="overview-section overview-members">
      <h2 id="overview-members">
        <Trans>Members</Trans>
      </h2>
      {!online && members === null ? (
        <p className="muted" role="note">
          <Trans>The member list needs a connection to the server.</Trans>
        </p>
      ) : members === null ? (
        <Spinner label={t`Loading members`} />
      ) : (
        <>
          <ul className="overview-member-list" data-testid="overview-members">
            {shown.map((m) => (
              <li key={m.id}>
                <Avatar name={m.name} photoUrl={m.photo_url ?? null} size="sm" preview={false} />
                <span>{m.name}</span>
                <span className="muted">
                  <RoleLabel role={m.pivot.role} />
                </span>
              </li>
            ))}
          </ul>
          <Link to={pathFor('team.members', { teamId })}>
            <Plural value={total} one="See the # member and invite people" other="See all # members and invite people" />
          </Link>
        </>
      )}
    </section>
  );
}
