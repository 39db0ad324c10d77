import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Lifetime-deal codes, add-ons, cancellations with retention offers (issue #18, decision 0255):
 * - ltd_codes: one row per code; redeemed once (redeemed_at, by whom, onto which subscription).
 * - subscription_addons: add-ons bought on a lifetime-deal subscription; a replaced or removed one
 *   keeps its row with removed_at (the history of what was bought).
 * - subscription_cancellations: the reasons and when; the subscription's ends_at says until when it runs.
 * - cancellation_coupons: the one retention offer a user may take (primary key user_id: once per user).
 */
export const m0255_ltd_addons_cancellation: Migration = {
  name: '0255_ltd_addons_cancellation',
  async up(db) {
    await sql`
      create table if not exists ltd_codes (
        code text primary key,
        plan text not null references plans(id),
        note text,
        created_at timestamptz not null,
        redeemed_at timestamptz,
        redeemed_by integer references users(id) on delete set null,
        subscription_id integer references subscriptions(id) on delete set null
      )`.execute(db);
    await sql`
      create table if not exists subscription_addons (
        id serial primary key,
        subscription_id integer not null references subscriptions(id) on delete cascade,
        addon text not null,
        limits jsonb not null,
        amount integer not null,
        currency text not null,
        old_addon_id integer references subscription_addons(id) on delete set null,
        payment_status text not null,
        payment_ref text,
        created_at timestamptz not null,
        removed_at timestamptz
      )`.execute(db);
    await sql`create index if not exists subscription_addons_subscription on subscription_addons (subscription_id) where removed_at is null`.execute(db);
    await sql`
      create table if not exists subscription_cancellations (
        id serial primary key,
        subscription_id integer not null references subscriptions(id) on delete cascade,
        user_id integer not null references users(id) on delete cascade,
        reasons jsonb not null,
        comment text,
        cancelled_at timestamptz not null,
        ends_at timestamptz,
        resumed_at timestamptz
      )`.execute(db);
    await sql`
      create table if not exists cancellation_coupons (
        user_id integer primary key references users(id) on delete cascade,
        subscription_id integer not null references subscriptions(id) on delete cascade,
        offer text not null,
        percent_off integer not null default 0,
        free_months integer not null default 0,
        created_at timestamptz not null,
        consumed_at timestamptz
      )`.execute(db);
  },
};
