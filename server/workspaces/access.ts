import type { Selectable } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { ApiError, notFound, unauthorized } from '../http/errors';
import { can, type PermissionEntries, type PermissionLevel, type PermissionName, type Role, type RoleOrGuest } from '../../schema/permissions';
import { REFUSAL_MESSAGES } from '../../schema/refusals';

/**
 * Who may act in a workspace. Other modules import these three:
 *   memberRole(ctx, userId, teamId)                     the role of workspace.md §6, 'guest' if none
 *   requireMember(ctx, user, teamId)                    403 unless a verified member
 *   requireTeamPermission(ctx, user, teamId, name)      403 unless the workspace-level entries allow it
 */

export type TeamRow = Selectable<Database['teams']>;

/** A team id from a path parameter: a positive integer, else 404 (no such workspace). */
export function parseTeamId(raw: unknown): number {
  const text = String(raw ?? '');
  if (!/^[1-9]\d{0,9}$/.test(text)) throw notFound();
  const id = Number(text);
  if (id > 2_147_483_647) throw notFound();
  return id;
}

export async function findTeam(ctx: AppContext, teamId: number): Promise<TeamRow | undefined> {
  return ctx.db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
}

export async function requireTeam(ctx: AppContext, teamId: number): Promise<TeamRow> {
  const team = await findTeam(ctx, teamId);
  if (!team) throw notFound();
  return team;
}

/**
 * Role lookup (workspace.md §6): the owner is owner; a verified member has their member role;
 * anyone else (pending invitees, strangers, anonymous visitors) is a guest.
 */
export async function memberRole(ctx: AppContext, userId: number | null, teamId: number, team?: TeamRow): Promise<RoleOrGuest> {
  if (userId === null) return 'guest';
  const owner = team ?? (await ctx.db.selectFrom('teams').select(['owner_id']).where('id', '=', teamId).executeTakeFirst());
  if (!owner) return 'guest';
  if (owner.owner_id === userId) return 'owner';
  const member = await ctx.db
    .selectFrom('team_members')
    .select(['role', 'verified_at'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member || !member.verified_at) return 'guest';
  return member.role;
}

export interface TeamAccess {
  team: TeamRow;
  role: Role;
}

/** The verified member's role; 404 for an unknown workspace, 403 for anyone who is not a member. */
export async function requireMember(ctx: AppContext, user: { id: number }, teamId: number): Promise<Role> {
  return (await requireMemberAccess(ctx, user, teamId)).role;
}

export async function requireMemberAccess(ctx: AppContext, user: { id: number }, teamId: number): Promise<TeamAccess> {
  const team = await requireTeam(ctx, teamId);
  const role = await memberRole(ctx, user.id, teamId, team);
  if (role === 'guest') throw unauthorized();
  return { team, role };
}

/** The workspace as the first level of a permission chain. */
export function workspaceLevel(team: TeamRow): PermissionLevel {
  return { type: 'workspace', id: team.id, permissions: (team.permissions ?? {}) as PermissionEntries, created_by: team.owner_id };
}

/** 403 unless the workspace-level entries allow the permission to this member. */
export async function requireTeamPermission(ctx: AppContext, user: { id: number }, teamId: number, permission: PermissionName): Promise<TeamAccess> {
  const access = await requireMemberAccess(ctx, user, teamId);
  if (!can({ permission, user: { id: user.id, role: access.role }, chain: [workspaceLevel(access.team)] })) {
    // A member learns which right is missing where the spec words it (W8.8).
    const specific = REFUSAL_MESSAGES[permission];
    throw specific ? new ApiError(403, specific, 'unauthorized') : unauthorized();
  }
  return access;
}

/** The owner-only check of workspace.md §6: compares owner_id to the user. */
export function requireOwner(team: TeamRow, user: { id: number }): void {
  if (team.owner_id !== user.id) throw new ApiError(403, 'Only the workspace owner can do this.', 'unauthorized');
}
