import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * The sync engine's storage: every synced record of every collection in one table (the registry
 * in schema/collections.ts decides what a record is), the change log the delta endpoint reads,
 * and the idempotency keys of write requests.
 */
export const m0030_sync: Migration = {
  name: '0030_sync',
  async up(db) {
    await sql`
      create table records (
        collection text not null,
        id text not null,
        team_id integer not null references teams(id) on delete cascade,
        board_id text not null,
        row_version integer not null,
        data jsonb not null,
        created_by integer references users(id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz,
        primary key (collection, id)
      )`.execute(db);
    // Index loads and trash listings: one board's records of one collection.
    await sql`create index records_board on records (team_id, board_id, collection)`.execute(db);
    // Children of an item (values, comments, time entries) and time entries of a user.
    await sql`create index records_item on records (collection, (data->>'item_id')) where data ? 'item_id'`.execute(db);
    await sql`create index records_creator on records (collection, created_by)`.execute(db);
    await sql`create index records_trash on records (team_id, board_id) where deleted_at is not null`.execute(db);

    await sql`
      create table change_log (
        seq bigint generated always as identity primary key,
        team_id integer not null references teams(id) on delete cascade,
        board_id text not null,
        collection text not null,
        record_id text not null,
        op text not null check (op in ('saved','deleted','trashed','restored')),
        at timestamptz not null default now()
      )`.execute(db);
    await sql`create index change_log_team on change_log (team_id, seq)`.execute(db);
    await sql`create index change_log_board on change_log (team_id, board_id, seq)`.execute(db);

    await sql`
      create table idempotency_keys (
        user_id integer not null references users(id) on delete cascade,
        key text not null,
        request text not null,
        status integer not null,
        response jsonb,
        created_at timestamptz not null default now(),
        primary key (user_id, key)
      )`.execute(db);
    await sql`create index idempotency_keys_created on idempotency_keys (created_at)`.execute(db);
  },
};
