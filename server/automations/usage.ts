import { sql } from 'kysely';
import { monthOf, usageState, type AutomationUsage } from '../../schema/automations';
import type { Db } from '../sync/store';
import { limitOf } from '../workspaces/subscriptions';
import { workspaceLimits } from '../billing/limits';
import type { AppContext } from '../context';

/**
 * The monthly run count per workspace against the plan's AutomationRunsLimit (workspace.md §4,
 * §9): a calendar month in UTC, so the count starts again on the 1st.
 */

/** The limit when the workspace's plan does not name one: the free plan's (migration 0002). */
export const DEFAULT_AUTOMATION_RUNS_LIMIT = 100;
export const RUNS_LIMIT_NAME = 'AutomationRunsLimit';

/**
 * The workspace's monthly runs limit. With `ctx` (every run and the usage call): the effective
 * limit of its subscription (server/billing/limits.ts, decisions 0240, 0255) — BILLING=off gives
 * the top plan's, a trial its plan's, an ended trial or plan the free plan's, add-ons add to it.
 * Without `ctx`: the limit stored on the subscription.
 */
export async function automationRunsLimit(db: Db, teamId: number, ctx?: Pick<AppContext, 'config'> & Partial<Pick<AppContext, 'now'>>): Promise<number> {
  if (ctx) return runsLimitOf({ limits: await workspaceLimits(ctx, db, teamId, ctx.now?.() ?? new Date()) });
  const row = await db
    .selectFrom('teams')
    .leftJoin('subscriptions', 'subscriptions.id', 'teams.subscription_id')
    .select(['subscriptions.limits'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
  return runsLimitOf(row);
}

/** A subscription's monthly runs limit; a plan that names none gets the free plan's. */
export function runsLimitOf(sub: { limits?: unknown } | null | undefined): number {
  const limits = sub?.limits as Record<string, number> | null | undefined;
  if (!limits || typeof limits[RUNS_LIMIT_NAME] !== 'number') return DEFAULT_AUTOMATION_RUNS_LIMIT;
  return limitOf({ limits } as never, RUNS_LIMIT_NAME);
}

/**
 * The month's count is kept in USAGE_SHARDS rows per workspace (decision 0200): a run adds one to a
 * shard picked at random, so runs of one workspace working side by side rarely wait for each other.
 */
export const USAGE_SHARDS = 16;
/**
 * Far from the limit a run counts without looking at the others: runs counting at the same moment
 * (at most one per database connection) cannot together pass a limit this far away. Within it,
 * the count is judged exactly, with every shard locked.
 */
export const EXACT_COUNT_MARGIN = 200;

/** This month's runs so far (read without a lock: the count itself is judged again when the run counts). */
export async function monthRuns(db: Db, teamId: number, month: string): Promise<number> {
  const { rows } = await sql<{ runs: string | null }>`select sum(runs) as runs from automation_usage where team_id = ${teamId} and month = ${month}`.execute(db);
  return Number(rows[0]?.runs ?? 0);
}

/**
 * Counts one run when the month still has room: the count after it, or null when the limit was
 * reached meanwhile by runs of the same workspace. Near the limit (and for small limits) every
 * shard row is locked, in shard order, and the sum judged, so the limit is never passed; far from
 * it one shard row is added to and held only until the commit.
 */
export async function countRunWithin(db: Db, teamId: number, month: string, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const shard = Math.floor(Math.random() * USAGE_SHARDS);
  if (limit > EXACT_COUNT_MARGIN) {
    const { rows } = await sql<{ runs: string }>`
      with total as (select coalesce(sum(runs), 0) as runs from automation_usage where team_id = ${teamId} and month = ${month})
      insert into automation_usage as u (team_id, month, shard, runs)
      select ${teamId}, ${month}, ${shard}, 1 from total where total.runs + ${EXACT_COUNT_MARGIN} < ${limit}
      on conflict (team_id, month, shard) do update set runs = u.runs + 1
      returning (select runs from total) + 1 as runs`.execute(db);
    if (rows[0]) return Number(rows[0].runs);
  }
  // Near the limit: all shards exist and are locked in one order (no deadlock between two counters).
  await sql`
    insert into automation_usage (team_id, month, shard, runs)
    select ${teamId}, ${month}, s, 0 from generate_series(0, ${USAGE_SHARDS - 1}) as s
    on conflict do nothing`.execute(db);
  const { rows } = await sql<{ runs: number }>`select runs from automation_usage where team_id = ${teamId} and month = ${month} order by shard for update`.execute(db);
  const runs = rows.reduce((sum, r) => sum + Number(r.runs), 0);
  if (runs >= limit) return null;
  await sql`update automation_usage set runs = runs + 1 where team_id = ${teamId} and month = ${month} and shard = ${shard}`.execute(db);
  return runs + 1;
}

/** Whether the workspace's automations are stopped for the rest of the month. */
export async function runsExhausted(db: Db, teamId: number, now: Date): Promise<boolean> {
  return (await monthRuns(db, teamId, monthOf(now))) >= (await automationRunsLimit(db, teamId));
}

/** The owners and admins of the workspace: who hears about the limit. */
export async function ownersAndAdmins(db: Db, teamId: number): Promise<number[]> {
  const team = await db.selectFrom('teams').select('owner_id').where('id', '=', teamId).executeTakeFirst();
  const admins = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).where('role', '=', 'admin').where('verified_at', 'is not', null).execute();
  return [...new Set([...(team ? [team.owner_id] : []), ...admins.map((a) => a.user_id)])];
}

/** GET /api/{teamId}/automations/usage: this month's figure. */
export async function usageOf(db: Db, teamId: number, now: Date, ctx?: Pick<AppContext, 'config'> & Partial<Pick<AppContext, 'now'>>): Promise<AutomationUsage> {
  const month = monthOf(now);
  const runs = await monthRuns(db, teamId, month);
  const limit = await automationRunsLimit(db, teamId, ctx);
  const boards = await db
    .selectFrom('automation_runs')
    .select(['board_id', (eb) => eb.fn.countAll<string>().as('runs')])
    .where('team_id', '=', teamId)
    .where('month', '=', month)
    .where('counted', '=', true)
    .groupBy('board_id')
    .execute();
  return {
    month,
    runs,
    limit,
    rate: limit > 0 ? runs / limit : 1,
    state: usageState(runs, limit),
    boards: boards.map((b) => ({ board_id: b.board_id, runs: Number(b.runs) })).sort((a, b) => b.runs - a.runs),
  };
}
