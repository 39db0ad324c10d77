import { randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Database } from '../db/types';
import type { Db } from '../sync/store';
import { BOARD_JOB_MAX_PROBLEMS, type BoardJob, type BoardJobProblem, type BoardJobState } from '../../schema/board-jobs';

/** The board_jobs table (migration 0160, decision 0160): reading and writing the progress record. */

export type BoardJobRow = Selectable<Database['board_jobs']>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function newBoardJobId(): string {
  return `bj${[...randomBytes(16)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const COLUMNS = ['id', 'team_id', 'board_id', 'user_id', 'kind', 'state', 'phase', 'done', 'total', 'errors', 'error_count', 'error', 'input', 'state_data', 'result', 'created_at', 'updated_at', 'finished_at'] as const;

/** A job without its payload (a CSV may be megabytes: read it with loadBoardJobPayload when needed). */
export async function loadBoardJob(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<BoardJobRow | null> {
  let q = db.selectFrom('board_jobs').select(COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? { ...row, payload: null } : null;
}

export async function loadBoardJobPayload(db: Db, id: string): Promise<string | null> {
  return (await db.selectFrom('board_jobs').select('payload').where('id', '=', id).executeTakeFirst())?.payload ?? null;
}

/** What the tray shows of a job (the payload, the kind's cursor and its input stay on the server). */
export function toWire(row: BoardJobRow): BoardJob {
  const input = (row.input ?? {}) as Record<string, unknown>;
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    id: row.id,
    team_id: row.team_id,
    board_id: row.board_id,
    user_id: row.user_id,
    kind: row.kind,
    state: row.state as BoardJobState,
    phase: row.phase,
    done: row.done,
    total: row.total,
    errors: (row.errors ?? []) as BoardJobProblem[],
    error_count: row.error_count,
    error: row.error,
    result: (row.result ?? null) as Record<string, unknown> | null,
    title: typeof input.title === 'string' ? input.title : '',
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    finished_at: iso(row.finished_at),
  };
}

export interface ProgressUpdate {
  phase?: string;
  done?: number;
  total?: number;
  state?: BoardJobState;
  /** Problems met since the last update (appended; the list keeps the first BOARD_JOB_MAX_PROBLEMS). */
  problems?: BoardJobProblem[];
  stateData?: unknown;
  result?: unknown;
  error?: string | null;
  finished?: boolean;
  clearPayload?: boolean;
}

/** Writes progress in the caller's transaction (so it commits exactly with the work it describes). */
export async function saveProgress(db: Db, id: string, update: ProgressUpdate, now: Date): Promise<void> {
  const problems = update.problems ?? [];
  await db
    .updateTable('board_jobs')
    .set({
      updated_at: now,
      ...(update.phase !== undefined ? { phase: update.phase } : {}),
      ...(update.done !== undefined ? { done: update.done } : {}),
      ...(update.total !== undefined ? { total: update.total } : {}),
      ...(update.state !== undefined ? { state: update.state } : {}),
      ...(update.stateData !== undefined ? { state_data: JSON.stringify(update.stateData) as never } : {}),
      ...(update.result !== undefined ? { result: JSON.stringify(update.result) as never } : {}),
      ...(update.error !== undefined ? { error: update.error } : {}),
      ...(update.finished ? { finished_at: now } : {}),
      ...(update.clearPayload ? { payload: null } : {}),
      ...(problems.length
        ? {
            error_count: sql<number>`error_count + ${problems.length}`,
            // Appended while the list is short: the first problems are the ones people fix first.
            errors: sql`case when jsonb_array_length(errors) >= ${BOARD_JOB_MAX_PROBLEMS} then errors
              else (select coalesce(jsonb_agg(e), '[]'::jsonb) from (select e from jsonb_array_elements(errors || ${JSON.stringify(problems)}::jsonb) as e limit ${BOARD_JOB_MAX_PROBLEMS}) as kept) end`,
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}
