import { useEffect, useState, useSyncExternalStore } from 'react';
import type { PermissionEntries, RoleOrGuest } from '../../../schema/permissions';
import { api, ApiRequestError, OFFLINE_STATUS } from '../../api/client';
import { Workspaces, type Member } from '../../api/endpoints';
import { workspaces } from '../../api/workspaces-cache';
import { store } from '../../storage/local-store';
import type { Viewer, Workspace } from '../model/access';
import { useTeamVersion } from '../../navigation/team-events';
import { useOnline } from '../../connectivity/use-connectivity';

/**
 * What the client needs of the workspace to answer permission questions and fill member pickers:
 * the viewer's role, the workspace's own entries and its members. Remembered locally so a board
 * opened offline still greys out the right actions.
 */
export interface WorkspaceInfo {
  workspace: Workspace;
  viewer: Viewer;
  members: Member[];
  /** The workspace's subscription ended: it takes no writes (decision 0360). Absent in copies remembered before. */
  readOnly?: 'trial_expired' | 'expired' | null;
}

const key = (teamId: number, userId: number | null) => `boards.workspace.${teamId}.${userId ?? 'guest'}`;

/** The members of a workspace as this device last loaded them (empty when never loaded): names for ids offline too. */
export function rememberedMembers(teamId: number, userId: number | null): Member[] {
  return store.get<WorkspaceInfo | null>(key(teamId, userId), null)?.members ?? [];
}

/**
 * No answer about the user's rights: offline, cut off, or a server error (a server shutting down
 * answers 503 to requests on open connections). Only a 4xx is the server's refusal; a 503 taken for
 * one showed, and remembered, a guest's read-only view of a board the user owns (e2e boards-sync).
 */
const UNANSWERED = Symbol('unanswered');
const unanswered = (error: unknown) => !(error instanceof ApiRequestError) || error.status === OFFLINE_STATUS || error.status >= 500;

/**
 * The workspace as the server tells it, or null when it did not answer: a call that got no answer
 * is not a refusal, and taking it for a guest's view (then remembered) left an owner who went
 * offline while their first board opened without the new-item row for good (e2e offline-truth).
 */
async function load(teamId: number, userId: number | null): Promise<WorkspaceInfo | null> {
  if (userId === null) return { workspace: { id: teamId, owner_id: null, permissions: {} }, viewer: { id: null, role: 'guest' }, members: [] };
  const team = await Workspaces.get(teamId).catch((error: unknown) => (unanswered(error) ? UNANSWERED : null));
  if (team === UNANSWERED) return null;
  if (!team) return { workspace: { id: teamId, owner_id: null, permissions: {} }, viewer: { id: userId, role: 'guest' }, members: [] };
  const [permissions, members] = await Promise.all([
    api
      .get<{ data: { permissions: PermissionEntries } }>(`/api/${teamId}/permissions`)
      .then((r) => r.data.permissions ?? {})
      .catch((error: unknown) => (unanswered(error) ? UNANSWERED : ({} as PermissionEntries))),
    Workspaces.members(teamId).catch((error: unknown) => (unanswered(error) ? UNANSWERED : ([] as Member[]))),
  ]);
  if (permissions === UNANSWERED || members === UNANSWERED) return null;
  return { workspace: { id: teamId, owner_id: team.owner_id, permissions }, viewer: { id: userId, role: roleIn(team, userId) }, members, readOnly: team.read_only ?? null };
}

/**
 * Until this workspace's own answer comes (or when it never came: the network went before it did),
 * the user's role as the workspace list gives it (remembered for offline starts, 0080), with the
 * role's default rights. Without it a board opened for the first time on this device showed what a
 * guest may do, and a full member who lost the network before that answer could edit nothing
 * (e2e boards-sync: a double-click on a cell only selected its text). What the workspace's own
 * permission entries take away, the server still refuses, and a refused edit stays in view.
 */
function fromWorkspaceList(teamId: number, userId: number | null): WorkspaceInfo | null {
  const listed = userId === null ? undefined : workspaces.get()?.find((w) => w.id === teamId);
  if (!listed) return null;
  return { workspace: { id: teamId, owner_id: listed.owner_id, permissions: {} }, viewer: { id: userId, role: roleIn(listed, userId) }, members: [], readOnly: listed.read_only ?? null };
}

/** The user's role in a workspace as the server describes it (its owner, else the member's role). */
function roleIn(team: { owner_id: number; user_role?: string }, userId: number | null): RoleOrGuest {
  return (team.owner_id === userId ? 'owner' : (team.user_role ?? 'guest')) as RoleOrGuest;
}

const knownInfo = (teamId: number, userId: number | null) => store.get<WorkspaceInfo | null>(key(teamId, userId), null) ?? fromWorkspaceList(teamId, userId);

export function useWorkspaceInfo(teamId: number | null, userId: number | null): WorkspaceInfo | null {
  const [info, setInfo] = useState<WorkspaceInfo | null>(() => (teamId === null ? null : knownInfo(teamId, userId)));
  // The workspace list arriving after the board opened gives the role when nothing better came.
  const list = useSyncExternalStore(workspaces.subscribe, workspaces.get, workspaces.get);
  // Live: a role, member or permission change of the workspace (team.{id}.users / .permissions) reloads it,
  // and so does the network's return (a load that got no answer changed nothing).
  const teamVersion = useTeamVersion(teamId);
  const online = useOnline();
  useEffect(() => {
    if (teamId === null) return;
    let live = true;
    setInfo(knownInfo(teamId, userId));
    load(teamId, userId)
      .then((loaded) => {
        if (!live || loaded === null) return;
        // A refusal keeps the remembered copy rather than a guest's view.
        if (loaded.viewer.role === 'guest' && userId !== null && store.get(key(teamId, userId), null)) return;
        store.set(key(teamId, userId), loaded);
        setInfo(loaded);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [teamId, userId, teamVersion, online]);
  useEffect(() => {
    if (teamId !== null) setInfo((current) => current ?? fromWorkspaceList(teamId, userId));
  }, [teamId, userId, list]);
  return info;
}
