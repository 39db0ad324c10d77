import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';

/** Background jobs (table jobs, migration 0100; docs/decisions/0110-events-and-jobs.md). */

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface EnqueueOptions {
  /** Idempotency key: a second enqueue with the same name+key while one is not failed is a no-op. */
  key?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** A transaction to enqueue with: the job exists exactly when that transaction commits. */
  db?: Transaction<Database> | Kysely<Database>;
}

export interface JobContext {
  /** Attempt number, 1 for the first run. */
  attempt: number;
  jobId: string;
  now(): Date;
}

/** A handler: at-least-once, so it must be idempotent. Throwing retries with backoff. */
export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<void>;

/** A job as the queue shows it (for tests, benches and operators). */
export interface JobInfo {
  id: string;
  state: JobState;
  /** Runs started so far. */
  attempts: number;
  last_error: string | null;
  /** When it runs (next). */
  run_at: Date;
  /** The runner holding it while running. */
  owner: string | null;
}

export interface JobQueue {
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<void>;
  register<P>(name: string, handler: JobHandler<P>): void;
  /** Creates the cursors of newly registered event consumers (the app does it when ready). */
  prepare(): Promise<void>;
  /** Wakes a started runner at once (a write just committed events). */
  kick(): void;
  /** Runs due jobs (and event consumers) until none is left; for tests and benches. */
  drain(): Promise<void>;
  /** Starts polling (main.ts); tests normally do not start it and call drain(). */
  start(): void;
  stop(): Promise<void>;
  /** The jobs of one name, oldest first. */
  inspect(name: string): Promise<JobInfo[]>;
}
