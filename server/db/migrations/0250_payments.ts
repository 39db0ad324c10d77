import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Payments (issue #18 "payments behind one interface", decision 0250): the provider's customers
 * and saved payment methods (brand, last4, expiry — never a card number), what a paid subscription
 * pays (its price and period), invoices (numbered when paid, lines and totals in minor units),
 * coupons (percent off, once), and provider events recorded once each (idempotency).
 *
 * Account-level domain events: invoice.paid concerns a person, not a workspace, so
 * domain_events.team_id may be null (those events are in no workspace's activity).
 */
export const m0250_payments: Migration = {
  name: '0250_payments',
  async up(db) {
    await sql`alter table domain_events alter column team_id drop not null`.execute(db);
    await sql`
      create table payment_customers (
        user_id integer not null references users(id) on delete cascade,
        provider text not null,
        customer_id text not null,
        created_at timestamptz not null default now(),
        primary key (user_id, provider)
      )`.execute(db);
    await sql`
      create table payment_methods (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        provider text not null,
        provider_method_id text not null,
        brand text not null,
        last4 text not null,
        exp_month integer not null,
        exp_year integer not null,
        created_at timestamptz not null default now(),
        unique (provider, provider_method_id)
      )`.execute(db);
    await sql`create index payment_methods_user on payment_methods (user_id, id)`.execute(db);
    await sql`
      create table subscription_payments (
        subscription_id integer primary key references subscriptions(id) on delete cascade,
        provider text not null,
        price_id text not null,
        price_interval text not null check (price_interval in ('month', 'year', 'lifetime')),
        currency text not null,
        amount integer not null check (amount >= 0),
        period_start timestamptz not null,
        period_end timestamptz,
        payment_method_id integer references payment_methods(id) on delete set null,
        credit integer not null default 0 check (credit >= 0),
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`create sequence invoice_number_seq`.execute(db);
    await sql`
      create table invoices (
        id serial primary key,
        number text unique,
        user_id integer not null references users(id) on delete cascade,
        subscription_id integer references subscriptions(id) on delete set null,
        status text not null check (status in ('open', 'paid', 'failed', 'refunded')),
        provider text not null,
        currency text not null,
        subtotal integer not null,
        discount integer not null default 0,
        credit_applied integer not null default 0,
        total integer not null check (total >= 0),
        lines jsonb not null,
        change jsonb not null,
        coupon text,
        payment_method_id integer references payment_methods(id) on delete set null,
        card jsonb,
        charge_id text,
        failure_code text,
        failure_message text,
        created_at timestamptz not null default now(),
        paid_at timestamptz
      )`.execute(db);
    await sql`create index invoices_user on invoices (user_id, id)`.execute(db);
    await sql`
      create table coupons (
        code text primary key,
        percent_off integer not null check (percent_off between 1 and 100),
        duration text not null default 'once' check (duration in ('once')),
        active boolean not null default true,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table coupon_redemptions (
        code text not null references coupons(code),
        user_id integer not null references users(id) on delete cascade,
        invoice_id integer not null references invoices(id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (code, user_id)
      )`.execute(db);
    await sql`
      create table payment_events (
        provider text not null,
        event_id text not null,
        type text not null,
        created timestamptz not null,
        payload jsonb not null,
        received_at timestamptz not null default now(),
        handled_at timestamptz,
        primary key (provider, event_id)
      )`.execute(db);
  },
};
