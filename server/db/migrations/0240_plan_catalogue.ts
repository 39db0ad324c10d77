import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * The plan catalogue as data (issue #18 part 1, decision 0240): prices become a list of
 * {id, interval, currency, amount} (amount in minor units, cents), every plan names its limits in
 * full (workspaces, members, storage GB, AutomationRunsLimit, WhitelabelLimit, proViews), a
 * lifetime-deal plan joins Free / Pro / Business, and plans get a position and an `archived` flag
 * (an archived plan is no longer offered; subscriptions on it keep working). Trials are recorded
 * per subscription in subscription_trials (the spec allows one trial and one extension).
 */
export const m0240_plan_catalogue: Migration = {
  name: '0240_plan_catalogue',
  async up(db) {
    await sql`alter table plans add column if not exists archived boolean not null default false`.execute(db);
    await sql`alter table plans add column if not exists position integer not null default 0`.execute(db);
    const plans: { id: string; level: number; tier: number; name: string; position: number; upgradable: boolean; prices: object[]; limits: object }[] = [
      {
        id: 'free', level: 0, tier: 0, name: 'Free', position: 0, upgradable: true, prices: [],
        limits: { workspaces: 1, members: 5, storage: 1, AutomationRunsLimit: 100, WhitelabelLimit: 0, proViews: false },
      },
      {
        id: 'pro', level: 1, tier: 0, name: 'Pro', position: 1, upgradable: true,
        prices: [
          { id: 'pro-month-usd', interval: 'month', currency: 'USD', amount: 1000 },
          { id: 'pro-year-usd', interval: 'year', currency: 'USD', amount: 9600 },
          { id: 'pro-month-eur', interval: 'month', currency: 'EUR', amount: 1000 },
          { id: 'pro-year-eur', interval: 'year', currency: 'EUR', amount: 9600 },
        ],
        limits: { workspaces: 5, members: 50, storage: 100, AutomationRunsLimit: 25000, WhitelabelLimit: 0, proViews: true },
      },
      {
        id: 'business', level: 2, tier: 0, name: 'Business', position: 2, upgradable: false,
        prices: [
          { id: 'business-month-usd', interval: 'month', currency: 'USD', amount: 2000 },
          { id: 'business-year-usd', interval: 'year', currency: 'USD', amount: 19200 },
          { id: 'business-month-eur', interval: 'month', currency: 'EUR', amount: 2000 },
          { id: 'business-year-eur', interval: 'year', currency: 'EUR', amount: 19200 },
        ],
        limits: { workspaces: 20, members: 500, storage: 1000, AutomationRunsLimit: 250000, WhitelabelLimit: 1, proViews: true },
      },
      {
        id: 'ltd', level: 1, tier: 1, name: 'Lifetime deal', position: 3, upgradable: false,
        prices: [{ id: 'ltd-lifetime-usd', interval: 'lifetime', currency: 'USD', amount: 29900 }],
        limits: { workspaces: 3, members: 25, storage: 50, AutomationRunsLimit: 10000, WhitelabelLimit: 1, proViews: true },
      },
    ];
    // An existing plan keeps the limits an operator may have set (new names are added); its prices
    // take the new list shape.
    for (const p of plans) {
      await sql`
        insert into plans (id, version, level, tier, name, prices, limits, is_upgradable, position)
        values (${p.id}, 8, ${p.level}, ${p.tier}, ${p.name}, ${JSON.stringify(p.prices)}::jsonb, ${JSON.stringify(p.limits)}::jsonb, ${p.upgradable}, ${p.position})
        on conflict (id) do update set prices = excluded.prices, limits = excluded.limits || plans.limits, position = excluded.position,
          level = excluded.level, tier = excluded.tier, name = excluded.name, is_upgradable = excluded.is_upgradable`.execute(db);
    }
    await sql`
      create table if not exists subscription_trials (
        subscription_id integer primary key references subscriptions(id) on delete cascade,
        plan text not null references plans(id),
        started_at timestamptz not null,
        extended_at timestamptz
      )`.execute(db);
  },
};
