import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Single sign-on only for accounts that linked themselves (issue #26, N1):
 * - sso_identity_links: an account's own link to a provider identity (issuer + subject), made
 *   while signed in with its password (and second factor), or when SSO created the account;
 * - sso_settings.domain_token / verified_domains: an allowed domain signs in (or is enforced)
 *   only after its DNS TXT record proves the workspace owns it;
 * - sso_login_states.purpose / user_id: a flight is a sign-in, a link of the signed-in account, or
 *   the second-factor step that follows a sign-in of an account with 2FA.
 */
export const m0272_sso_links: Migration = {
  name: '0272_sso_links',
  async up(db) {
    await db.schema
      .createTable('sso_identity_links')
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addUniqueConstraint('sso_identity_links_identity', ['issuer', 'subject'])
      .execute();
    await db.schema.createIndex('sso_identity_links_user').ifNotExists().on('sso_identity_links').column('user_id').execute();
    await db.schema.alterTable('sso_settings').addColumn('domain_token', 'text').execute();
    await db.schema.alterTable('sso_settings').addColumn('verified_domains', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
    await db.schema.alterTable('sso_login_states').addColumn('purpose', 'text', (c) => c.notNull().defaultTo('sign-in')).execute();
    await db.schema.alterTable('sso_login_states').addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade')).execute();
  },
};
