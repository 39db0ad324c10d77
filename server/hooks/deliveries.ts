import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { JobQueue } from '../jobs/types';
import type { Db } from '../sync/store';
import { sendRaw, LOG_BODY_LIMIT, type DeliveryBody } from './send';
import type { AddressRule } from '../outbound';

/**
 * Deliveries (decision 0140): one row per (event, hook) or per bare-URL send, sent by the job
 * `hooks.deliver` one attempt at a time. Retries follow RETRY_SCHEDULE_MS (not the job queue's
 * own backoff): each attempt is its own job, keyed by delivery and attempt, enqueued by the
 * attempt before it when it failed. A delivery's state and its log row change in one transaction
 * after the request, guarded by the attempt number, so a job run twice (at least once) records
 * its attempt once and schedules the next one once.
 *
 * Order per item: deliveries of one hook and one item share a lane; only the oldest unfinished
 * one of a lane is queued, the others wait, and finishing one (sent, or failed for good) queues
 * the next. Lane changes take a transaction-scoped advisory lock on the lane, so a delivery added
 * while its predecessor finishes is never left waiting.
 */

export const DELIVER_JOB = 'hooks.deliver';
/** Waits before attempts 2..6: about 10 s, 1 min, 5 min, 30 min, 2 h; then the delivery fails. */
export const RETRY_SCHEDULE_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** Deliveries failed for good one after another that switch a hook off. */
export const DEACTIVATE_AFTER = 50;

export interface DeliverPayload {
  delivery_id: string;
  attempt: number;
}

/** What the deliver job needs besides the database: the address rules, and who to tell. */
export interface DeliveryRuntime extends AddressRule {
  timeoutMs?: number;
  /** Called in the transaction that switched a hook off (the owner's notification). */
  onDeactivated?: (db: Db, hook: { id: string; team_id: number; user_id: number; url: string }, now: Date) => Promise<void>;
}

const lock = (db: Db, lane: string) => sql`select pg_advisory_xact_lock(hashtext(${lane}))`.execute(db);

/**
 * Adds a delivery in the caller's transaction: queued (with its first job) when its lane has
 * nothing unfinished, else waiting. A second call with the same dedupe key adds nothing.
 * Returns the delivery id (the existing one for a repeated key).
 */
export async function addDelivery(
  db: Db,
  jobs: JobQueue,
  input: { hookId: string | null; url?: string | null; secret?: string | null; teamId: number; eventId: string | null; dedupeKey: string; lane: string | null; body: Omit<DeliveryBody, 'id'> },
  now: Date,
): Promise<string> {
  if (input.lane) await lock(db, input.lane);
  const existing = await db.selectFrom('hook_deliveries').select('id').where('dedupe_key', '=', input.dedupeKey).executeTakeFirst();
  if (existing) return existing.id;
  const busy = input.lane
    ? await db.selectFrom('hook_deliveries').select('id').where('lane', '=', input.lane).where('state', 'in', ['waiting', 'queued']).limit(1).executeTakeFirst()
    : undefined;
  const id = randomUUID();
  const body: DeliveryBody = { id, ...input.body };
  await db
    .insertInto('hook_deliveries')
    .values({
      id,
      hook_id: input.hookId,
      url: input.url ?? null,
      secret: input.secret ?? null,
      team_id: input.teamId,
      event_id: input.eventId,
      dedupe_key: input.dedupeKey,
      lane: input.lane,
      event: input.body.event,
      body: JSON.stringify(body),
      state: busy ? 'waiting' : 'queued',
      last_error: null,
      created_at: now,
      finished_at: null,
    })
    .execute();
  if (!busy) await jobs.enqueue(DELIVER_JOB, { delivery_id: id, attempt: 1 } satisfies DeliverPayload, { key: `${id}:1`, db, maxAttempts: 10 });
  return id;
}

/** Queues the oldest waiting delivery of a lane (its predecessor just finished). Lane locked by the caller. */
async function releaseNext(db: Db, jobs: JobQueue, lane: string): Promise<void> {
  const next = await db.selectFrom('hook_deliveries').select('id').where('lane', '=', lane).where('state', '=', 'waiting').orderBy('seq').limit(1).executeTakeFirst();
  if (!next) return;
  await db.updateTable('hook_deliveries').set({ state: 'queued' }).where('id', '=', next.id).execute();
  await jobs.enqueue(DELIVER_JOB, { delivery_id: next.id, attempt: 1 } satisfies DeliverPayload, { key: `${next.id}:1`, db, maxAttempts: 10 });
}

const truncate = (text: string | null) => (text === null ? null : text.length > LOG_BODY_LIMIT ? `${text.slice(0, LOG_BODY_LIMIT)}…` : text);

