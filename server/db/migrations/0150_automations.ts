import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Automations (server/automations, decision 0150): the Autobot user the runner writes as, the
 * chain an automation's writes carry on their domain events (loop guard and "via" in the activity
 * log), the run log (one row per automation × cause: exactly once in effect), the monthly run
 * count per workspace, and the clock of the date triggers.
 */
export const m0150_automations: Migration = {
  name: '0150_automations',
  async up(db) {
    // A fixed id (schema/automations.ts AUTOBOT_USER_ID), far above the serial's range; no password: it never signs in.
    await sql`
      insert into users (id, email, name, password_hash, locale, created_at, updated_at)
      values (2147483000, 'autobot@cairn.invalid', 'Autobot', null, 'en-US', now(), now())
      on conflict do nothing`.execute(db);
    // {automation_id, automation_name, chain: [{automation_id, item_id}]} on events an automation caused.
    await sql`alter table domain_events add column via jsonb`.execute(db);
    await sql`
      create table automation_runs (
        id bigint generated always as identity primary key,
        team_id integer not null references teams(id) on delete cascade,
        board_id text not null,
        automation_id text not null,
        item_id text,
        -- What started it: a domain event id, or date:{item}:{due time} for a date trigger.
        cause text not null,
        trigger text not null,
        -- done, skipped (conditions not met, loop guard), failed (error), limit (over the month's runs)
        result text not null,
        error text,
        -- Counted against the month's runs (a run that acted or failed acting).
        counted boolean not null,
        month text not null,
        created_at timestamptz not null,
        unique (automation_id, cause)
      )`.execute(db);
    await sql`create index automation_runs_board on automation_runs (team_id, board_id, id desc)`.execute(db);
    await sql`create index automation_runs_month on automation_runs (team_id, month, board_id) where counted`.execute(db);
    await sql`
      create table automation_usage (
        team_id integer not null references teams(id) on delete cascade,
        month text not null,
        runs integer not null default 0,
        primary key (team_id, month)
      )`.execute(db);
    // How far the date-trigger scan has looked (one row: the whole installation).
    await sql`
      create table automation_clock (
        name text primary key,
        checked_until timestamptz not null
      )`.execute(db);
  },
};
