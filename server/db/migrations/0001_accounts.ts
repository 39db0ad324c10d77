import { sql } from 'kysely';
import type { Migration } from '../migrate';

export const m0001_accounts: Migration = {
  name: '0001_accounts',
  async up(db) {
    await sql`
      create table users (
        id serial primary key,
        email text not null,
        name text not null,
        password_hash text,
        photo_url text,
        locale text not null default 'en-US',
        timezone text,
        start_of_week smallint,
        theme smallint not null default 2,
        preferences jsonb not null default '{}',
        source text,
        email_verified_at timestamptz,
        totp_secret text,
        totp_enabled_at timestamptz,
        totp_last_step bigint,
        recovery_codes jsonb not null default '[]',
        reauthenticated_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`create unique index users_email_lower on users (lower(email))`.execute(db);
    await sql`
      create table access_tokens (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        access_hash text not null unique,
        refresh_hash text not null unique,
        expires_at timestamptz not null,
        refresh_expires_at timestamptz not null,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      )`.execute(db);
    await sql`create index access_tokens_user on access_tokens (user_id)`.execute(db);
  },
};
