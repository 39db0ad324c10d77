import type { Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import type { JobContext, JobQueue } from '../jobs/types';
import { boardChannel, BOARD_EVENTS } from '../../schema/collections';
import { isFinishedJob, type BoardJobProblem, type BoardJobState } from '../../schema/board-jobs';
import { loadBoardJob, newBoardJobId, saveProgress, type BoardJobRow, type ProgressUpdate } from './store';
import { notifyBoardJobEnded } from './notify';
import { ApiError } from '../http/errors';
import { admitBoardJob, maxRunningOf } from './admission';

/**
 * The board job runner (decision 0160): a job of the runner of decision 0110 per step
 * (`board-jobs.step`), each step a slice of at most boardJobTuning.sliceMs of the kind's work, then the next step
 * is queued. A cancel or a final failure queues `board-jobs.cleanup`, which removes what the job
 * wrote and ends it. Kinds register with registerBoardJobKind.
 */

export const STEP_JOB = 'board-jobs.step';
export const CLEANUP_JOB = 'board-jobs.cleanup';
/** One step's share of the runner: long enough to write several batches, short against the lease. Tests set 0 (one piece per step). */
export const boardJobTuning = { sliceMs: 2000 };
/** Attempts of a step before the job fails (the runner retries with backoff in between). */
export const STEP_ATTEMPTS = 3;

export interface BoardJobRun {
  ctx: AppContext;
  /** The job as it was when this piece of work started. */
  job: BoardJobRow;
  /**
   * Runs `work` in one transaction with the job's row locked, then writes the progress it
   * reported in the same transaction: writes and progress commit together or not at all.
   */
  commit<T>(work: (trx: Transaction<Database>, report: (update: ProgressUpdate) => void) => Promise<T>): Promise<T>;
}

export interface BoardJobKind {
  kind: string;
  /** One bounded piece of work; 'more' while work is left. Must be safe to run again (at least once). */
  step(run: BoardJobRun): Promise<'more' | 'done'>;
  /** Removes everything the job wrote so far; idempotent. */
  cleanup(run: BoardJobRun): Promise<void>;
  /** Words for the notification when it is done ("1,000 items imported into Board"). */
  summary?(job: BoardJobRow): string;
}

const kinds = new Map<string, BoardJobKind>();

export function registerBoardJobKind(kind: BoardJobKind): void {
  kinds.set(kind.kind, kind);
}

/** A job that cannot be done as asked (the file has no rows, too many, …): it fails at once with this message, without retries. */
export class JobRefusal extends Error {}

export interface StartBoardJob {
  /** The job's id when the caller needs it first (newBoardJobId). */
  id?: string;
  /** The phase it starts in (default 'queued'). */
  phase?: string;
  teamId: number;
  userId: number;
  boardId: string;
  kind: string;
  /** The kind's parameters; `title` names the job in the tray. */
  input: Record<string, unknown> & { title: string };
  payload?: string | null;
  total?: number;
}

/** Creates the job row and queues its first step, in one transaction. Returns the row. */
export async function startBoardJob(ctx: AppContext, start: StartBoardJob): Promise<BoardJobRow> {
  if (!kinds.has(start.kind)) throw new Error(`unknown board job kind ${start.kind}`);
  const now = ctx.now();
  const id = start.id ?? newBoardJobId();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('board_jobs')
      .values({ id, ...(start.phase ? { phase: start.phase } : {}), team_id: start.teamId, board_id: start.boardId, user_id: start.userId, kind: start.kind, input: JSON.stringify(start.input) as never, payload: start.payload ?? null, total: start.total ?? 0, error: null, result: null, created_at: now, updated_at: now, finished_at: null })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    await ctx.jobs.enqueue(STEP_JOB, { id, step: 1 } satisfies StepPayload, { key: `${id}:1`, maxAttempts: STEP_ATTEMPTS, db: trx });
    return (await loadBoardJob(trx, inserted.id))!;
  });
  ctx.jobs.kick();
  return row;
}

/** Asks a job to stop: the step under way finishes its batch, then the cleanup removes what it wrote. */
export async function cancelBoardJob(ctx: AppContext, id: string): Promise<BoardJobRow | null> {
  const row = await ctx.db
    .updateTable('board_jobs')
    .set({ state: 'cancelling', phase: 'cancelling', updated_at: ctx.now() })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .returning(['id'])
    .executeTakeFirst();
  if (row) {
    await ctx.jobs.enqueue(CLEANUP_JOB, { id, outcome: 'cancelled' } satisfies CleanupPayload, { key: `${id}:cleanup`, maxAttempts: 8 });
    ctx.jobs.kick();
  }
  return row ? loadBoardJob(ctx.db, id) : null;
}

