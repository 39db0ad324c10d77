import type { Migration } from '../migrate';

/** Single sign-on required (decision 0270): members of an allowed domain cannot sign in with a password. */
export const m0271_sso_enforce: Migration = {
  name: '0271_sso_enforce',
  async up(db) {
    await db.schema.alterTable('sso_settings').addColumn('enforce_sso', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  },
};
