import type { Migration } from '../migrate';

/**
 * Referral credits held and self-referral refused (issue #26, N12):
 * - referral_credits.available_at: a credit counts in the earnings only once the invoice is past
 *   its refund window (null: credited before this migration, available);
 * - signup_addresses: the client address each account registered from, to refuse credit to a
 *   referrer and referred account that signed up from the same address.
 */
export const m0273_referral_holds: Migration = {
  name: '0273_referral_holds',
  async up(db) {
    await db.schema.alterTable('referral_credits').addColumn('available_at', 'timestamptz').execute();
    await db.schema
      .createTable('signup_addresses')
      .ifNotExists()
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('signup_addresses_ip').ifNotExists().on('signup_addresses').column('ip').execute();
  },
};