interface StepPayload {
  id: string;
  step: number;
  /**
   * A second try of admission for a waiting job: 'slot' when a job ended (wakeWaiting), 'poll'
   * the slow safety net (ADMISSION_POLL_MS). Either finds the job admitted by another try and
   * does nothing; one that admits it queues the job's work as its own step, in the same
   * transaction, so a crash after admission never leaves a running job without a step.
   */
  wake?: 'slot' | 'poll';
  /** How many times the job was found over the limits of admission.ts. */
  waits?: number;
}
/**
 * How soon a waiting job asks again by itself. A job that ends wakes the waiting ones at once
 * (wakeWaiting); this poll only covers a server that stopped before it could, so it is slow.
 */
export const ADMISSION_POLL_MS = 30_000;
interface CleanupPayload {
  id: string;
  outcome: 'failed' | 'cancelled';
}

/** A step found its job no longer running when it came to commit (cancelled or failed meanwhile): it stops, writing nothing. */
class StepStopped extends Error {}

function runOf(ctx: AppContext, job: BoardJobRow, step = false): BoardJobRun {
  return {
    ctx,
    job,
    async commit(work) {
      return ctx.db.transaction().execute(async (trx) => {
        const current = await loadBoardJob(trx, job.id, { lock: true });
        // A step's write commits only while the job runs: a cancel during a long step (reading a
        // large file) leaves the rest to the cleanup job, which may already have run.
        if (step && current?.state !== 'running') throw new StepStopped();
        const updates: ProgressUpdate[] = [];
        const result = await work(trx, (u) => updates.push(u));
        const merged = mergeUpdates(updates);
        if (Object.keys(merged).length) await saveProgress(trx, job.id, merged, ctx.now());
        return result;
      });
    },
  };
}

function mergeUpdates(updates: ProgressUpdate[]): ProgressUpdate {
  const problems: BoardJobProblem[] = [];
  const out: ProgressUpdate = {};
  for (const u of updates) {
    Object.assign(out, u);
    if (u.problems) problems.push(...u.problems);
  }
  if (problems.length) out.problems = problems;
  else delete out.problems;
  return out;
}

async function runStep(ctx: AppContext, payload: StepPayload, job: JobContext): Promise<void> {
  const row = await loadBoardJob(ctx.db, payload.id);
  if (!row || isFinishedJob(row.state) || row.state === 'cancelling') return; // the cleanup job ends a cancelled one
  const kind = kinds.get(row.kind);
  if (!kind) return failJob(ctx, row, `This kind of job (${row.kind}) is not known to this server.`);
  if (payload.wake) {
    // A second try of admission: the work itself goes on in the step it queues.
    if (row.state !== 'queued') return;
    const admitted = await admitBoardJob(ctx, row, (trx) => ctx.jobs.enqueue(STEP_JOB, { id: row.id, step: payload.step } satisfies StepPayload, { key: `${row.id}:${payload.step}:admitted`, maxAttempts: STEP_ATTEMPTS, db: trx }));
    if (admitted) ctx.jobs.kick();
    else if (payload.wake === 'poll') await pollAdmission(ctx, row.id, payload);
    return;
  }
  if (row.state === 'queued' && !(await admitBoardJob(ctx, row))) {
    // Over the limits (admission.ts): woken when a job ends, or by the slow poll.
    await pollAdmission(ctx, row.id, payload);
    return;
  }
  const started = Date.now();
  try {
    let outcome: 'more' | 'done' = 'more';
    do {
      const fresh = await loadBoardJob(ctx.db, row.id);
      if (!fresh || fresh.state !== 'running') return; // cancelled meanwhile: the cleanup job has it
      outcome = await kind.step(runOf(ctx, fresh, true));
    } while (outcome === 'more' && Date.now() - started < boardJobTuning.sliceMs);
    if (outcome === 'done') return finishJob(ctx, row.id, 'done');
    await ctx.jobs.enqueue(STEP_JOB, { id: row.id, step: payload.step + 1 } satisfies StepPayload, { key: `${row.id}:${payload.step + 1}`, maxAttempts: STEP_ATTEMPTS });
  } catch (error) {
    if (error instanceof StepStopped) return;
    if (error instanceof JobRefusal) return failJob(ctx, row, error.message);
    if (job.attempt < STEP_ATTEMPTS) throw error; // the runner tries the step again after a pause
    return failJob(ctx, row, reasonOf(error));
  }
}

