import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import type { JobQueue } from '../jobs/types';
import { changeHorizon } from '../sync/cursor';
import type { DomainEvent, EventConsumer } from './types';

/**
 * Event consumers (decision 0110). Each consumer has a cursor (event_consumers.position) and
 * handles the events after it in id order, in batches, each batch in one transaction that also
 * moves the cursor: what a handler writes through `c.db` commits exactly when the event counts as
 * handled, so a runner dying mid-batch leaves nothing half done and the next runner redoes the
 * batch from the old cursor. The cursor row is claimed FOR UPDATE SKIP LOCKED, so with several
 * runners one of them handles a consumer at a time and the order holds.
 *
 * Events are read only up to the change horizon (server/sync/cursor.ts): event ids come from the
 * change log's sequence and every writer registers its floor first, so no event can commit later
 * below a position a consumer has passed.
 *
 * A handler that throws is retried with backoff (the consumer waits: later events of the same
 * record must not overtake it); after MAX_ATTEMPTS the event is parked as a failed job
 * `events.failed` (visible with its error) and the consumer moves on.
 */

export const MAX_ATTEMPTS = 8;
const BATCH = 200;

/** A domain_events row as the driver returns it. */
export type EventRowFromDb = { [K in keyof Database['domain_events']]: unknown };
type Row = EventRowFromDb;

export function toEvent(row: Row): DomainEvent {
  return {
    id: String(row.id),
    team_id: Number(row.team_id),
    board_id: (row.board_id as string | null) ?? null,
    type: row.type as DomainEvent['type'],
    collection: (row.collection as string | null) ?? null,
    record_id: (row.record_id as string | null) ?? null,
    item_id: (row.item_id as string | null) ?? null,
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    before: (row.before as Record<string, unknown> | null) ?? null,
    after: (row.after as Record<string, unknown> | null) ?? null,
    via: (row.via as Record<string, unknown> | null | undefined) ?? null,
    created_at: new Date(row.created_at as string | Date).toISOString(),
  };
}

