import { sql, type Transaction } from 'kysely';
import {
  actionSchema,
  AUTOBOT_USER_ID,
  conditionsHold,
  isTimeZone,
  monthOf,
  triggerSchema,
  usageState,
  type AutomationRecord,
  type ChainLink,
  type RunResult,
  type TriggerFact,
} from '../../schema/automations';
import type { AttributeRef } from '../../schema/filters';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import type { JobQueue } from '../jobs/types';
import { notifyLimit } from '../notifications/emit';
import type { NotifyContext } from '../notifications/notify';
import { canReadItem, readViewOf, writeAs } from '../sync/actor';
import { type PendingEvent } from '../sync/scope';
import { boardRecords, findRecord } from '../sync/store';
import { failureText, performAction, type ActionRun } from './actions';
import { authorMayRun, switchOff } from './author';
import { readOnlyReason } from '../billing/read-only';
import { automationRunsLimit, countRunWithin, EXACT_COUNT_MARGIN, monthRuns, ownersAndAdmins } from './usage';

/**
 * The run job: one automation on one item for one cause, exactly once in effect. Its row in
 * automation_runs (unique per automation × cause) is claimed first in the same transaction as
 * the actions' writes, so a second delivery of the job (at least once) finds it and does nothing,
 * and a run that dies leaves neither the row nor half its writes.
 */

export const RUN_JOB = 'automations.run';

export interface RunPayload {
  team_id: number;
  board_id: string;
  automation_id: string;
  item_id: string;
  /** A domain event id, or `date:{item}:{due}` for a date trigger. */
  cause: string;
  fact: TriggerFact;
  /** The automations (and items) that led to this run; its writes carry it plus this one. */
  chain: ChainLink[];
}

/** PostgreSQL's "try again" answers: a deadlock or a serialization failure ends the whole transaction. */
const RETRYABLE = new Set(['40P01', '40001']);
const isRetryable = (error: unknown) => RETRYABLE.has(String((error as { code?: unknown } | null)?.code ?? ''));

/**
 * Runs of one workspace work side by side (decision 0200), so two of them writing the same records
 * in a different order can deadlock; PostgreSQL then ends one transaction, which is tried again
 * here at once (nothing of it stayed), before the job's own slower retry.
 */
