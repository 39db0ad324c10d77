import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import type { BoardJobRow } from './store';

/**
 * Fair sharing of heavy work (issue #31): a board job starts running only when fewer than
 * maxRunningOf(ctx) board jobs run on the instance and, for an import, no other import of
 * its workspace runs. Until then it stays `queued` with the phase `waiting`; the tray shows its
 * place (placesOf). The check and the start are one transaction under one advisory lock, so two
 * runners (or two API servers on one PostgreSQL) never both start past the limits.
 */
export const admission = { maxRunning: 2 };

/** The cap on this instance: the operator's BOARD_JOBS_MAX_RUNNING (docs/operations.md), else admission.maxRunning. */
export const maxRunningOf = (ctx: AppContext): number => ctx.config.boardJobsMaxRunning ?? admission.maxRunning;

const isImport = (kind: string) => kind.startsWith('import.');
/** Any number, the same on every server: the advisory lock of the admission. */
const ADMISSION_LOCK = 310_031;

/**
 * Starts the job if the limits allow: true when it is now running (or was already). `alongside`
 * runs in the same transaction when it starts (the runner queues the job's work there).
 */
export async function admitBoardJob(ctx: AppContext, job: BoardJobRow, alongside?: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ADMISSION_LOCK})`.execute(trx);
    const running = await trx.selectFrom('board_jobs').select(['id', 'team_id', 'kind']).where('state', '=', 'running').where('id', '!=', job.id).execute();
    const blocked = running.length >= maxRunningOf(ctx) || (isImport(job.kind) && running.some((r) => r.team_id === job.team_id && isImport(r.kind)));
    if (blocked) {
      await trx.updateTable('board_jobs').set({ phase: 'waiting' }).where('id', '=', job.id).where('state', '=', 'queued').where('phase', '!=', 'waiting').execute();
      return false;
    }
    const started = await trx.updateTable('board_jobs').set({ state: 'running', updated_at: ctx.now() }).where('id', '=', job.id).where('state', 'in', ['queued', 'running']).returning('id').executeTakeFirst();
    if (started && alongside) await alongside(trx);
    return Boolean(started);
  });
}

/** Each waiting job's place in the line (1 = next), by when it was started. */
export async function placesOf(ctx: AppContext, jobs: { id: string; state: string; phase: string }[]): Promise<Map<string, number>> {
  const places = new Map<string, number>();
  if (!jobs.some((j) => j.state === 'queued' && j.phase === 'waiting')) return places;
  const line = await ctx.db.selectFrom('board_jobs').select('id').where('state', '=', 'queued').where('phase', '=', 'waiting').orderBy('created_at').orderBy('id').execute();
  line.forEach((row, index) => places.set(row.id, index + 1));
  return places;
}
