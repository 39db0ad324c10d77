import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import type { SubscriptionRow } from '../workspaces/subscriptions';
import { canGetAddons } from './addons';
import { subscriptionState } from './limits';
import { getPlan, isPaid } from './plans';
import { cancelBody, CANCEL_REASONS, couponBody, RETENTION_OFFERS, type CancelReason, type CancellationView, type RetentionOffer } from '../../schema/billing';

/**
 * Cancellation with retention offers (workspace.md §4, §5, §9; issue #18, decision 0255).
 *
 * - Cancel (POST /api/subscription/{id}/cancel {reasons, comment}): at least one reason ("Select at
 *   least one reason for leaving."). A paid plan keeps running to the end of its current period
 *   (state `cancelled`), then it is `expired`: the free plan's limits, no new workspaces (read-only
 *   for what is over them). A trial runs to its end. The free plan and a lifetime deal have nothing
 *   to cancel. Resume (POST …/resume) undoes it before the end.
 * - Retention offers (POST /api/subscription/{id}/cancellation-coupon {offer}), once per user:
 *   `trial_days` (30 more trial days, on a trial or an expired trial), `free_month` (the next
 *   month free) and `year_discount` (20 % off the next year) on a running paid plan. Taking one
 *   also withdraws a pending cancellation. The profile preference `usedCancelCoupon` is set; the
 *   server's own record (cancellation_coupons, one row per user) is what refuses a second one.
 *   The free month and the discount are stored for the next invoice (`pendingCancellationCoupon`).
 * - The 14-day money-back guarantee is shown on the cancel screen; refunds are by the operator.
 */

type Db = Kysely<Database> | Transaction<Database>;
const DAY = 24 * 60 * 60 * 1000;
export const RETENTION_TRIAL_DAYS = 30;
export const RETENTION_PERCENT_OFF = 20;
export const MONEY_BACK_DAYS = 14;

/** The reasons, the offers, both bodies and the view are shared with the app: schema/billing.ts. */
export { cancelBody, CANCEL_REASONS, couponBody, RETENTION_OFFERS, type CancelReason, type CancellationView, type RetentionOffer };

