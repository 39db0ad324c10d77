import type { Migration } from '../migrate';

/**
 * Single sign-on (issue #18, decision 0270): each workspace's OpenID Connect and SAML settings, and
 * the sign-ins in flight (state, nonce and PKCE verifier of an authorisation request, single use,
 * bound to the browser by a cookie whose value is stored only as a hash).
 */
export const m0270_sso: Migration = {
  name: '0270_sso',
  async up(db) {
    await db.schema
      .createTable('sso_settings')
      .ifNotExists()
      .addColumn('team_id', 'integer', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
      .addColumn('oidc_issuer', 'text')
      .addColumn('oidc_client_id', 'text')
      // AES-256-GCM sealed (server/secret-box.ts); never answered by the API.
      .addColumn('oidc_client_secret', 'text')
      .addColumn('oidc_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('allowed_domains', 'jsonb', (c) => c.notNull())
      .addColumn('saml_entity_id', 'text')
      .addColumn('saml_sso_url', 'text')
      .addColumn('saml_certificate', 'text')
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sso_login_states')
      .ifNotExists()
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('intended', 'text')
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sso_login_states_expires').ifNotExists().on('sso_login_states').column('expires_at').execute();
  },
};
