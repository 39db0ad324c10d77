import { nanoid } from 'nanoid';
import type { AppContext, Broadcaster } from '../../server/context';
import type { Role } from '../../schema/permissions';
import { valueIdFor } from '../../schema/records';
import { createUserWithToken } from '../helpers/users';

/** Shared set-up of the sync suites: a team with a member of each role, and record builders. */

export type SignedIn = Awaited<ReturnType<typeof createUserWithToken>>;

export async function createTeam(ctx: AppContext, ownerId: number, permissions: Record<string, string> = {}) {
  const team = await ctx.db
    .insertInto('teams')
    .values({ name: 'Team', owner_id: ownerId, permissions: JSON.stringify(permissions), use_custom_logo: false, row_version: 1, created_at: ctx.now(), updated_at: ctx.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addMember(ctx, team.id, ownerId, 'owner');
  return team.id;
}

export async function addMember(ctx: AppContext, teamId: number, userId: number, role: Role) {
  await ctx.db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role, verified_at: ctx.now(), invited_by: null, created_at: ctx.now() })
    .execute();
}

export interface TeamFixture {
  teamId: number;
  owner: SignedIn;
  admin: SignedIn;
  full: SignedIn;
  restricted: SignedIn;
  stranger: SignedIn;
}

export async function teamWithRoles(ctx: AppContext): Promise<TeamFixture> {
  const owner = await createUserWithToken(ctx);
  const admin = await createUserWithToken(ctx);
  const full = await createUserWithToken(ctx);
  const restricted = await createUserWithToken(ctx);
  const stranger = await createUserWithToken(ctx);
  const teamId = await createTeam(ctx, owner.user.id);
  await addMember(ctx, teamId, admin.user.id, 'admin');
  await addMember(ctx, teamId, full.user.id, 'full-member');
  await addMember(ctx, teamId, restricted.user.id, 'restricted-member');
  return { teamId, owner, admin, full, restricted, stranger };
}

export const newId = () => nanoid();

export function board(fields: Record<string, unknown> = {}) {
  const id = (fields.id as string) ?? newId();
  return { id, board_id: id, parent_id: null, name: 'Board', position: 0, row_version: 1, ...fields };
}

export function folder(boardId: string, fields: Record<string, unknown> = {}) {
  return { id: newId(), board_id: boardId, parent_id: boardId, name: 'Folder', row_version: 1, ...fields };
}

export function item(boardId: string, fields: Record<string, unknown> = {}) {
  return { id: newId(), board_id: boardId, folder_id: boardId, name: 'Item', position: 1, row_version: 1, ...fields };
}

export function attribute(boardId: string, fields: Record<string, unknown> = {}) {
  // A text attribute with a unique name: the server refuses a second one of the same name and kind,
  // and checks values by kind.
  const id = (fields.id as string) ?? newId();
  return { id, board_id: boardId, folder_id: boardId, name: `Notes ${id}`, kind: 'text', row_version: 1, ...fields };
}

export function value(boardId: string, itemId: string, attributeId: string, v: unknown, fields: Record<string, unknown> = {}) {
  return { id: valueIdFor(itemId, attributeId), board_id: boardId, item_id: itemId, attribute_id: attributeId, value: v, row_version: 1, ...fields };
}

/** A broadcaster that remembers what was published, for asserting events. */
export function recordingBroadcaster() {
  const events: { channel: string; event: string; data: any; opts?: { excludeSocketId?: string } }[] = [];
  const broadcaster: Broadcaster = {
    async publish(channel, event, data, opts) {
      events.push({ channel, event, data, opts });
    },
  };
  return { broadcaster, events };
}
