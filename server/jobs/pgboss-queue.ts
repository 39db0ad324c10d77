import { createRequire } from 'node:module';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Database } from '../db/types';
import { PassLoop } from './pass-loop';
import type { EnqueueOptions, JobHandler, JobInfo, JobState } from './types';

/**
 * The job queue on PostgreSQL: pg-boss 10 (decision 0110) behind our JobQueue interface. Its
 * jobs live in its own schema `pgboss` (created and upgraded by pg-boss at start); it claims with
 * FOR UPDATE SKIP LOCKED, retries with jittered exponential backoff (retryLimit, retryDelay,
 * retryBackoff), and keeps state, retry count, output (our last error) and start_after visible in
 * pgboss.job. Every statement goes through our Kysely pool (pg-boss's `db` option), and
 * `enqueue(…, {db: trx})` through the caller's transaction, so a job exists exactly when the
 * write that asked for it commits.
 *
 * Semantics kept from our interface: a key is one job (singletonKey in a week-long singleton
 * slot, see KEY_SECONDS; jobs without a key are never deduplicated); attempts = maxAttempts
 * (retryLimit = maxAttempts - 1); the lease is pg-boss's expireIn, and an expired active job is
 * failed into a retry by our passes (at most once a second), not only by pg-boss's maintenance.
 */

// pg-boss is required when a queue on PostgreSQL is made, not when the server's modules load: the
// embedded database never uses it, and a start (or a test file) need not pay for it (decision 0367).
const require = createRequire(import.meta.url);
const pgBoss = () => require('pg-boss') as typeof PgBoss;
// The statement pg-boss's maintenance runs to time out active jobs (not part of its typed API).
const plans = () => require('pg-boss/src/plans.js') as { failJobsByTimeout(schema: string): string };

const SCHEMA = 'pgboss';
/**
 * How long a key dedupes: pg-boss's singleton slot, which may not outlast the archiving of
 * completed jobs, so both are a week. Slots are aligned to the epoch: two enqueues of one key on
 * both sides of a slot boundary both run (handlers are idempotent anyway; a redelivery comes
 * minutes apart, not a week).
 */
const KEY_SECONDS = 7 * 24 * 3600;

type Db = Kysely<Database> | Transaction<Database>;

