import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { getPlan, limitsOf, listPlans, topPlan, type PlanLimits } from './plans';
import { addonLimitsFor } from './addons';
import type { SubscriptionState } from '../../schema/billing';

/**
 * Subscription states and effective limits (workspace.md §4, §9; decision 0240). Kept apart from
 * subscriptions.ts so the workspace and member checks (server/workspaces) can ask it without an
 * import cycle. Time always comes from the caller's `now` (ctx.now()).
 */

type Db = Kysely<Database> | Transaction<Database>;
type SubscriptionLike = { limits: unknown; trial_ends_at: Date | string | null; ends_at: Date | string | null };

/**
 * - trial: trial_ends_at is ahead;
 * - trial_expired: the trial ended and nothing was bought (read-only; "trial expired, buy a plan");
 * - active: no end date (the free plan, a running paid plan);
 * - cancelled: an end date ahead (running to its end, then read-only);
 * - expired: the end date has passed.
 */
export type { SubscriptionState } from '../../schema/billing';

export function subscriptionState(sub: Pick<SubscriptionLike, 'trial_ends_at' | 'ends_at'>, now: Date): SubscriptionState {
  const t = now.getTime();
  const trialEnd = sub.trial_ends_at ? new Date(sub.trial_ends_at).getTime() : null;
  const end = sub.ends_at ? new Date(sub.ends_at).getTime() : null;
  if (trialEnd !== null && trialEnd > t) return 'trial';
  if (end === null) return 'active';
  if (end > t) return 'cancelled';
  return trialEnd !== null && trialEnd >= end ? 'trial_expired' : 'expired';
}

/**
 * A subscription's effective limits: BILLING=off gives the top plan's to everyone; otherwise the
 * limits the subscription was given (copied from its plan when it started, so a later catalogue
 * edit does not shrink a running subscription), and the free plan's once it is no longer active.
 * Add-ons will add to these here.
 */
export async function effectiveLimits(ctx: Pick<AppContext, 'config'>, db: Db, sub: SubscriptionLike | null | undefined, now: Date): Promise<PlanLimits> {
  if (!ctx.config.billing) {
    const top = topPlan(await listPlans(db));
    return limitsOf(top?.limits);
  }
  if (!sub) return limitsOf(undefined);
  const state = subscriptionState(sub, now);
  if (state === 'trial_expired' || state === 'expired') {
    const free = await getPlan(db, 'free');
    return limitsOf(free?.limits);
  }
  // Add-ons of a lifetime-deal subscription add to its own limits (decision 0255).
  return addonLimitsFor(db, (sub as { id?: number }).id, limitsOf(sub.limits));
}

/** The effective limits of the subscription a workspace is on. */
export async function workspaceLimits(ctx: Pick<AppContext, 'config'>, db: Db, teamId: number, now: Date): Promise<PlanLimits> {
  const row = await db
    .selectFrom('teams')
    .leftJoin('subscriptions', 'subscriptions.id', 'teams.subscription_id')
    .select(['subscriptions.limits', 'subscriptions.trial_ends_at', 'subscriptions.ends_at', 'subscriptions.id'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
  return effectiveLimits(ctx, db, row?.id ? (row as never) : null, now);
}

/** The effective limits of a subscription by id (null: no subscription, the defaults, or the top plan's with BILLING=off). */
export async function subscriptionLimits(ctx: Pick<AppContext, 'config'>, db: Db, subscriptionId: number | null, now: Date): Promise<PlanLimits> {
  const sub = subscriptionId === null ? undefined : await db.selectFrom('subscriptions').select(['id', 'limits', 'trial_ends_at', 'ends_at']).where('id', '=', subscriptionId).executeTakeFirst();
  return effectiveLimits(ctx, db, sub ?? null, now);
}
