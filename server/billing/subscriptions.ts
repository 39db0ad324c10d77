import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { isOnTrial, ownedSubscriptions, subscriptionView, type SubscriptionRow } from '../workspaces/subscriptions';
import { monthOf } from '../../schema/automations';
import { getPlan, isPaid, limitsOf, listPlans, planView, type PlanRow } from './plans';
import { effectiveLimits, subscriptionState } from './limits';
import type { BillingSubscriptionView } from '../../schema/billing';

export { effectiveLimits, subscriptionLimits, subscriptionState, workspaceLimits, type SubscriptionState } from './limits';

/**
 * Subscription states and trials (workspace.md §4, §6, §9; issue #18 part 3, decision 0240).
 * Time always comes from the caller's `now` (ctx.now()), so tests move the clock.
 */

type Db = Kysely<Database> | Transaction<Database>;
const DAY = 24 * 60 * 60 * 1000;
export const TRIAL_DAYS = 14;
export const TRIAL_EXTENSION_DAYS = 30;

/** The answer's shape is shared with the app: schema/billing.ts. */
export type { BillingSubscriptionView, TrialInfo } from '../../schema/billing';

async function trialRow(db: Db, subscriptionId: number) {
  return db.selectFrom('subscription_trials').selectAll().where('subscription_id', '=', subscriptionId).executeTakeFirst();
}

/** workspace.md §5: a trial is not allowed on a paid plan, nor a second time. */
async function trialEligible(db: Db, sub: SubscriptionRow, plan: PlanRow | undefined, now: Date): Promise<boolean> {
  if (await trialRow(db, sub.id)) return false;
  if (isOnTrial(sub, now)) return false;
  return !plan || !isPaid(plan);
}

export async function billingView(ctx: Pick<AppContext, 'config'>, db: Db, sub: SubscriptionRow, now: Date): Promise<BillingSubscriptionView> {
  const base = await subscriptionView(db, sub, now);
  const catalogue = await listPlans(db, { includeArchived: true });
  const plan = catalogue.find((p) => p.id === sub.deal);
  const trial = await trialRow(db, sub.id);
  const { rows: members } = await sql<{ n: string | null }>`
    select max(c) as n from (select count(*) as c from team_members m join teams t on t.id = m.team_id where t.subscription_id = ${sub.id} group by m.team_id) s`.execute(db);
  const { rows: runs } = await sql<{ n: string | null }>`
    select max(r) as n from (select sum(u.runs) as r from automation_usage u join teams t on t.id = u.team_id
      where t.subscription_id = ${sub.id} and u.month = ${monthOf(now)} group by u.team_id) s`.execute(db);
  const trialEnd = sub.trial_ends_at ? new Date(sub.trial_ends_at).getTime() : null;
  return {
    ...base,
    state: subscriptionState(sub, now),
    plan: plan ? planView(plan, catalogue) : null,
    limits: await effectiveLimits(ctx, db, sub, now),
    usage: { ...base.usage, members: Number(members[0]?.n ?? 0), automation_runs: Number(runs[0]?.n ?? 0) },
    trial: trial
      ? {
          plan: trial.plan,
          started_at: new Date(trial.started_at).toISOString(),
          extended_at: trial.extended_at ? new Date(trial.extended_at).toISOString() : null,
          days_left: trialEnd === null ? 0 : Math.max(0, Math.ceil((trialEnd - now.getTime()) / DAY)),
          can_extend: trial.extended_at === null && sub.deal === trial.plan && subscriptionState(sub, now) !== 'active',
        }
      : null,
    trial_eligible: await trialEligible(db, sub, plan, now),
  };
}

export async function billingViews(ctx: AppContext, userId: number, now: Date): Promise<BillingSubscriptionView[]> {
  const subs = await ownedSubscriptions(ctx.db, userId, now);
  const out: BillingSubscriptionView[] = [];
  for (const sub of subs) out.push(await billingView(ctx, ctx.db, sub, now));
  return out;
}

