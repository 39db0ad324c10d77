import { sql } from 'kysely';
import { monthOf, usageState, type AutomationUsage } from '../../schema/automations';
import type { Db } from '../sync/store';
import { limitOf } from '../workspaces/subscriptions';

/**
 * The monthly run count per workspace against the plan's AutomationRunsLimit (workspace.md §4,
 * §9): a calendar month in UTC, so the count starts again on the 1st.
 */

/** The limit when the workspace's plan does not name one: the free plan's (migration 0002). */
export const DEFAULT_AUTOMATION_RUNS_LIMIT = 100;
export const RUNS_LIMIT_NAME = 'AutomationRunsLimit';

/** The workspace's monthly runs limit, from its subscription's limits. */
export async function automationRunsLimit(db: Db, teamId: number): Promise<number> {
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

/** This month's runs so far, holding the row until the transaction ends (runs of a workspace count one after the other). */
export async function lockMonthRuns(db: Db, teamId: number, month: string): Promise<number> {
  await sql`insert into automation_usage (team_id, month, runs) values (${teamId}, ${month}, 0) on conflict do nothing`.execute(db);
  const { rows } = await sql<{ runs: number }>`select runs from automation_usage where team_id = ${teamId} and month = ${month} for update`.execute(db);
  return Number(rows[0]?.runs ?? 0);
}

export async function countRun(db: Db, teamId: number, month: string): Promise<number> {
  const { rows } = await sql<{ runs: number }>`update automation_usage set runs = runs + 1 where team_id = ${teamId} and month = ${month} returning runs`.execute(db);
  return Number(rows[0]!.runs);
}

/** Whether the workspace's automations are stopped for the rest of the month. */
export async function runsExhausted(db: Db, teamId: number, now: Date): Promise<boolean> {
  const row = await db.selectFrom('automation_usage').select('runs').where('team_id', '=', teamId).where('month', '=', monthOf(now)).executeTakeFirst();
  return Number(row?.runs ?? 0) >= (await automationRunsLimit(db, teamId));
}

/** The owners and admins of the workspace: who hears about the limit. */
export async function ownersAndAdmins(db: Db, teamId: number): Promise<number[]> {
  const team = await db.selectFrom('teams').select('owner_id').where('id', '=', teamId).executeTakeFirst();
  const admins = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).where('role', '=', 'admin').where('verified_at', 'is not', null).execute();
  return [...new Set([...(team ? [team.owner_id] : []), ...admins.map((a) => a.user_id)])];
}

/** GET /api/{teamId}/automations/usage: this month's figure. */
export async function usageOf(db: Db, teamId: number, now: Date): Promise<AutomationUsage> {
  const month = monthOf(now);
  const row = await db.selectFrom('automation_usage').select('runs').where('team_id', '=', teamId).where('month', '=', month).executeTakeFirst();
  const runs = Number(row?.runs ?? 0);
  const limit = await automationRunsLimit(db, teamId);
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
