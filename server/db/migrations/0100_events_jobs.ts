import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Domain events, event consumers and background jobs (server/events, server/jobs, decision 0110).
 *
 * domain_events is the transactional outbox: every write appends its events in its own
 * transaction. Their ids come from the change log's sequence, so the change cursor's writer floors
 * (server/sync/cursor.ts) also tell a consumer which ids are settled: no event can commit later
 * with a smaller id than one it has passed.
 */
export const m0100_events_jobs: Migration = {
  name: '0100_events_jobs',
  async up(db) {
    await sql`
      create table domain_events (
        id bigint primary key default nextval('change_log_seq_seq'),
        team_id integer not null references teams(id) on delete cascade,
        board_id text,
        type text not null,
        collection text,
        record_id text,
        item_id text,
        -- No foreign key: an event keeps naming who did it after the account is gone.
        actor_id integer,
        before jsonb,
        after jsonb,
        created_at timestamptz not null default now()
      )`.execute(db);
    // The activity log: one board's events, one item's events, newest first.
    await sql`create index domain_events_board on domain_events (team_id, board_id, id)`.execute(db);
    await sql`create index domain_events_item on domain_events (team_id, item_id, id) where item_id is not null`.execute(db);

    // One row per consumer: how far it has handled the events, and its retry state.
    await sql`
      create table event_consumers (
        name text primary key,
        position bigint not null,
        attempts integer not null default 0,
        last_error text,
        retry_at timestamptz,
        updated_at timestamptz not null default now()
      )`.execute(db);

    await sql`
      create table jobs (
        id bigint generated always as identity primary key,
        name text not null,
        payload jsonb not null default '{}',
        -- An idempotency key: one job per (name, key), so enqueuing twice runs it once.
        key text,
        state text not null default 'queued' check (state in ('queued','running','done','failed')),
        attempts integer not null default 0,
        max_attempts integer not null default 5,
        run_at timestamptz not null default now(),
        locked_at timestamptz,
        locked_by text,
        last_error text,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      )`.execute(db);
    await sql`create unique index jobs_key on jobs (name, key) where key is not null`.execute(db);
    // The claim: due queued jobs, and running ones whose lease ran out (their runner died).
    await sql`create index jobs_due on jobs (run_at, id) where state = 'queued'`.execute(db);
    await sql`create index jobs_running on jobs (locked_at) where state = 'running'`.execute(db);
    await sql`create index jobs_finished on jobs (finished_at) where state = 'done'`.execute(db);
  },
};