export async function runAutomation(ctx: AppContext, payload: RunPayload, jobs: JobQueue = ctx.jobs): Promise<RunResult | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(ctx, payload, jobs);
    } catch (error) {
      if (!isRetryable(error) || attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}

async function runOnce(ctx: AppContext, payload: RunPayload, jobs: JobQueue): Promise<RunResult | null> {
  const now = ctx.now();
  let events: PendingEvent[] = [];
  const result = await ctx.db.transaction().execute(async (trx) => {
    const claim = await sql<{ id: string }>`
      insert into automation_runs (team_id, board_id, automation_id, item_id, cause, trigger, result, counted, month, created_at)
      values (${payload.team_id}, ${payload.board_id}, ${payload.automation_id}, ${payload.item_id}, ${payload.cause}, ${payload.fact.type}, 'running', false, ${monthOf(now)}, ${now})
      on conflict (automation_id, cause) do nothing returning id`.execute(trx);
    const runId = claim.rows[0]?.id;
    if (!runId) return null; // ran already
    const finish = async (outcome: RunResult, error: string | null, counted: boolean) => {
      await trx.updateTable('automation_runs').set({ result: outcome, error, counted }).where('id', '=', runId).execute();
      return outcome;
    };

    const stored = await findRecord(trx, 'automation', payload.automation_id);
    const automation = stored?.data as unknown as AutomationRecord | undefined;
    if (!stored || stored.team_id !== payload.team_id || !automation?.enabled) return finish('skipped', 'the automation is off or gone', false);
    // The run acts as the automation's author, with the author's rights of now (N2, sync/actor.ts);
    // Autobot stays the author shown on its writes.
    const authorId = automation.created_by ?? stored.created_by;
    const acting = authorId === null || authorId === undefined ? null : await writeAs(trx, payload.team_id, { userId: authorId, shownAs: AUTOBOT_USER_ID }, now);
    if (!acting) return finish('skipped', 'the workspace is gone', false);
    const { scope, team } = acting;
    // A workspace whose subscription ended is read-only for everyone (W4.3, decision 0360): its
    // automations do not act either, whatever started them (a date arriving, a button, a change).
    if (await readOnlyReason(ctx, trx, team.id, now)) return finish('skipped', 'the workspace is read-only: its subscription has ended', false);
    if (!(await authorMayRun(acting, stored.board_id))) {
      events = await switchOff(trx, team, stored, now, inTransaction(jobs, trx));
      return finish('skipped', 'the automation’s author may no longer manage automations on this board: it is switched off', false);
    }

    const month = monthOf(now);
    // A first look without a lock: a month already used up stops here, before any work.
    const runs = await monthRuns(trx, team.id, month);
    const limit = await automationRunsLimit(trx, team.id, ctx);
    const notify: NotifyContext = { db: trx, jobs: inTransaction(jobs, trx), now: () => now };
    if (runs >= limit) {
      await tellLimit(notify, team.id, runs, limit, payload.board_id, month);
      return finish('limit', 'this month’s automation runs are used up', false);
    }

    const item = await findRecord(trx, 'item', payload.item_id);
    if (!item || item.deleted_at || item.team_id !== team.id) return finish('skipped', 'the item is gone', false);
    // An item its author may not read is not the automation's to touch, nor to name anywhere.
    if (!canReadItem(await readViewOf(trx, team, scope.viewer.id, acting.role), item)) return finish('skipped', 'the automation’s author may not read this item', false);
    if (automation.conditions.length > 0) {
      // The board's attributes and the item's values are read only for conditions.
      const attributes = await attributesOf(trx, team.id, item.board_id);
      const values = await valuesOf(trx, team.id, item.id);
      const itemLike = { id: item.id, name: String(item.data.name ?? ''), created_at: (item.data.created_at as string | undefined) ?? null };
      if (!conditionsHold(automation, itemLike, attributes, (_i, attributeId) => values.get(attributeId) ?? null)) return finish('skipped', 'conditions not met', false);
    }

    const actions = automation.actions.map((a) => actionSchema.safeParse(a));
    if (actions.some((a) => !a.success) || !triggerSchema.safeParse(automation.trigger).success) return finish('failed', 'The automation is not complete or not valid.', false);

    scope.via = {
      automation_id: stored.id,
      automation_name: automation.name,
      chain: [...payload.chain, { automation_id: stored.id, item_id: item.id }],
    };
    const run: ActionRun = {
      ctx,
      scope,
      notify,
      automation: { id: stored.id, name: automation.name, board_id: stored.board_id },
      item,
      runKey: `${stored.id}:${payload.cause}`,
      timezone: once(() => timezoneOf(trx, automation)),
      boardName: once(async () => String((await findRecord(trx, 'folder', item.board_id))?.data.name ?? '')),
    };
    let outcome: RunResult = 'done';
    let error: string | null = null;
    await sql`savepoint automation_actions`.execute(trx);
    try {
      for (const [index, action] of actions.entries()) await performAction(run, action.data!, index);
      await scope.finish();
      await scope.flushWrites();
    } catch (failure) {
      // A deadlock ends the whole transaction: the run is tried again (runAutomation).
      if (isRetryable(failure)) throw failure;
      // Nothing of a failed run stays: its writes go, the run is logged with the reason.
      await sql`rollback to savepoint automation_actions`.execute(trx);
      outcome = 'failed';
      error = failureText(failure);
    }
    // Counting comes last, so a count row is locked only from here to the commit (decision 0200).
    // When other runs of the workspace used the last of the month meanwhile, this one's writes go.
    const counted = await countRunWithin(trx, team.id, month, limit);
    if (counted === null) {
      await sql`rollback to savepoint automation_actions`.execute(trx);
      await tellLimit(notify, team.id, limit, limit, payload.board_id, month);
      return finish('limit', 'this month’s automation runs are used up', false);
    }
    await sql`release savepoint automation_actions`.execute(trx);
    if (outcome === 'done') events = scope.events;
    // Runs counting side by side each see the others' counts only once committed, so a threshold is
    // told by every run within the margin after it (the notification is made once: its key).
    if (usageState(counted, limit) !== usageState(Math.max(0, counted - EXACT_COUNT_MARGIN), limit)) await tellLimit(notify, team.id, counted, limit, payload.board_id, month);
    return finish(outcome, error, true);
  });
  if (events.length > 0) {
    ctx.jobs.kick();
    await publish(ctx, events);
  }
  return result;
}

/** The warning (80 %) or exceeded (100 %) notification, once per month each, to owners and admins. */
async function tellLimit(c: NotifyContext, teamId: number, usage: number, limit: number, boardId: string, month: string): Promise<void> {
  await notifyLimit(c, `runs:${teamId}:${month}`, { teamId, kind: 'automation_runs', usage, limit, boardId, userIds: await ownersAndAdmins(c.db, teamId) });
}

function inTransaction(jobs: JobQueue, trx: Transaction<Database>): JobQueue {
  return Object.create(jobs, { enqueue: { value: (name: string, payload: unknown, opts: Parameters<JobQueue['enqueue']>[2] = {}) => jobs.enqueue(name, payload, { db: trx, ...opts }) } });
}

async function attributesOf(trx: Transaction<Database>, teamId: number, boardId: string): Promise<Map<string, AttributeRef>> {
  const rows = await boardRecords(trx, teamId, boardId, 'attribute');
  return new Map(rows.map((r) => [r.id, { id: r.id, kind: String(r.data.kind), name: String(r.data.name ?? ''), settings: (r.data.settings as Record<string, unknown>) ?? {} }]));
}

async function valuesOf(trx: Transaction<Database>, teamId: number, itemId: string): Promise<Map<string, unknown>> {
  const rows = await trx
    .selectFrom('records')
    .select(['data'])
    .where('team_id', '=', teamId)
    .where('collection', '=', 'value')
    .where(sql<string>`data->>'item_id'`, '=', itemId)
    .execute();
  return new Map(rows.map((r) => [String((r.data as { attribute_id: string }).attribute_id), (r.data as { value: unknown }).value]));
}

/** A value worked out at its first use, then kept. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => (made ??= make());
}

/** Relative dates and {{today}} are read in the trigger's zone, else its author's, else UTC. */
async function timezoneOf(trx: Transaction<Database>, automation: AutomationRecord): Promise<string> {
  const zone = (automation.trigger as { timezone?: unknown } | null)?.timezone;
  if (typeof zone === 'string' && isTimeZone(zone)) return zone;
  if (automation.created_by) {
    const user = await trx.selectFrom('users').select('timezone').where('id', '=', automation.created_by).executeTakeFirst();
    if (user?.timezone && isTimeZone(user.timezone)) return user.timezone;
  }
  return 'UTC';
}

async function publish(ctx: AppContext, events: PendingEvent[]): Promise<void> {
  try {
    if (ctx.broadcaster.publishMany) await ctx.broadcaster.publishMany(events);
    else for (const e of events) await ctx.broadcaster.publish(e.channel, e.event, e.data);
  } catch (error) {
    // The writes stand; clients catch up through /changes.
    console.warn('automation broadcast failed', error);
  }
}
