import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { getPlan, pricesOf, type PlanLimits } from './plans';
import { addonBody, type AddonOffer, type AddonsAnswer, type AddonView } from '../../schema/billing';

/**
 * Add-ons (workspace.md §3 "Add-on: id, ltd_id, old_addon_id", §7; issue #18, decision 0255): extra
 * capacity bought once on a lifetime-deal subscription. Each add-on adds its numbers to the
 * subscription's effective limits (effectiveLimits in limits.ts calls addonLimitsFor). Replacing an
 * add-on (POST …/add-ons/{oldAddonId}) ends the old one and records old_addon_id on the new one;
 * the charge is the difference in price (never below zero). Deleting ends it; its capacity is gone.
 */

type Db = Kysely<Database> | Transaction<Database>;
export type AddonRow = Selectable<Database['subscription_addons']>;

/** The wire shapes (offer, add-on, the list's answer) and the body are shared with the app: schema/billing.ts. */
export { addonBody, type AddonOffer, type AddonView };

/** The add-ons offered: a lifetime price each, in cents. */
export const ADDON_CATALOGUE: AddonOffer[] = [
  { id: 'workspaces-1', limits: { workspaces: 1 }, amount: 4900, currency: 'USD' },
  { id: 'members-10', limits: { members: 10 }, amount: 4900, currency: 'USD' },
  { id: 'storage-50', limits: { storage: 50 }, amount: 2900, currency: 'USD' },
  { id: 'storage-200', limits: { storage: 200 }, amount: 7900, currency: 'USD' },
  { id: 'automation-10k', limits: { AutomationRunsLimit: 10000 }, amount: 3900, currency: 'USD' },
];

export function addonView(row: AddonRow): AddonView {
  return {
    id: row.id,
    ltd_id: row.subscription_id,
    old_addon_id: row.old_addon_id,
    addon: row.addon,
    limits: row.limits as AddonView['limits'],
    amount: row.amount,
    currency: row.currency,
    payment_status: row.payment_status as AddonView['payment_status'],
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** A subscription can get add-ons when its plan is sold for life (the ltd plan, or any plan with a lifetime price). */
export async function canGetAddons(db: Db, sub: { deal: string; trial_ends_at: Date | string | null }): Promise<boolean> {
  if (sub.trial_ends_at !== null) return false;
  const plan = await getPlan(db, sub.deal);
  if (!plan) return false;
  return plan.id === 'ltd' || pricesOf(plan.prices, plan.id).some((p) => p.interval === 'lifetime');
}

export function activeAddons(db: Db, subscriptionId: number): Promise<AddonRow[]> {
  return db.selectFrom('subscription_addons').selectAll().where('subscription_id', '=', subscriptionId).where('removed_at', 'is', null).orderBy('id').execute();
}

/** The limits with the subscription's live add-ons added (limits.ts effectiveLimits). */
export async function addonLimitsFor(db: Db, subscriptionId: number | undefined, limits: PlanLimits): Promise<PlanLimits> {
  if (subscriptionId === undefined) return limits;
  const rows = await activeAddons(db, subscriptionId);
  if (rows.length === 0) return limits;
  const out = { ...limits };
  for (const row of rows) {
    for (const [name, value] of Object.entries(row.limits as Record<string, unknown>)) {
      if ((name === 'workspaces' || name === 'members' || name === 'storage' || name === 'AutomationRunsLimit') && typeof value === 'number') out[name] += value;
    }
  }
  return out;
}

async function ownedSubscription(db: Db, userId: number, id: number, lock = false) {
  let query = db.selectFrom('subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId);
  if (lock) query = query.forUpdate();
  const sub = await query.executeTakeFirst();
  if (!sub) throw new ApiError(422, 'Validation Error: id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
  return sub;
}

export async function listAddons(db: Db, userId: number, subscriptionId: number): Promise<AddonsAnswer> {
  const sub = await ownedSubscription(db, userId, subscriptionId);
  const eligible = await canGetAddons(db, sub);
  return { data: eligible ? (await activeAddons(db, sub.id)).map(addonView) : [], available: eligible ? ADDON_CATALOGUE : [], eligible };
}

/**
 * What charging an add-on does. The payment provider charges the user's saved payment method when
 * the payments part provides one (`charge`); without it the purchase is stored as `recorded`.
 */
export type AddonCharge = (input: { userId: number; subscriptionId: number; description: string; amount: number; currency: string; idempotencyKey: string }) => Promise<{ status: 'paid' | 'recorded'; ref: string | null }>;
export const recordOnly: AddonCharge = async () => ({ status: 'recorded', ref: null });

export async function buyAddon(db: Kysely<Database>, userId: number, subscriptionId: number, addonId: string, now: Date, opts: { oldAddonId?: number; charge?: AddonCharge } = {}): Promise<AddonRow> {
  const offer = ADDON_CATALOGUE.find((a) => a.id === addonId);
  if (!offer) throw new ApiError(422, Messages.addonUnknown, 'addon_unknown', [`addon: ${Messages.addonUnknown}`]);
  const liveAddon = (trx: Db, subId: number, id: number) =>
    trx.selectFrom('subscription_addons').selectAll().where('id', '=', id).where('subscription_id', '=', subId).where('removed_at', 'is', null).executeTakeFirst();
  // 1. Check, without holding locks: the charge below talks to the provider (and the provider
  //    records its event in a transaction of its own), so it must not run inside ours.
  const sub = await ownedSubscription(db, userId, subscriptionId);
  if (!(await canGetAddons(db, sub))) throw new ApiError(422, Messages.addonsNotAllowed, 'addons_not_allowed');
  let old: AddonRow | undefined;
  if (opts.oldAddonId !== undefined) {
    old = await liveAddon(db, sub.id, opts.oldAddonId);
    if (!old) throw new ApiError(422, 'Validation Error: oldAddonId: must be a live add-on of this subscription', 'validation', ['oldAddonId: must be a live add-on of this subscription']);
  }
  // 2. Charge (the price, or the difference when replacing; never below zero).
  const amount = Math.max(0, offer.amount - (old && old.currency === offer.currency ? old.amount : 0));
  const charge = opts.charge ?? recordOnly;
  const result = amount > 0
    ? await charge({ userId, subscriptionId: sub.id, description: `Add-on ${offer.id}`, amount, currency: offer.currency, idempotencyKey: `addon-${sub.id}-${offer.id}-${old?.id ?? 'new'}-${now.getTime()}` })
    : { status: 'paid' as const, ref: null };
  // 3. Record: the old one ends (if a concurrent replace ended it first, the new one still names it).
  return db.transaction().execute(async (trx) => {
    if (old) await trx.updateTable('subscription_addons').set({ removed_at: now }).where('id', '=', old.id).where('removed_at', 'is', null).execute();
    return trx
      .insertInto('subscription_addons')
      .values({
        subscription_id: sub.id,
        addon: offer.id,
        limits: JSON.stringify(offer.limits),
        amount,
        currency: offer.currency,
        old_addon_id: old?.id ?? null,
        payment_status: result.status,
        payment_ref: result.ref,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function removeAddon(db: Kysely<Database>, userId: number, subscriptionId: number, addonId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const sub = await ownedSubscription(trx, userId, subscriptionId, true);
    if (!(await canGetAddons(trx, sub))) throw new ApiError(422, Messages.addonsNotAllowed, 'addons_not_allowed');
    const res = await trx.updateTable('subscription_addons').set({ removed_at: now }).where('id', '=', addonId).where('subscription_id', '=', sub.id).where('removed_at', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new ApiError(404, Messages.notFound, 'not_found');
  });
}
