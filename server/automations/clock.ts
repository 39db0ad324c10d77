import { sql } from 'kysely';
import { dateTriggerDueAt, triggerSchema, type AutomationRecord } from '../../schema/automations';
import type { AppContext } from '../context';
import type { JobQueue } from '../jobs/types';
import type { Db } from '../sync/store';
import { RUN_JOB, type RunPayload } from './run';

/**
 * Date triggers ("when Due date arrives, at 09:00 in Europe/Belgrade"): a scheduled job scans the
 * window since its last scan, (checked_until, now], for values of watched date attributes whose
 * moment falls in it, and queues a run for each (key: automation, item and moment, so a scan
 * repeated after a crash queues nothing twice). The clock is the server's (`ctx.now()`), which
 * tests move (`server.advance`). The job re-queues itself for the next minute.
 */

export const TICK_JOB = 'automations.tick';
export const TICK_MS = 60_000;
const CLOCK = 'date_triggers';

export async function scanDateTriggers(ctx: AppContext, now: Date = ctx.now()): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    await startClock(trx, new Date(now.getTime() - TICK_MS));
    const { rows } = await sql<{ checked_until: Date }>`select checked_until from automation_clock where name = ${CLOCK} for update`.execute(trx);
    const from = new Date(rows[0]!.checked_until);
    if (from >= now) return 0;
    const automations = await trx
      .selectFrom('records')
      .select(['id', 'team_id', 'board_id', 'data'])
      .where('collection', '=', 'automation')
      .where(sql<string>`data->>'enabled'`, '=', 'true')
      .where(sql<string>`data->'trigger'->>'type'`, '=', 'date_arrives')
      .execute();
    let queued = 0;
    for (const row of automations) {
      const parsed = triggerSchema.safeParse((row.data as AutomationRecord).trigger);
      if (!parsed.success || parsed.data.type !== 'date_arrives') continue;
      const trigger = parsed.data;
      const values = await trx
        .selectFrom('records')
        .select(['data'])
        .where('team_id', '=', row.team_id)
        .where('board_id', '=', row.board_id)
        .where('collection', '=', 'value')
        .where(sql<string>`data->>'attribute_id'`, '=', trigger.attribute_id)
        .execute();
      for (const { data } of values) {
        const value = data as { item_id: string; value: unknown };
        const due = dateTriggerDueAt(trigger, value.value);
        if (!due || due <= from || due > now) continue;
        const cause = `date:${value.item_id}:${due.toISOString()}`;
        const payload: RunPayload = {
          team_id: row.team_id,
          board_id: row.board_id,
          automation_id: row.id,
          item_id: value.item_id,
          cause,
          fact: { type: 'date_arrives', item_id: value.item_id, attribute_id: trigger.attribute_id, date: String(value.value) },
          chain: [],
        };
        await ctx.jobs.enqueue(RUN_JOB, payload, { key: `${row.id}:${cause}`, db: trx });
        queued++;
      }
    }
    await sql`update automation_clock set checked_until = ${now} where name = ${CLOCK}`.execute(trx);
    return queued;
  });
}

/** The start of the minute after `now`. */
export function nextTick(now: Date): Date {
  return new Date(Math.floor(now.getTime() / TICK_MS) * TICK_MS + TICK_MS);
}

/** The clock starts when the first date automation is switched on: dates before that never fire. */
async function startClock(db: Db, at: Date): Promise<void> {
  await sql`insert into automation_clock (name, checked_until) values (${CLOCK}, ${at}) on conflict do nothing`.execute(db);
}

/**
 * Queues the tick for the next minute (one per minute whatever the number of servers: the key).
 * Called when a date automation is switched on (the consumer) and by each tick while one is on.
 */
export async function scheduleTick(jobs: JobQueue, now: Date, db: Db): Promise<void> {
  await startClock(db, now);
  const at = nextTick(now);
  await jobs.enqueue(TICK_JOB, {}, { key: `tick:${at.toISOString()}`, runAt: at, maxAttempts: 3, db });
}

async function anyDateAutomation(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('records')
    .select('id')
    .where('collection', '=', 'automation')
    .where(sql<string>`data->>'enabled'`, '=', 'true')
    .where(sql<string>`data->'trigger'->>'type'`, '=', 'date_arrives')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function tick(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  await scanDateTriggers(ctx, now);
  if (await anyDateAutomation(ctx.db)) await scheduleTick(ctx.jobs, now, ctx.db);
}
