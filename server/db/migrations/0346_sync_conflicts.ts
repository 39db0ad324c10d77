import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Each user's conflicts on the server (issue #30, decision 0346): a row per field another user's
 * save won over this user's offline edit, reported by the device that recorded it, so every device
 * of the user lists it and a choice made on one device removes it from the others.
 * `key` is the device-made name of the row (one per user); `resolved_at` is set by the choice.
 */
export const m0346_sync_conflicts: Migration = {
  name: '0346_sync_conflicts',
  async up(db) {
    await db.schema
      .createTable('sync_conflicts')
      .ifNotExists()
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('team_id', 'integer', (c) => c.notNull())
      .addColumn('board_id', 'text', (c) => c.notNull())
      .addColumn('body', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('resolved_at', 'timestamptz')
      .addColumn('resolution', 'text')
      .addPrimaryKeyConstraint('sync_conflicts_pkey', ['user_id', 'key'])
      .execute();
    await sql`create index if not exists sync_conflicts_open on sync_conflicts (user_id) where resolved_at is null`.execute(db);
  },
};
