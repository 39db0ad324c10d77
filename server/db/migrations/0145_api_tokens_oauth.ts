import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Tokens for the public API (issue 14, decision 0145): personal access tokens, OAuth
 * applications, their authorisation codes, and the tokens issued to them. Every token and secret
 * is stored only as a SHA-256 hash (they are 256-bit random values; see the decision for why a
 * fast hash suffices).
 */
export const m0145_api_tokens_oauth: Migration = {
  name: '0145_api_tokens_oauth',
  async up(db) {
    await sql`
      create table oauth_clients (
        id serial primary key,
        -- The public client identifier handed to the developer.
        client_id text not null unique,
        secret_hash text not null,
        -- The developer who registered the app.
        user_id integer not null references users(id) on delete cascade,
        name text not null,
        redirect_uris text[] not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`.execute(db);
    await sql`create index oauth_clients_user on oauth_clients (user_id)`.execute(db);

    await sql`
      create table oauth_codes (
        code_hash text primary key,
        client_id integer not null references oauth_clients(id) on delete cascade,
        user_id integer not null references users(id) on delete cascade,
        redirect_uri text not null,
        abilities text[] not null,
        code_challenge text not null,
        code_challenge_method text not null,
        expires_at timestamptz not null,
        -- Set when exchanged: a code works once; presenting it again revokes what it bought.
        used_at timestamptz,
        created_at timestamptz not null
      )`.execute(db);

    await sql`
      create table api_tokens (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        kind text not null check (kind in ('personal', 'oauth')),
        name text not null,
        -- For kind 'oauth': the app the user authorised.
        client_id integer references oauth_clients(id) on delete cascade,
        -- For kind 'oauth': the code this token was bought with (a replayed code revokes it).
        code_hash text,
        token_hash text not null unique,
        refresh_hash text unique,
        abilities text[] not null,
        expires_at timestamptz,
        refresh_expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null,
        check ((kind = 'oauth') = (client_id is not null))
      )`.execute(db);
    await sql`create index api_tokens_user on api_tokens (user_id, kind)`.execute(db);
    await sql`create index api_tokens_client on api_tokens (client_id, user_id) where client_id is not null`.execute(db);
    await sql`create index api_tokens_code on api_tokens (code_hash) where code_hash is not null`.execute(db);
  },
};
