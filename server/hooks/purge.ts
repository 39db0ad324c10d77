import { sql } from 'kysely';
import type { AppContext } from '../context';
import { HOOK_LOG_DAYS } from '../../schema/hooks';

/**
 * Hook logs and finished deliveries are kept HOOK_LOG_DAYS (30) days. The job `hooks.purge`
 * removes older ones and enqueues its next run an hour later, keyed by that hour, so however
 * many servers start it, one run per hour happens (at least once; deleting twice is harmless).
 */

export const PURGE_JOB = 'hooks.purge';
const HOUR = 3600_000;

export async function purgeHookLogs(ctx: AppContext): Promise<{ logs: number; deliveries: number }> {
  const before = new Date(ctx.now().getTime() - HOOK_LOG_DAYS * 24 * HOUR);
  const logs = await sql`delete from hook_logs where created_at < ${before}`.execute(ctx.db);
  const deliveries = await sql`delete from hook_deliveries where finished_at < ${before}`.execute(ctx.db);
  return { logs: Number(logs.numAffectedRows ?? 0), deliveries: Number(deliveries.numAffectedRows ?? 0) };
}

/** Enqueues the purge of the hour after `at` (a no-op when that hour's run is enqueued already). */
export async function schedulePurge(ctx: AppContext, at: Date): Promise<void> {
  const next = new Date(Math.floor(at.getTime() / HOUR) * HOUR + HOUR);
  await ctx.jobs.enqueue(PURGE_JOB, {}, { key: `purge:${next.toISOString()}`, runAt: next });
}