function executor(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

export interface PgBossQueueOptions {
  now(): Date;
  batchSize?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Run pg-boss's own maintenance timers (archive, delete, expire); off in tests. */
  supervise?: boolean;
  onError?: (error: unknown) => void;
}

export class PgBossQueue extends PassLoop {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly queues = new Set<string>();
  private started: Promise<void> | null = null;
  private lastExpiry = 0;
  private readonly batchSize: number;
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: PgBossQueueOptions,
  ) {
    super(opts.pollMs ?? 500, opts.onError);
    this.batchSize = opts.batchSize ?? 100;
    this.leaseSeconds = Math.max(1, Math.ceil((opts.leaseMs ?? 5 * 60_000) / 1000));
    this.boss = new (pgBoss())({ db: executor(db), schema: SCHEMA, supervise: opts.supervise ?? false, schedule: false, migrate: true, archiveCompletedAfterSeconds: KEY_SECONDS });
    this.boss.on('error', (error) => opts.onError?.(error));
  }

  /** Starts pg-boss once (creates or upgrades its schema). */
  private ready(): Promise<void> {
    this.started ??= this.boss.start().then(() => undefined);
    return this.started;
  }

  private async queue(name: string): Promise<void> {
    if (this.queues.has(name)) return;
    await this.ready();
    // One creation at a time in this process: pg-boss's create_queue alters its tables (a foreign
    // key to pgboss.queue), and two running at once on two connections can deadlock each other —
    // the hub died at start that way in tests/scale (decision 0192). Another process doing the
    // same can still deadlock with us: PostgreSQL then aborts one side, which tries again.
    const created = this.creating.then(() => this.createQueue(name));
    this.creating = created.catch(() => undefined);
    await created;
    this.queues.add(name);
  }

  private creating: Promise<void> = Promise.resolve();

  private async createQueue(name: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      if (await this.boss.getQueue(name)) return;
      try {
        await this.boss.createQueue(name, { name, policy: 'standard' });
        return;
      } catch (error) {
        // Another server created it meanwhile.
        if (await this.boss.getQueue(name)) return;
        const deadlock = (error as { code?: string }).code === '40P01';
        if (!deadlock || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
      }
    }
  }

  register<P>(name: string, handler: JobHandler<P>): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} has a handler already`);
    this.handlers.set(name, handler as JobHandler<unknown>);
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
    await this.queue(name);
    const attempts = opts.maxAttempts ?? 5;
    await this.boss.send(name, { payload: payload ?? null }, {
      ...(opts.key !== undefined ? { singletonKey: opts.key, singletonSeconds: KEY_SECONDS } : {}),
      ...(opts.runAt ? { startAfter: opts.runAt } : {}),
      retryLimit: attempts - 1,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: this.leaseSeconds,
      ...(opts.db ? { db: executor(opts.db) } : {}),
    });
    if (!opts.db) this.kick();
  }

  /** Fails active jobs whose lease ran out into a retry (their runner died), at most once a second. */
  private async expireOverdue(): Promise<void> {
    if (Date.now() - this.lastExpiry < 1000) return;
    this.lastExpiry = Date.now();
    await this.db.executeQuery(CompiledQuery.raw(plans().failJobsByTimeout(SCHEMA), []));
  }

  /** Forces the lease check on the next pass (tests). */
  expireNow(): Promise<void> {
    this.lastExpiry = 0;
    return this.expireOverdue();
  }

  /**
   * The server's clock decides when a job is due (`runAt` is server time), pg-boss compares with
   * the database's. They agree in production; when the server's runs ahead (tests move it), the
   * jobs due by the server's clock are released here.
   */
  private async releaseDueByServerClock(): Promise<void> {
    const aheadMs = this.opts.now().getTime() - Date.now();
    if (aheadMs < 1000) return;
    await this.db.executeQuery(
      CompiledQuery.raw(`update ${SCHEMA}.job set start_after = now() where state in ('created', 'retry') and start_after > now() and start_after <= now() + $1::interval`, [`${Math.floor(aheadMs)} milliseconds`]),
    );
  }

  protected async runJobs(): Promise<number> {
    if (this.handlers.size === 0) return 0;
    for (const name of this.handlers.keys()) await this.queue(name);
    await this.expireOverdue();
    await this.releaseDueByServerClock();
    let ran = 0;
    for (const [name, handler] of this.handlers) {
      const jobs = await this.boss.fetch<{ payload: unknown }>(name, { batchSize: this.batchSize, includeMetadata: true });
      if (jobs.length === 0) continue;
      ran += jobs.length;
      const done: string[] = [];
      await Promise.all(
        jobs.map(async (job) => {
          try {
            await handler(job.data?.payload ?? null, { attempt: job.retryCount + 1, jobId: job.id, now: this.opts.now });
            done.push(job.id);
          } catch (error) {
            const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000);
            await this.boss.fail(name, job.id, { message });
          }
        }),
      );
      if (done.length) await this.boss.complete(name, done);
    }
    return ran;
  }

  async inspect(name: string): Promise<JobInfo[]> {
    const { rows } = await this.db.executeQuery<{ id: string; state: string; retry_count: number; started_on: Date | null; output: { message?: string } | null; start_after: Date }>(
      CompiledQuery.raw(`select id, state, retry_count, started_on, output, start_after from ${SCHEMA}.job where name = $1 order by created_on, id`, [name]),
    );
    const states: Record<string, JobState> = { created: 'queued', retry: 'queued', active: 'running', completed: 'done', failed: 'failed', cancelled: 'failed' };
    return rows.map((r) => ({
      id: r.id,
      state: states[r.state] ?? 'queued',
      // retry_count counts the restarts after the first run.
      attempts: r.started_on ? r.retry_count + 1 : 0,
      last_error: r.state === 'completed' ? null : (r.output?.message ?? null),
      run_at: new Date(r.start_after),
      owner: null,
    }));
  }

  async stop(): Promise<void> {
    await super.stop();
    if (this.started) await this.boss.stop({ graceful: false, wait: true, close: false }).catch(() => undefined);
  }
}