/** The slow safety net of a waiting job: admission again after ADMISSION_POLL_MS. */
async function pollAdmission(ctx: AppContext, id: string, payload: StepPayload): Promise<void> {
  const waits = (payload.waits ?? 0) + 1;
  await ctx.jobs.enqueue(STEP_JOB, { id, step: payload.step, wake: 'poll', waits } satisfies StepPayload, { key: `${id}:${payload.step}:w${waits}`, maxAttempts: STEP_ATTEMPTS, runAt: new Date(ctx.now().getTime() + ADMISSION_POLL_MS) });
}

/**
 * A job ended: the waiting jobs first in line (as many as could now start) try admission at once,
 * queued in the ending transaction. A try that finds the limits still full does nothing more
 * (the poll is still there); two ends waking the same job are two tries, one admits.
 */
async function wakeWaiting(ctx: AppContext, trx: Transaction<Database>, endedId: string): Promise<number> {
  const line = await trx.selectFrom('board_jobs').select('id').where('state', '=', 'queued').where('phase', '=', 'waiting').orderBy('created_at').orderBy('id').limit(maxRunningOf(ctx)).execute();
  for (const { id } of line) await ctx.jobs.enqueue(STEP_JOB, { id, step: 1, wake: 'slot' } satisfies StepPayload, { key: `${id}:1:after:${endedId}`, maxAttempts: STEP_ATTEMPTS, db: trx });
  return line.length;
}

/** A job that cannot go on: says why, and its partial output is removed by the cleanup job. */
async function failJob(ctx: AppContext, row: BoardJobRow, reason: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // 'cancelling': steps and cancels arriving later leave it to the cleanup job.
    await saveProgress(trx, row.id, { state: 'cancelling', phase: 'cleaning', error: reason }, ctx.now());
    await ctx.jobs.enqueue(CLEANUP_JOB, { id: row.id, outcome: 'failed' } satisfies CleanupPayload, { key: `${row.id}:cleanup`, maxAttempts: 8, db: trx });
  });
  ctx.jobs.kick();
}

async function runCleanup(ctx: AppContext, payload: CleanupPayload): Promise<void> {
  const row = await loadBoardJob(ctx.db, payload.id);
  if (!row || isFinishedJob(row.state)) return;
  const kind = kinds.get(row.kind);
  if (kind) {
    await saveProgress(ctx.db, row.id, { phase: 'cleaning' }, ctx.now());
    await kind.cleanup(runOf(ctx, row));
  }
  await finishJob(ctx, row.id, payload.outcome);
}

/** Ends a job: its final state, the payload dropped, the notification, a refresh for open boards. */
async function finishJob(ctx: AppContext, id: string, state: Extract<BoardJobState, 'done' | 'failed' | 'cancelled'>): Promise<void> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const current = await loadBoardJob(trx, id, { lock: true });
    if (!current || isFinishedJob(current.state)) return null;
    await saveProgress(trx, id, { state, phase: state, finished: true, clearPayload: true, stateData: {} }, ctx.now());
    const ended = (await loadBoardJob(trx, id))!;
    await wakeWaiting(ctx, trx, id);
    await notifyBoardJobEnded({ db: trx, jobs: inTransaction(ctx.jobs, trx), now: () => ctx.now() }, ended, kinds.get(ended.kind)?.summary?.(ended) ?? '');
    return ended;
  });
  if (!row) return;
  ctx.jobs.kick();
  try {
    await ctx.broadcaster.publish(boardChannel(row.team_id, row.board_id), BOARD_EVENTS.refresh, { collection: null, data: { board_id: row.board_id } });
  } catch {
    // Replicas catch up through /changes.
  }
}

function inTransaction(jobs: JobQueue, trx: Transaction<Database>): JobQueue {
  return Object.create(jobs, { enqueue: { value: (name: string, payload: unknown, opts: Parameters<JobQueue['enqueue']>[2] = {}) => jobs.enqueue(name, payload, { db: trx, ...opts }) } });
}

function reasonOf(error: unknown): string {
  // The save path's refusals, said as what happened to the job.
  if (error instanceof ApiError && error.status === 404) return 'The board or folder it was writing into is gone.';
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return 'You may no longer add items there.';
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500) || 'Something Went Wrong';
}

/** Registers the step and cleanup jobs on the app's queue (server/board-jobs/module.ts). */
export function registerBoardJobRunner(ctx: AppContext): void {
  ctx.jobs.register<StepPayload>(STEP_JOB, (payload, job) => runStep(ctx, payload, job));
  ctx.jobs.register<CleanupPayload>(CLEANUP_JOB, (payload) => runCleanup(ctx, payload));
}
