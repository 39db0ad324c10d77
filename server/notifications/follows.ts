import type { Kysely } from 'kysely';
import type { Db } from '../sync/store';
import type { Database } from '../db/types';
import { appendEvents, registerEventFloor } from '../events/outbox';

/**
 * Who follows which item. The creator, assignees (members attributes), commenters and mentioned
 * people follow automatically; anyone who may read the item follows or unfollows by hand. An
 * unfollow is kept as a row (following = false) so a later automatic follow — another comment,
 * being assigned again — does not undo the choice; only following by hand does.
 */

export type FollowReason = Database['item_follows']['reason'];

/**
 * Automatic follows: adds users who have no row for the item yet; leaves every existing choice
 * alone. `at` is when their cause happened (the event's time), not when it was handled.
 */
export async function followAutomatically(db: Db, teamId: number, itemId: string, userIds: number[], reason: Exclude<FollowReason, 'manual'>, now: Date): Promise<void> {
  const users = [...new Set(userIds)];
  if (users.length === 0) return;
  await db
    .insertInto('item_follows')
    .values(users.map((user_id) => ({ item_id: itemId, user_id, team_id: teamId, following: true, reason, created_at: now })))
    .onConflict((oc) => oc.columns(['item_id', 'user_id']).doNothing())
    .execute();
}

/** Following or unfollowing by hand (the item panel's button). */
export async function setFollowing(db: Db, teamId: number, itemId: string, userId: number, following: boolean, now: Date): Promise<void> {
  await db
    .insertInto('item_follows')
    .values({ item_id: itemId, user_id: userId, team_id: teamId, following, reason: 'manual', created_at: now })
    .onConflict((oc) => oc.columns(['item_id', 'user_id']).doUpdateSet({ following, reason: 'manual', created_at: now }))
    .execute();
}

/**
 * Following by hand from the item panel (W2.15): when the user was not following yet, an
 * `item.followed` event is recorded in the same transaction, and the notifications consumer tells
 * the item's other followers "{who} subscribed to {item}" (user_subscribed, subscribeable_type
 * ITEM). The event names no board or item column, so it stays out of the activity log.
 */
export async function followByHand(db: Kysely<Database>, input: { teamId: number; itemId: string; boardId: string | null; userId: number }, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const already = await isFollowing(trx, input.itemId, input.userId);
    await setFollowing(trx, input.teamId, input.itemId, input.userId, true, now);
    if (already) return;
    await registerEventFloor(trx);
    await appendEvents(
      trx,
      [{ team_id: input.teamId, board_id: null, type: 'item.followed', collection: null, record_id: input.itemId, item_id: null, actor_id: input.userId, before: null, after: { board_id: input.boardId } }],
      now,
    );
  });
}

export async function isFollowing(db: Db, itemId: string, userId: number): Promise<boolean> {
  const row = await db.selectFrom('item_follows').select('following').where('item_id', '=', itemId).where('user_id', '=', userId).executeTakeFirst();
  return row?.following ?? false;
}

/**
 * The users following the item at `at` (by the time their follow began): a comment is news to
 * those who followed when it was written, and handling its event again later — or late, behind a
 * backlog — tells the same people.
 */
export async function followersOf(db: Db, itemId: string, at: Date): Promise<number[]> {
  const rows = await db.selectFrom('item_follows').select('user_id').where('item_id', '=', itemId).where('following', '=', true).where('created_at', '<=', at).orderBy('user_id').execute();
  return rows.map((r) => r.user_id);
}