async function ownedLocked(db: Db, userId: number, id: number): Promise<SubscriptionRow> {
  const sub = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
  if (!sub) throw new ApiError(422, 'Validation Error: id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
  return sub;
}

/**
 * The next monthly anniversary of the subscription's start after `now`: the period end of a paid
 * subscription the payments part has no period for.
 */
export function currentPeriodEnd(sub: Pick<SubscriptionRow, 'created_at'>, now: Date, months = 1): Date {
  const start = new Date(sub.created_at);
  let n = 0;
  let end = new Date(start);
  while (end.getTime() <= now.getTime()) {
    n += months;
    end = new Date(start);
    end.setUTCMonth(start.getUTCMonth() + n);
  }
  return end;
}

/**
 * The paid period's end as the payments part stored it (subscription_payments.period_end), else
 * the next monthly anniversary. Read with plain SQL and only when that table exists, so this works
 * on a database the payments migration has not reached.
 */
async function paidPeriodEnd(db: Db, sub: SubscriptionRow, now: Date): Promise<Date> {
  const { rows: exists } = await sql<{ t: string | null }>`select to_regclass('subscription_payments')::text as t`.execute(db);
  if (exists[0]?.t) {
    const { rows } = await sql<{ period_end: Date | string | null }>`select period_end from subscription_payments where subscription_id = ${sub.id}`.execute(db);
    const end = rows[0]?.period_end ? new Date(rows[0].period_end) : null;
    if (end && end.getTime() > now.getTime()) return end;
  }
  return currentPeriodEnd(sub, now);
}

/** What the subscription is, for cancelling: a running paid plan, a trial, or nothing to cancel. */
async function kindOf(db: Db, sub: SubscriptionRow, now: Date): Promise<'paid' | 'trial' | 'none'> {
  const state = subscriptionState(sub, now);
  if (state === 'trial' || state === 'trial_expired') return 'trial';
  if (state === 'expired') return 'none';
  const plan = await getPlan(db, sub.deal);
  if (!plan || !isPaid(plan) || (await canGetAddons(db, sub))) return 'none';
  return 'paid';
}

export async function cancellationView(db: Db, userId: number, subscriptionId: number, now: Date): Promise<CancellationView> {
  const sub = await db.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).where('user_id', '=', userId).executeTakeFirst();
  if (!sub) throw new ApiError(422, 'Validation Error: id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
  const kind = await kindOf(db, sub, now);
  const standing = await db
    .selectFrom('subscription_cancellations')
    .selectAll()
    .where('subscription_id', '=', sub.id)
    .where('resumed_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const coupon = await db.selectFrom('cancellation_coupons').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const offers: RetentionOffer[] = coupon ? [] : kind === 'trial' ? ['trial_days'] : kind === 'paid' ? ['free_month', 'year_discount'] : [];
  return {
    subscription_id: sub.id,
    cancellation: standing
      ? { reasons: standing.reasons as CancelReason[], comment: standing.comment, cancelled_at: new Date(standing.cancelled_at).toISOString(), ends_at: standing.ends_at ? new Date(standing.ends_at).toISOString() : null }
      : null,
    can_cancel: kind !== 'none' && !standing,
    offers,
    coupon_used: Boolean(coupon),
    coupon: coupon && coupon.subscription_id === sub.id ? { offer: coupon.offer as RetentionOffer, percent_off: coupon.percent_off, free_months: coupon.free_months, consumed: coupon.consumed_at !== null } : null,
    money_back_days: MONEY_BACK_DAYS,
  };
}

export async function cancelSubscription(db: Kysely<Database>, userId: number, subscriptionId: number, body: z.infer<typeof cancelBody>, now: Date): Promise<SubscriptionRow> {
  if (body.reasons.length === 0) throw new ApiError(422, Messages.cancelReasonRequired, 'validation', [`reasons: ${Messages.cancelReasonRequired}`]);
  return db.transaction().execute(async (trx) => {
    const sub = await ownedLocked(trx, userId, subscriptionId);
    const kind = await kindOf(trx, sub, now);
    if (kind === 'none') throw new ApiError(422, Messages.nothingToCancel, 'nothing_to_cancel');
    const standing = await trx.selectFrom('subscription_cancellations').select('id').where('subscription_id', '=', sub.id).where('resumed_at', 'is', null).executeTakeFirst();
    if (standing || (kind === 'paid' && subscriptionState(sub, now) === 'cancelled')) throw new ApiError(422, Messages.alreadyCancelled, 'already_cancelled');
    // A trial already ends at trial_ends_at; a paid plan now ends at the end of its period.
    const endsAt = kind === 'trial' ? sub.ends_at : await paidPeriodEnd(trx, sub, now);
    await trx
      .insertInto('subscription_cancellations')
      .values({ subscription_id: sub.id, user_id: userId, reasons: JSON.stringify([...new Set(body.reasons)]), comment: body.comment || null, cancelled_at: now, ends_at: endsAt })
      .execute();
    if (kind === 'trial') return sub;
    return trx.updateTable('subscriptions').set({ ends_at: endsAt }).where('id', '=', sub.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Withdraws a standing cancellation before the end: a paid plan runs on without an end date. */
export async function resumeSubscription(db: Kysely<Database>, userId: number, subscriptionId: number, now: Date): Promise<SubscriptionRow> {
  return db.transaction().execute(async (trx) => {
    const sub = await ownedLocked(trx, userId, subscriptionId);
    const res = await trx.updateTable('subscription_cancellations').set({ resumed_at: now }).where('subscription_id', '=', sub.id).where('resumed_at', 'is', null).executeTakeFirst();
    const state = subscriptionState(sub, now);
    if (Number(res.numUpdatedRows) === 0 || state === 'expired' || state === 'trial_expired') throw new ApiError(422, Messages.nothingToCancel, 'nothing_to_cancel');
    if ((await kindOf(trx, sub, now)) !== 'paid') return sub;
    return trx.updateTable('subscriptions').set({ ends_at: null }).where('id', '=', sub.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Takes one retention offer (once per user). */
export async function takeCancellationCoupon(db: Kysely<Database>, userId: number, subscriptionId: number, offer: RetentionOffer, now: Date): Promise<SubscriptionRow> {
  return db.transaction().execute(async (trx) => {
    const sub = await ownedLocked(trx, userId, subscriptionId);
    // The user row is locked so two offers at once cannot both pass the check below.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const used = await trx.selectFrom('cancellation_coupons').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (used) throw new ApiError(422, Messages.cancelCouponUsed, 'cancel_coupon_used');
    const kind = await kindOf(trx, sub, now);
    if ((offer === 'trial_days' && kind !== 'trial') || (offer !== 'trial_days' && kind !== 'paid')) {
      throw new ApiError(422, Messages.cancelOfferNotApplicable, 'offer_not_applicable');
    }
    await trx
      .insertInto('cancellation_coupons')
      .values({
        user_id: userId,
        subscription_id: sub.id,
        offer,
        percent_off: offer === 'year_discount' ? RETENTION_PERCENT_OFF : 0,
        free_months: offer === 'free_month' ? 1 : 0,
        created_at: now,
        // The trial days apply at once; the other two wait for the next invoice.
        consumed_at: offer === 'trial_days' ? now : null,
      })
      .execute();
    await sql`update users set preferences = coalesce(preferences, '{}'::jsonb) || '{"usedCancelCoupon": true}'::jsonb where id = ${userId}`.execute(trx);
    await trx.updateTable('subscription_cancellations').set({ resumed_at: now }).where('subscription_id', '=', sub.id).where('resumed_at', 'is', null).execute();
    if (offer === 'trial_days') {
      const from = Math.max(sub.trial_ends_at ? new Date(sub.trial_ends_at).getTime() : now.getTime(), now.getTime());
      const ends = new Date(from + RETENTION_TRIAL_DAYS * DAY);
      return trx.updateTable('subscriptions').set({ trial_ends_at: ends, ends_at: ends }).where('id', '=', sub.id).returningAll().executeTakeFirstOrThrow();
    }
    return trx.updateTable('subscriptions').set({ ends_at: null }).where('id', '=', sub.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** The retention discount waiting for the subscription's next invoice (the payments part applies and consumes it). */
export async function pendingCancellationCoupon(db: Db, subscriptionId: number) {
  return db.selectFrom('cancellation_coupons').selectAll().where('subscription_id', '=', subscriptionId).where('consumed_at', 'is', null).executeTakeFirst();
}

export async function consumeCancellationCoupon(db: Db, subscriptionId: number, now: Date): Promise<void> {
  await db.updateTable('cancellation_coupons').set({ consumed_at: now }).where('subscription_id', '=', subscriptionId).where('consumed_at', 'is', null).execute();
}
