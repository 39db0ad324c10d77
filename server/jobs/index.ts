import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { attachDispatcher, EventDispatcher } from '../events/consumers';
import { JobRunner, type RunnerOptions } from './runner';
import { PgBossQueue } from './pgboss-queue';
import type { PassLoop } from './pass-loop';

/**
 * The app's job queue with the event dispatcher riding on its passes (every pass first lets each
 * event consumer handle a batch, then runs a batch of jobs). On PostgreSQL the jobs are pg-boss's;
 * on the embedded PGlite our small runner over the `jobs` table (decision 0110).
 */
export function createJobs(db: Kysely<Database>, opts: RunnerOptions & { kind?: 'pglite' | 'postgres'; supervise?: boolean }): PassLoop {
  const queue: PassLoop = opts.kind === 'postgres' ? new PgBossQueue(db, opts) : new JobRunner(db, opts);
  const dispatcher = new EventDispatcher(db, queue, opts.now, opts.backoffBaseMs);
  queue.extraPass = () => dispatcher.pass();
  queue.prepare = () => dispatcher.prepare();
  attachDispatcher(queue, dispatcher);
  return queue;
}

/** One more queue on the same database, as another API server would have (tests, benches). */
export function createQueue(db: Kysely<Database>, opts: RunnerOptions & { kind?: 'pglite' | 'postgres' }): PgBossQueue | JobRunner {
  return opts.kind === 'postgres' ? new PgBossQueue(db, opts) : new JobRunner(db, opts);
}

export type { JobRunner } from './runner';
