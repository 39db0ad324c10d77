import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { reserveStorage, storageFull, storageUsedBySubscription } from '../files/storage-figure';
import { appendEvents, registerEventFloor } from '../events/outbox';
import type { DomainEvent, ConsumerContext } from '../events/types';
import { notifyLimit } from '../notifications/emit';
import { effectiveLimits } from './limits';

/**
 * Storage by plan (workspace.md §4, §9; decision 0260). The plan's `storage` limit (GB, of the
 * effective limits: add-ons and BILLING=off included) holds for all the workspaces on one
 * subscription together — the figure the usage screen shows. An upload that would pass it is
 * refused (413 storage_full, "The workspace's storage is full…"); WORKSPACE_STORAGE_LIMIT_MB,
 * when an operator sets it, is an extra cap per workspace.
 *
 * The upload's transaction appends a `storage.changed` event with the figure before and after
 * and the limit; the `storage-limits` consumer (through the job runner, never the route) tells
 * the subscription's owner when an upload crossed 80 % (storage_warning) or reached 100 %
 * (storage_exceeded) — once per crossing: the event that crossed is the notification's cause — and
 * when uploads are refused for the plan's storage (storage_exceeded, at most once a day).
 */

type Db = Kysely<Database> | Transaction<Database>;
export const GB = 1024 * 1024 * 1024;

/** The subscription a workspace counts against, and its storage limit in bytes. */
export async function storageLimitOf(ctx: Pick<AppContext, 'config'>, db: Db, teamId: number, now: Date, opts: { lock?: boolean } = {}): Promise<{ subscriptionId: number | null; ownerId: number | null; limit: number }> {
  const team = await db.selectFrom('teams').select(['subscription_id', 'owner_id']).where('id', '=', teamId).executeTakeFirst();
  const subscriptionId = team?.subscription_id ?? null;
  let query = db.selectFrom('subscriptions').select(['id', 'user_id', 'limits', 'trial_ends_at', 'ends_at']).where('id', '=', subscriptionId ?? -1);
  // Locking the subscription makes parallel uploads into any of its workspaces count one after the other.
  if (opts.lock) query = query.forUpdate();
  const sub = subscriptionId === null ? undefined : await query.executeTakeFirst();
  // A workspace on no subscription (made before subscriptions, or by the instance itself; every
  // workspace made through the API is on one) is not under a plan: only the per-workspace cap holds.
  if (!sub && ctx.config.billing) return { subscriptionId: null, ownerId: team?.owner_id ?? null, limit: Number.MAX_SAFE_INTEGER };
  const limits = await effectiveLimits(ctx, db, sub ?? null, now);
  return { subscriptionId: sub?.id ?? null, ownerId: sub?.user_id ?? team?.owner_id ?? null, limit: limits.storage * GB };
}

/**
 * Counts `bytes` of a new upload against the workspace, inside the upload's transaction: refused
 * (413 storage_full) when the subscription's uploads would pass its plan's storage, or the
 * workspace's would pass WORKSPACE_STORAGE_LIMIT_MB; otherwise the figure rises and a
 * `storage.changed` event is appended.
 */
export async function reserveWorkspaceStorage(ctx: Pick<AppContext, 'config'>, trx: Transaction<Database>, teamId: number, bytes: number, path: string, now: Date): Promise<void> {
  const { subscriptionId, limit } = await storageLimitOf(ctx, trx, teamId, now, { lock: true });
  const before = subscriptionId === null ? await workspaceUsed(trx, teamId) : await storageUsedBySubscription(trx, subscriptionId);
  if (before + bytes > limit) throw storageFull();
  await reserveStorage(trx, teamId, bytes, ctx.config.files.workspaceStorageLimitBytes ?? Number.MAX_SAFE_INTEGER);
  await registerEventFloor(trx);
  await appendEvents(
    trx,
    [{ team_id: teamId, board_id: null, type: 'storage.changed', collection: null, record_id: path, item_id: null, actor_id: null, before: { used: before }, after: { used: before + bytes, limit, subscription_id: subscriptionId } }],
    now,
  );
}

/**
 * After an upload was refused for the plan's storage (its transaction rolled back): appends a
 * `storage.changed` event with `refused` (the bytes turned away) in a transaction of its own, so the
 * owner learns uploads are blocked even when no upload ever landed on exactly 100 %. A refusal by
 * the per-workspace cap alone (the plan still has room) is not the plan's and appends nothing.
 */
export async function noteStorageRefused(ctx: Pick<AppContext, 'config' | 'db'>, teamId: number, bytes: number, now: Date): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { subscriptionId, limit } = await storageLimitOf(ctx, trx, teamId, now);
    if (subscriptionId === null) return;
    const used = await storageUsedBySubscription(trx, subscriptionId);
    if (used + bytes <= limit) return;
    await registerEventFloor(trx);
    await appendEvents(
      trx,
      [{ team_id: teamId, board_id: null, type: 'storage.changed', collection: null, record_id: null, item_id: null, actor_id: null, before: { used }, after: { used, limit, subscription_id: subscriptionId, refused: bytes } }],
      now,
    );
  });
}

async function workspaceUsed(db: Db, teamId: number): Promise<number> {
  const row = await db.selectFrom('workspace_storage').select('bytes_used').where('team_id', '=', teamId).executeTakeFirst();
  return Number(row?.bytes_used ?? 0);
}

/** The threshold a figure is at: 0 below 80 %, 1 from 80 %, 2 at 100 %. */
export function storageLevel(used: number, limit: number): 0 | 1 | 2 {
  if (limit <= 0) return used > 0 ? 2 : 0;
  const rate = used / limit;
  return rate >= 1 ? 2 : rate >= 0.8 ? 1 : 0;
}

/**
 * The `storage-limits` event consumer: an upload that moved the subscription's figure into a
 * higher threshold tells the subscription's owner (storage_warning at 80 %, storage_exceeded at
 * 100 %), with `usage` and `limit` in bytes. The event id is the cause, so a redelivered event
 * tells nobody twice; dropping below 80 % and crossing again is a new crossing.
 */
export async function storageLimitsForEvent(event: DomainEvent, c: ConsumerContext): Promise<void> {
  if (event.type !== 'storage.changed') return;
  const before = Number(event.before?.used ?? 0);
  const used = Number(event.after?.used ?? 0);
  const limit = Number(event.after?.limit ?? 0);
  const refused = Number(event.after?.refused ?? 0);
  const subscriptionId = event.after?.subscription_id;
  // An upload turned away: "storage is full" at most once a day per subscription (usage: what the
  // upload would have made it).
  const cause = refused > 0 ? `storage-full:${String(subscriptionId ?? `team-${event.team_id}`)}:${event.created_at.slice(0, 10)}` : `storage:${event.id}`;
  const usage = refused > 0 ? used + refused : used;
  if (refused <= 0 && storageLevel(used, limit) <= storageLevel(before, limit)) return;
  const owner =
    typeof subscriptionId === 'number'
      ? (await c.db.selectFrom('subscriptions').select('user_id').where('id', '=', subscriptionId).executeTakeFirst())?.user_id
      : (await c.db.selectFrom('teams').select('owner_id').where('id', '=', event.team_id).executeTakeFirst())?.owner_id;
  if (!owner) return;
  await notifyLimit(c, cause, { teamId: event.team_id, kind: 'storage', usage, limit, userIds: [owner] });
}
