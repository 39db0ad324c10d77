import type { Migration } from '../migrate';

/**
 * Operator settings of the app shell (issue #17 part 8, decision 0230): the status banner's text,
 * how clients on another version are told to update, and the additional script. One row per key;
 * every API server reads them (cached a few seconds), so a change reaches the whole cluster.
 */
export const m0230_shell_settings: Migration = {
  name: '0230_shell_settings',
  async up(db) {
    await db.schema
      .createTable('shell_settings')
      .ifNotExists()
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
};