/** The job: one attempt of one delivery. Idempotent (see the file's comment). */
export async function runDeliveryAttempt(ctx: AppContext, runtime: DeliveryRuntime, payload: DeliverPayload): Promise<void> {
  const delivery = await ctx.db.selectFrom('hook_deliveries').selectAll().where('id', '=', payload.delivery_id).executeTakeFirst();
  // Gone (its hook was deleted), finished, or this attempt was recorded by an earlier run.
  if (!delivery || delivery.state !== 'queued' || delivery.attempts >= payload.attempt) return;
  const hook = delivery.hook_id ? await ctx.db.selectFrom('hooks').select(['id', 'team_id', 'user_id', 'url', 'secret', 'active']).where('id', '=', delivery.hook_id).executeTakeFirst() : null;
  if (delivery.hook_id && (!hook || !hook.active)) {
    await finish(ctx, delivery, payload.attempt, 'skipped', hook ? 'The hook is switched off.' : 'The hook was deleted.');
    return;
  }
  const target = hook ? { url: hook.url, secret: hook.secret } : { url: delivery.url!, secret: delivery.secret };
  const result = await sendRaw(target, delivery.body, { event: delivery.event, deliveryId: delivery.id }, runtime);

  const now = ctx.now();
  const last = payload.attempt >= MAX_ATTEMPTS;
  const status = result.ok ? 'success' : last ? 'failed' : 'retrying';
  await ctx.db.transaction().execute(async (trx) => {
    if (delivery.lane) await lock(trx, delivery.lane);
    // The guard: only the first run of this attempt records it.
    const claimed = await trx
      .updateTable('hook_deliveries')
      .set({ attempts: payload.attempt, last_error: result.error, ...(result.ok || last ? { state: result.ok ? 'done' : 'failed', finished_at: now } : {}) })
      .where('id', '=', delivery.id)
      .where('state', '=', 'queued')
      .where('attempts', '<', payload.attempt)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return;
    if (hook) {
      await trx
        .insertInto('hook_logs')
        .values({ hook_id: hook.id, delivery_id: delivery.id, event: delivery.event, attempt: payload.attempt, status, response_status: result.status, duration_ms: result.duration_ms, error: result.error, request_body: truncate(delivery.body), response_body: truncate(result.response_body), created_at: now })
        .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
        .execute();
    }
    if (!result.ok && !last) {
      const runAt = new Date(now.getTime() + RETRY_SCHEDULE_MS[payload.attempt - 1]!);
      await ctx.jobs.enqueue(DELIVER_JOB, { delivery_id: delivery.id, attempt: payload.attempt + 1 } satisfies DeliverPayload, { key: `${delivery.id}:${payload.attempt + 1}`, runAt, db: trx, maxAttempts: 10 });
      return;
    }
    if (hook) await countOutcome(trx, runtime, hook, result.ok, now);
    if (delivery.lane) await releaseNext(trx, ctx.jobs, delivery.lane);
  });
}

/** A delivery that will not be sent (its hook is off or gone): finished, and its lane moves on. */
async function finish(ctx: AppContext, delivery: { id: string; lane: string | null }, attempt: number, _why: 'skipped', error: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (delivery.lane) await lock(trx, delivery.lane);
    const claimed = await trx
      .updateTable('hook_deliveries')
      .set({ state: 'failed', attempts: attempt, last_error: error, finished_at: ctx.now() })
      .where('id', '=', delivery.id)
      .where('state', '=', 'queued')
      .returning('id')
      .executeTakeFirst();
    if (claimed && delivery.lane) await releaseNext(trx, ctx.jobs, delivery.lane);
  });
}

/** A delivery finished: success resets the hook's failure count; a failure adds one, and the 50th switches it off. */
async function countOutcome(trx: Db, runtime: DeliveryRuntime, hook: { id: string; team_id: number; user_id: number; url: string }, ok: boolean, now: Date): Promise<void> {
  if (ok) {
    await trx.updateTable('hooks').set({ failures_in_a_row: 0 }).where('id', '=', hook.id).where('failures_in_a_row', '>', 0).execute();
    return;
  }
  const row = await trx.updateTable('hooks').set({ failures_in_a_row: sql`failures_in_a_row + 1` }).where('id', '=', hook.id).returning(['failures_in_a_row', 'active']).executeTakeFirst();
  if (!row || !row.active || row.failures_in_a_row < DEACTIVATE_AFTER) return;
  await trx.updateTable('hooks').set({ active: false, deactivated_at: now, updated_at: now }).where('id', '=', hook.id).execute();
  await runtime.onDeactivated?.(trx, hook, now);
}
