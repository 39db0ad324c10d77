import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { memberRole, type TeamRow as WorkspaceTeamRow } from '../workspaces/access';
import type { PermissionEntries, PermissionUser, RoleOrGuest } from '../../schema/permissions';
// The chain is built by the module the app uses too (schema/permission-chain.ts).
export { folderLevel, workspaceLevel, chainTo, allowedOn as allowed, canViewEnd as canView } from '../../schema/permission-chain';

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