const notEligible = () => new ApiError(422, Messages.trialNotEligible, 'trial_not_eligible');

/** The plan a request names: unknown → "plan not found", archived → "no longer available". */
export async function offeredPlan(db: Db, id: string): Promise<PlanRow> {
  const plan = await getPlan(db, id);
  if (!plan) throw new ApiError(422, Messages.planNotFound, 'plan_not_found', [`plan: ${Messages.planNotFound}`]);
  if (plan.archived) throw new ApiError(422, Messages.planNoLongerAvailable, 'plan_unavailable', [`plan: ${Messages.planNoLongerAvailable}`]);
  return plan;
}

/**
 * Starts a 14-day trial of a paid plan on the caller's subscription (the one asked for, else the
 * first that is not on a paid plan): the subscription takes the plan and its limits, with
 * trial_ends_at and ends_at 14 days ahead (after that it is trial_expired until a plan is bought).
 * A subscription on a paid plan, or one that has had its trial, is not eligible.
 */
export async function startTrial(db: Kysely<Database>, userId: number, planId: string, now: Date, subscriptionId?: number): Promise<SubscriptionRow> {
  return db.transaction().execute(async (trx) => {
    const plan = await offeredPlan(trx, planId);
    if (!isPaid(plan)) throw new ApiError(422, Messages.trialNeedsPaidPlan, 'validation', [`plan: ${Messages.trialNeedsPaidPlan}`]);
    const owned = await ownedSubscriptions(trx, userId, now, { lock: true });
    const plans = new Map((await listPlans(trx, { includeArchived: true })).map((p) => [p.id, p]));
    let sub: SubscriptionRow | undefined;
    if (subscriptionId !== undefined) {
      sub = owned.find((s) => s.id === subscriptionId);
      if (!sub) throw new ApiError(422, 'id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
    } else {
      sub = owned.find((s) => !isPaid(plans.get(s.deal) ?? { id: s.deal, prices: [] }));
    }
    if (!sub || !(await trialEligible(trx, sub, plans.get(sub.deal), now))) throw notEligible();
    const ends = new Date(now.getTime() + TRIAL_DAYS * DAY);
    await trx.insertInto('subscription_trials').values({ subscription_id: sub.id, plan: plan.id, started_at: now }).execute();
    return trx
      .updateTable('subscriptions')
      .set({ deal: plan.id, limits: JSON.stringify(limitsOf(plan.limits)), version: plan.version, trial_ends_at: ends, ends_at: ends })
      .where('id', '=', sub.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Extends a trial once by 30 days, from its end (or from now when it has already ended). A
 * subscription without a trial, one whose trial was extended already, or one that has since been
 * bought is refused with the spec's words.
 */
export async function extendTrial(db: Kysely<Database>, userId: number, subscriptionId: number, now: Date): Promise<SubscriptionRow> {
  return db.transaction().execute(async (trx) => {
    const owned = await ownedSubscriptions(trx, userId, now, { lock: true });
    const sub = owned.find((s) => s.id === subscriptionId);
    if (!sub) throw new ApiError(422, 'id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
    const trial = await trialRow(trx, sub.id);
    if (!trial || sub.deal !== trial.plan || subscriptionState(sub, now) === 'active') throw notEligible();
    if (trial.extended_at) throw new ApiError(422, Messages.trialAlreadyExtended, 'trial_already_extended');
    const from = Math.max(sub.trial_ends_at ? new Date(sub.trial_ends_at).getTime() : now.getTime(), now.getTime());
    const ends = new Date(from + TRIAL_EXTENSION_DAYS * DAY);
    await trx.updateTable('subscription_trials').set({ extended_at: now }).where('subscription_id', '=', sub.id).execute();
    return trx.updateTable('subscriptions').set({ trial_ends_at: ends, ends_at: ends }).where('id', '=', sub.id).returningAll().executeTakeFirstOrThrow();
  });
}
