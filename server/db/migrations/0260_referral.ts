import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * The referral programme (issue #18, workspace.md §7 "Referral", decision 0260): each user's code
 * (the link `{PUBLIC_URL}/register?ref={code}`), the sign-ups it brought (one referrer per
 * account, set at registration), the invitations mailed, and the credits — 20 % of every paid
 * invoice of a referred account, one row per invoice (the primary key makes the credit happen
 * exactly once, however often the `invoice.paid` event is delivered).
 */
export const m0260_referral: Migration = {
  name: '0260_referral',
  async up(db) {
    await sql`
      create table if not exists referral_codes (
        user_id integer primary key references users(id) on delete cascade,
        code text not null unique,
        created_at timestamptz not null
      )`.execute(db);
    await sql`
      create table if not exists referrals (
        user_id integer primary key references users(id) on delete cascade,
        referrer_id integer not null references users(id) on delete cascade,
        code text not null,
        created_at timestamptz not null
      )`.execute(db);
    await sql`create index if not exists referrals_referrer on referrals (referrer_id)`.execute(db);
    await sql`
      create table if not exists referral_invitations (
        referrer_id integer not null references users(id) on delete cascade,
        email text not null,
        sent_at timestamptz not null,
        times integer not null default 1,
        primary key (referrer_id, email)
      )`.execute(db);
    await sql`
      create table if not exists referral_credits (
        invoice_id text primary key,
        referrer_id integer not null references users(id) on delete cascade,
        user_id integer references users(id) on delete set null,
        invoice_amount bigint not null,
        amount bigint not null,
        currency text not null,
        created_at timestamptz not null
      )`.execute(db);
    await sql`create index if not exists referral_credits_referrer on referral_credits (referrer_id, created_at)`.execute(db);
  },
};
