import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Webhooks (server/hooks, decision 0140): the hooks, their deliveries (one per event per hook, the
 * unit that is retried and ordered) and the log of every attempt (kept 30 days).
 */
export const m0140_hooks: Migration = {
  name: '0140_hooks',
  async up(db) {
    await sql`
      create table hooks (
        id text primary key,
        team_id integer not null references teams(id) on delete cascade,
        -- Who made it: their read access decides which events it carries; they are told when it
        -- is switched off; GET /api/me/hooks lists theirs.
        user_id integer not null references users(id) on delete cascade,
        url text not null,
        events jsonb not null,
        active boolean not null default true,
        -- Needed in clear to sign every delivery (HMAC), so it cannot be stored hashed; never
        -- answered after the save that made it.
        secret text not null,
        -- Deliveries that failed for good one after another; 50 switch the hook off.
        failures_in_a_row integer not null default 0,
        deactivated_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`.execute(db);
    await sql`create index hooks_team on hooks (team_id) where active`.execute(db);
    await sql`create index hooks_user on hooks (user_id)`.execute(db);

    await sql`
      create table hook_deliveries (
        -- X-Cairn-Delivery: the same on every attempt.
        id text primary key,
        seq bigint generated always as identity,
        -- Null for a delivery to a bare URL (automations): then url and secret are its own.
        hook_id text references hooks(id) on delete cascade,
        url text,
        secret text,
        team_id integer not null references teams(id) on delete cascade,
        event_id bigint,
        -- At-least-once senders: a second enqueue with the same key adds nothing.
        dedupe_key text not null unique,
        -- Order lane (hook + item): a delivery is sent only after the earlier ones of its lane finished.
        lane text,
        event text not null,
        -- The exact bytes sent (and signed) on every attempt.
        body text not null,
        -- waiting (behind an earlier one of its lane), queued (a job will send it), done, failed
        state text not null,
        attempts integer not null default 0,
        last_error text,
        created_at timestamptz not null,
        finished_at timestamptz
      )`.execute(db);
    await sql`create index hook_deliveries_lane on hook_deliveries (lane, seq) where state in ('waiting', 'queued')`.execute(db);
    await sql`create index hook_deliveries_finished on hook_deliveries (finished_at) where finished_at is not null`.execute(db);

    await sql`
      create table hook_logs (
        id bigint generated always as identity primary key,
        hook_id text not null references hooks(id) on delete cascade,
        delivery_id text not null,
        event text not null,
        attempt integer not null,
        -- success, retrying (another attempt is scheduled), failed (the delivery gave up)
        status text not null,
        response_status integer,
        duration_ms integer not null,
        error text,
        request_body text,
        response_body text,
        created_at timestamptz not null,
        -- A job run twice (at least once) logs its attempt once.
        unique (delivery_id, attempt)
      )`.execute(db);
    await sql`create index hook_logs_hook on hook_logs (hook_id, id desc)`.execute(db);
    await sql`create index hook_logs_created on hook_logs (created_at)`.execute(db);
  },
};
