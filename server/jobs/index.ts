import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { attachDispatcher, EventDispatcher } from '../events/consumers';
import { JobRunner, type RunnerOptions } from './runner';

/**
 * The app's job queue with the event dispatcher riding on its passes (every pass of the runner
 * first lets each event consumer handle a batch, then runs a batch of jobs).
 */
export function createJobs(db: Kysely<Database>, opts: RunnerOptions): JobRunner {
  const runner = new JobRunner(db, opts);
  const dispatcher = new EventDispatcher(db, runner, opts.now, opts.backoffBaseMs);
  runner.extraPass = () => dispatcher.pass();
  runner.prepare = () => dispatcher.prepare();
  attachDispatcher(runner, dispatcher);
  return runner;
}

export type { JobRunner } from './runner';
