import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { memberRole, type TeamRow as WorkspaceTeamRow } from '../workspaces/access';
import {
  HIDDEN_ENTRY,
  entryKey,
  PUBLIC_ENTRIES,
  explain,
  type PermissionEntries,
  type PermissionLevel,
  type PermissionName,
  type PermissionUser,
  type RoleOrGuest,
} from '../../schema/permissions';
import type { FolderRecord } from '../../schema/records';

/**
 * Who is asking, for one team, and the permission questions the sync engine asks. The model itself
 * is schema/permissions.ts; this file only builds its inputs (the chain workspace → board →
 * folders) from synced folder records.
 */

export interface TeamRow {
  id: number;
  owner_id: number;
  permissions: PermissionEntries;
}

export interface Viewer extends PermissionUser {
  teamId: number;
}

/** The team (404 when it does not exist). */
export async function loadTeam(db: Kysely<Database>, teamId: number): Promise<TeamRow | null> {
  const row = await db.selectFrom('teams').select(['id', 'owner_id', 'permissions']).where('id', '=', teamId).executeTakeFirst();
  return row ? { id: row.id, owner_id: row.owner_id, permissions: (row.permissions ?? {}) as PermissionEntries } : null;
}

/** The user's role in the team (the workspaces module's lookup: member role, else guest). */
export async function roleIn(ctx: AppContext, team: TeamRow, userId: number | null): Promise<RoleOrGuest> {
  return memberRole(ctx, userId, team.id, team as unknown as WorkspaceTeamRow);
}

/**
 * The team and the user's role in one query, for the save path where every round trip counts.
 * Same rule as memberRole (server/workspaces/access.ts): the owner is owner, a verified member has
 * their role, anyone else is a guest. Null when the team does not exist.
 */
export async function loadTeamAndRole(db: Kysely<Database>, teamId: number, userId: number): Promise<{ team: TeamRow; role: RoleOrGuest } | null> {
  const row = await db
    .selectFrom('teams')
    .leftJoin('team_members', (join) => join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', userId))
    .select(['teams.id', 'teams.owner_id', 'teams.permissions', 'team_members.role', 'team_members.verified_at'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
  if (!row) return null;
  const team: TeamRow = { id: row.id, owner_id: row.owner_id, permissions: (row.permissions ?? {}) as PermissionEntries };
  const role: RoleOrGuest = row.owner_id === userId ? 'owner' : row.role && row.verified_at ? row.role : 'guest';
  return { team, role };
}

const HIDDEN_BOARD_ENTRY = entryKey('VIEW_BOARD', 'tag', 'board_locked_out');

/** A folder as one level of a permission chain; the UI toggles hidden/is_public become entries. */
export function folderLevel(folder: FolderRecord): PermissionLevel {
  const isBoard = folder.parent_id === null;
  const permissions: PermissionEntries = { ...(folder.permissions ?? {}) };
  if (isBoard && folder.is_public) Object.assign(permissions, PUBLIC_ENTRIES);
  // Hidden (private): only members see it. A board is asked VIEW_BOARD, a folder VIEW_FOLDER.
  if (folder.hidden) {
    permissions[HIDDEN_ENTRY] = 'deny';
    if (isBoard) permissions[HIDDEN_BOARD_ENTRY] = 'deny';
  }
  return {
    type: isBoard ? 'board' : 'folder',
    id: folder.id,
    permissions,
    final_permissions: folder.final_permissions ?? [],
    // An empty member list means "not restricted": everyone in the workspace belongs.
    user_ids: folder.user_ids && folder.user_ids.length > 0 ? folder.user_ids : null,
    created_by: folder.created_by ?? null,
  };
}

export function workspaceLevel(team: TeamRow): PermissionLevel {
  return { type: 'workspace', id: team.id, permissions: team.permissions, created_by: team.owner_id };
}

/**
 * The chain from the workspace down to `folderId` (board first). Null when a folder on the way
 * is missing (a broken or foreign reference).
 */
export function chainTo(team: TeamRow, folders: ReadonlyMap<string, FolderRecord>, folderId: string): PermissionLevel[] | null {
  const path: FolderRecord[] = [];
  const seen = new Set<string>();
  let current: string | null = folderId;
  while (current !== null) {
    if (seen.has(current)) return null; // a cycle: refuse rather than loop
    seen.add(current);
    const folder = folders.get(current);
    if (!folder) return null;
    path.unshift(folder);
    current = folder.parent_id;
  }
  return [workspaceLevel(team), ...path.map(folderLevel)];
}

/** The one question: may this viewer do `permission` on the resource at the end of the chain. */
export function allowed(viewer: PermissionUser, permission: PermissionName | string, chain: PermissionLevel[], createdBy?: number | null): boolean {
  return explain({ permission: permission as PermissionName, user: viewer, chain, createdBy }).allowed;
}

/** View permission of the last level of a chain (VIEW_BOARD for a board, VIEW_FOLDER for a folder). */
export function canView(viewer: PermissionUser, chain: PermissionLevel[]): boolean {
  const last = chain[chain.length - 1]!;
  return allowed(viewer, last.type === 'board' ? 'VIEW_BOARD' : 'VIEW_FOLDER', chain);
}
