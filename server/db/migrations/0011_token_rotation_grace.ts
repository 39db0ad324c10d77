import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * A refresh whose answer never arrives (tab closed mid-request, connection dropped) must not end
 * the session: the tokens it replaced stay usable for a while (decision 0010, "Lost answers").
 * - previous_access_hash: the access token the last rotation replaced, valid until its own expiry.
 * - previous_refresh_hashes: refresh tokens replaced since the client last proved it holds the
 *   newest one (at most three, newest first).
 */
export const m0011_token_rotation_grace: Migration = {
  name: '0011_token_rotation_grace',
  async up(db) {
    await sql`
      alter table access_tokens
        add column previous_access_hash text,
        add column previous_access_expires_at timestamptz,
        add column previous_refresh_hashes text[] not null default '{}'`.execute(db);
    await sql`create index access_tokens_previous_access on access_tokens (previous_access_hash) where previous_access_hash is not null`.execute(db);
    await sql`create index access_tokens_previous_refresh on access_tokens using gin (previous_refresh_hashes)`.execute(db);
  },
};
