import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * One-time tokens mailed to a user: password reset links and email verification links.
 * Only a SHA-256 hash of each token is stored; `used_at` makes them single use.
 */
export const m0010_account_tokens: Migration = {
  name: '0010_account_tokens',
  async up(db) {
    await sql`
      create table account_tokens (
        id serial primary key,
        kind text not null check (kind in ('password_reset', 'verify_email')),
        user_id integer not null references users(id) on delete cascade,
        email text not null,
        token_hash text not null unique,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index account_tokens_user_kind on account_tokens (user_id, kind)`.execute(db);
  },
};