export class EventDispatcher {
  private readonly consumers = new Map<string, EventConsumer>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobQueue,
    private readonly now: () => Date,
    private readonly backoffBaseMs = 1000,
  ) {}

  register(name: string, consumer: EventConsumer): void {
    if (this.consumers.has(name)) throw new Error(`event consumer ${name} is registered already`);
    this.consumers.set(name, consumer);
  }

  /**
   * Creates the cursor rows of new consumers at the current horizon: a consumer added to a
   * running installation starts with what happens from now on, not with its whole history.
   */
  async prepare(): Promise<void> {
    if (this.consumers.size === 0) return;
    const horizon = await changeHorizon(this.db);
    await sql`
      insert into event_consumers (name, position, updated_at)
      select n, ${horizon}, ${this.now()} from unnest(${[...this.consumers.keys()]}::text[]) as n
      on conflict (name) do nothing`.execute(this.db);
  }

  /** One batch for every consumer; whether any handled an event or recorded a failure. */
  async pass(): Promise<boolean> {
    if (this.consumers.size === 0) return false;
    let progressed = false;
    for (const [name, consumer] of this.consumers) {
      if (await this.runConsumer(name, consumer)) progressed = true;
    }
    return progressed;
  }

  /**
   * One batch of one consumer. The batch first runs without savepoints (two statements fewer per
   * event); when a handler throws, that transaction rolls back and the batch runs again with a
   * savepoint per event, so the events before the failing one still count as handled.
   */
  private async runConsumer(name: string, consumer: EventConsumer): Promise<boolean> {
    try {
      return await this.runBatch(name, consumer, false);
    } catch (error) {
      if (!(error instanceof HandlerFailed)) throw error;
      return this.runBatch(name, consumer, true);
    }
  }

  private async runBatch(name: string, consumer: EventConsumer, careful: boolean): Promise<boolean> {
    // Its own statement, before the transaction's reads (see changeHorizon).
    const horizon = await changeHorizon(this.db);
    return this.db.transaction().execute(async (trx) => {
      const cursor = await sql<{ position: string; attempts: number; retry_at: Date | null }>`
        select position, attempts, retry_at from event_consumers where name = ${name} for update skip locked`.execute(trx);
      const state = cursor.rows[0];
      if (!state) {
        // Not prepared yet (or another runner holds it): prepare() is idempotent.
        const exists = await sql`select 1 from event_consumers where name = ${name}`.execute(trx);
        if (exists.rows.length === 0) await sql`insert into event_consumers (name, position, updated_at) values (${name}, ${horizon}, ${this.now()}) on conflict (name) do nothing`.execute(trx);
        return false;
      }
      const now = this.now();
      if (state.retry_at && new Date(state.retry_at) > now) return false;
      const { rows } = await sql<Row>`
        select * from domain_events where id > ${state.position} and id <= ${horizon} order by id limit ${BATCH}`.execute(trx);
      if (rows.length === 0) return false;

      // Jobs a handler enqueues commit with its work unless it says otherwise.
      const jobs: JobQueue = Object.create(this.jobs, {
        enqueue: { value: (job: string, payload: unknown, opts: Parameters<JobQueue['enqueue']>[2] = {}) => this.jobs.enqueue(job, payload, { db: trx, ...opts }) },
      });
      let position = state.position;
      let failure: { event: DomainEvent; error: string } | null = null;
      for (const row of rows) {
        const event = toEvent(row);
        if (careful) await sql`savepoint consume_event`.execute(trx);
        try {
          await consumer(event, { db: trx, jobs, now: this.now });
          if (careful) await sql`release savepoint consume_event`.execute(trx);
          position = event.id;
        } catch (error) {
          if (!careful) throw new HandlerFailed();
          await sql`rollback to savepoint consume_event`.execute(trx);
          failure = { event, error: (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000) };
          break;
        }
      }

      if (!failure) {
        await sql`update event_consumers set position = ${position}, attempts = 0, last_error = null, retry_at = null, updated_at = ${now} where name = ${name}`.execute(trx);
        return true;
      }
      const attempts = state.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        // Parked: a failed job names the event and the error; the consumer goes on past it.
        await sql`
          insert into jobs (name, payload, key, state, attempts, max_attempts, run_at, last_error, created_at, finished_at)
          values ('events.failed', ${JSON.stringify({ consumer: name, event_id: failure.event.id })}::jsonb, ${`${name}:${failure.event.id}`}, 'failed', ${attempts}, ${MAX_ATTEMPTS}, ${now}, ${failure.error}, ${now}, ${now})
          on conflict (name, key) where key is not null do nothing`.execute(trx);
        await sql`update event_consumers set position = ${failure.event.id}, attempts = 0, last_error = ${failure.error}, retry_at = null, updated_at = ${now} where name = ${name}`.execute(trx);
        return true;
      }
      const retryAt = new Date(now.getTime() + this.backoffBaseMs * 2 ** (attempts - 1));
      await sql`update event_consumers set position = ${position}, attempts = ${attempts}, last_error = ${failure.error}, retry_at = ${retryAt}, updated_at = ${now} where name = ${name}`.execute(trx);
      return true;
    });
  }
}

/** A handler threw in a batch run without savepoints: roll it back and run it carefully. */
class HandlerFailed extends Error {}

/** The dispatcher of an app context's job queue (set up by createJobs). */
const dispatchers = new WeakMap<JobQueue, EventDispatcher>();

export function attachDispatcher(jobs: JobQueue, dispatcher: EventDispatcher): void {
  dispatchers.set(jobs, dispatcher);
}

/**
 * Registers a consumer of every domain event, under a name that stays the same across releases
 * (its cursor is stored under it). Call from a module's registration function.
 */
export function registerEventConsumer(ctx: AppContext, name: string, consumer: EventConsumer): void {
  const dispatcher = dispatchers.get(ctx.jobs);
  if (!dispatcher) throw new Error('the context has no event dispatcher (create its jobs with createJobs)');
  dispatcher.register(name, consumer);
}
