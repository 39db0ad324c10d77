import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { EnqueueOptions, JobHandler, JobInfo } from './types';
import { PassLoop } from './pass-loop';

/**
 * The job runner (decision 0110): jobs are rows of `jobs`, claimed in batches with
 * FOR UPDATE SKIP LOCKED, so any number of runners (in one process or many API servers on one
 * PostgreSQL) share the work without running a job twice at the same time. Delivery is at least
 * once: a claimed job carries a lease; when its runner dies mid-job the lease runs out and
 * another runner claims it again. Failures retry with exponential backoff until max_attempts,
 * then the job stays `failed` with its last error, visible in the table.
 *
 * Time comes from `now()` (the server's clock), so tests move it instead of sleeping.
 */

export interface RunnerOptions {
  now(): Date;
  /** Jobs claimed per statement. */
  batchSize?: number;
  /** How long a claimed job is its runner's before another may take it over. */
  leaseMs?: number;
  /** Idle wait between polls when started. */
  pollMs?: number;
  /** Backoff before retry n (1-based): base * 2^(n-1), capped. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Work besides jobs done on every pass (the event consumers); returns whether it did any. */
  extraPass?: () => Promise<boolean>;
  /** Where a failing pass is reported (never thrown out of the poll loop). */
  onError?: (error: unknown) => void;
}

interface Claimed {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

export class JobRunner extends PassLoop {
  readonly workerId = randomUUID();
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: RunnerOptions,
  ) {
    super(opts.pollMs ?? 500, opts.onError);
    this.batchSize = opts.batchSize ?? 100;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.backoffBaseMs = opts.backoffBaseMs ?? 1000;
    this.backoffMaxMs = opts.backoffMaxMs ?? 60 * 60_000;
    if (opts.extraPass) this.extraPass = opts.extraPass;
  }

  register<P>(name: string, handler: JobHandler<P>): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} has a handler already`);
    this.handlers.set(name, handler as JobHandler<unknown>);
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
    const db = opts.db ?? this.db;
    const runAt = opts.runAt ?? this.opts.now();
    // A key names one job for good: enqueuing it again is a no-op (at-least-once senders).
    await sql`
      insert into jobs (name, payload, key, max_attempts, run_at, created_at)
      values (${name}, ${JSON.stringify(payload ?? null)}::jsonb, ${opts.key ?? null}, ${opts.maxAttempts ?? 5}, ${runAt}, ${this.opts.now()})
      on conflict (name, key) where key is not null do nothing`.execute(db);
    // Without a transaction the job is there now: run it soon. (In one, the caller's commit
    // comes later; the next poll finds it.)
    if (!opts.db) this.kick();
  }

  /**
   * Claims due jobs this runner has handlers for: queued ones whose time has come, and running
   * ones whose lease ran out. One statement; SKIP LOCKED lets other runners claim the rest.
   */
  private async claim(): Promise<Claimed[]> {
    const names = [...this.handlers.keys()];
    if (names.length === 0) return [];
    const now = this.opts.now();
    const expired = new Date(now.getTime() - this.leaseMs);
    const { rows } = await sql<Claimed>`
      update jobs set state = 'running', attempts = attempts + 1, locked_at = ${now}, locked_by = ${this.workerId}
      where id in (
        select id from jobs
        where name = any(${names}::text[])
          and ((state = 'queued' and run_at <= ${now}) or (state = 'running' and locked_at < ${expired}))
        order by run_at, id
        limit ${this.batchSize}
        for update skip locked
      )
      returning id, name, payload, attempts, max_attempts`.execute(this.db);
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  private backoff(attempt: number): number {
    return Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** (attempt - 1));
  }

  /** Runs one claimed batch; finished jobs are marked in one statement. Returns how many ran. */
  private async runBatch(): Promise<number> {
    const jobs = await this.claim();
    if (jobs.length === 0) return 0;
    const done: string[] = [];
    const failures: { id: string; error: string; retryAt: Date | null }[] = [];
    await Promise.all(
      jobs.map(async (job) => {
        const handler = this.handlers.get(job.name)!;
        try {
          await handler(job.payload, { attempt: job.attempts, jobId: job.id, now: this.opts.now });
          done.push(job.id);
        } catch (error) {
          const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          const retryAt = job.attempts < job.max_attempts ? new Date(this.opts.now().getTime() + this.backoff(job.attempts)) : null;
          failures.push({ id: job.id, error: message.slice(0, 2000), retryAt });
        }
      }),
    );
    const now = this.opts.now();
    // Only while still ours: a job whose lease ran out and was taken over is the other runner's now.
    if (done.length) {
      await sql`update jobs set state = 'done', finished_at = ${now}, locked_at = null, locked_by = null
        where id = any(${done}::bigint[]) and locked_by = ${this.workerId}`.execute(this.db);
    }
    if (failures.length) {
      await sql`
        update jobs set
          state = case when f.retry_at is null then 'failed' else 'queued' end,
          run_at = coalesce(f.retry_at, jobs.run_at),
          last_error = f.error, locked_at = null, locked_by = null,
          finished_at = case when f.retry_at is null then ${now}::timestamptz end
        from jsonb_to_recordset(${JSON.stringify(failures.map((f) => ({ id: f.id, error: f.error, retry_at: f.retryAt })))}::jsonb)
          as f(id bigint, error text, retry_at timestamptz)
        where jobs.id = f.id and jobs.locked_by = ${this.workerId}`.execute(this.db);
    }
    return jobs.length;
  }

  /** When done jobs were last purged (once an hour, by whichever runner gets there). */
  private lastPurge = Date.now();

  protected async runJobs(): Promise<number> {
    if (Date.now() - this.lastPurge > 3600_000) {
      this.lastPurge = Date.now();
      await this.purge();
    }
    return this.runBatch();
  }

  async inspect(name: string): Promise<JobInfo[]> {
    const rows = await this.db.selectFrom('jobs').select(['id', 'state', 'attempts', 'last_error', 'run_at', 'locked_by']).where('name', '=', name).orderBy('id').execute();
    return rows.map((r) => ({ id: String(r.id), state: r.state, attempts: r.attempts, last_error: r.last_error, run_at: new Date(r.run_at), owner: r.locked_by }));
  }

  /** Removes finished jobs older than `olderThanMs` (kept a while to be looked at). */
  async purge(olderThanMs = 7 * 24 * 3600_000): Promise<void> {
    const before = new Date(this.opts.now().getTime() - olderThanMs);
    await sql`delete from jobs where state = 'done' and finished_at < ${before}`.execute(this.db);
  }
}
