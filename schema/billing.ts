import { z } from 'zod';

/**
 * The billing wire shapes (decisions 0240, 0255), one definition for the server and the app:
 * plans, subscriptions as /profile/billing shows them, lifetime-deal codes, add-ons and the
 * cancel flow. The server validates its input with the `…Body` schemas and builds its answers as
 * the `…View` types; the answer schemas are what tests/server/wire-shapes.test.ts parses the real
 * answers with, so a field added, dropped or changed on one side fails there. The app imports the
 * types only (`import type`), so none of this zod reaches its bundle.
 * Amounts are minor units (cents); dates ISO strings.
 */

export const PRICE_INTERVALS = ['month', 'year', 'lifetime'] as const;
export type Interval = (typeof PRICE_INTERVALS)[number];

export const priceSchema = z.object({
  id: z.string().trim().min(1, 'is required').max(60).regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and dashes'),
  interval: z.enum(PRICE_INTERVALS),
  currency: z.string().trim().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code (USD)'),
  amount: z.number().int('must be whole minor units (cents)').min(0, 'must not be negative'),
});
export type PlanPrice = z.infer<typeof priceSchema>;

const count = z.number().int('must be a whole number').min(0, 'must not be negative');
/** workspaces, members, storage (GB), AutomationRunsLimit (runs a month), WhitelabelLimit, proViews (Pro-only views allowed). */
export const limitsSchema = z.object({
  workspaces: count,
  members: count,
  storage: count,
  AutomationRunsLimit: count,
  WhitelabelLimit: count,
  proViews: z.boolean(),
});
export type PlanLimits = z.infer<typeof limitsSchema>;

/** GET /api/plans: one offered plan. */
export const planViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number(),
  level: z.number(),
  tier: z.number(),
  prices: z.array(priceSchema),
  isUpgradable: z.boolean(),
  limits: limitsSchema,
});
export type PlanView = z.infer<typeof planViewSchema>;

/**
 * - trial: trial_ends_at is ahead;
 * - trial_expired: the trial ended and nothing was bought (read-only);
 * - active: no end date (the free plan, a running paid plan);
 * - cancelled: an end date ahead (running to its end, then read-only);
 * - expired: the end date has passed.
 */
export const SUBSCRIPTION_STATES = ['trial', 'trial_expired', 'active', 'cancelled', 'expired'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const trialInfoSchema = z.object({
  plan: z.string(),
  started_at: z.string(),
  extended_at: z.string().nullable(),
  days_left: z.number(),
  can_extend: z.boolean(),
});
export type TrialInfo = z.infer<typeof trialInfoSchema>;

/** A subscription as GET /api/subscription/all and every billing change answer it. */
export const billingSubscriptionSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  deal: z.string(),
  state: z.enum(SUBSCRIPTION_STATES),
  plan: planViewSchema.nullable(),
  /** Effective limits (BILLING=off: the top plan's; add-ons included). */
  limits: limitsSchema,
  /** storage in bytes; members and automation_runs: the fullest workspace on the subscription. */
  usage: z.object({ workspaces: z.number(), storage: z.number(), members: z.number(), automation_runs: z.number() }),
  trial_ends_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  on_trial: z.boolean(),
  active: z.boolean(),
  transient: z.literal(false),
  version: z.number(),
  trial: trialInfoSchema.nullable(),
  /** Whether POST /api/subscription {plan, trial: true} would start a trial on this subscription. */
  trial_eligible: z.boolean(),
});
export type BillingSubscriptionView = z.infer<typeof billingSubscriptionSchema>;

/**
 * POST /api/subscription[/{id}]: `{plan, trial: true}` starts a trial (on a subscription that had
 * one, extends it once); without `trial: true` it buys (the purchase body, schema/payments.ts).
 */
export const subscribeBody = z.object({
  plan: z.string().trim().min(1, 'is required').max(40).optional(),
  trial: z.boolean().optional(),
  token: z.string().max(500).optional(),
  price: z.string().max(60).optional(),
  card_id: z.union([z.string().max(200), z.number()]).optional(),
  coupon: z.string().max(60).optional(),
});
export type SubscribeInput = z.input<typeof subscribeBody>;

/** GET /api/ltd-codes/{code}. */
export const ltdCodeViewSchema = z.object({
  code: z.string(),
  plan: z.string(),
  plan_name: z.string(),
  redeemed: z.boolean(),
  /** Redeemed by the caller (so the screen can say "already activated on your account"). */
  redeemed_by_you: z.boolean(),
  subscription_id: z.number().nullable(),
});
export type LtdCodeView = z.infer<typeof ltdCodeViewSchema>;

/** The limits an add-on adds to (workspace.md §7). */
export const ADDABLE_LIMITS = ['workspaces', 'members', 'storage', 'AutomationRunsLimit'] as const;
export type AddableLimit = (typeof ADDABLE_LIMITS)[number];
const addonLimitsSchema = z.object({ workspaces: z.number(), members: z.number(), storage: z.number(), AutomationRunsLimit: z.number() }).partial();

export const addonOfferSchema = z.object({
  id: z.string(),
  /** What it adds to the subscription's limits. */
  limits: addonLimitsSchema,
  amount: z.number(),
  currency: z.string(),
});
export type AddonOffer = z.infer<typeof addonOfferSchema>;

/** `paid`: charged on the saved card; `recorded`: no payment provider for add-ons, nothing taken. */
export const ADDON_PAYMENT_STATUSES = ['paid', 'recorded'] as const;

export const addonViewSchema = z.object({
  id: z.number(),
  ltd_id: z.number(),
  old_addon_id: z.number().nullable(),
  addon: z.string(),
  limits: addonLimitsSchema,
  amount: z.number(),
  currency: z.string(),
  payment_status: z.enum(ADDON_PAYMENT_STATUSES),
  created_at: z.string(),
});
export type AddonView = z.infer<typeof addonViewSchema>;

/** GET /api/subscriptions/{id}/add-ons (the whole answer, not wrapped in `data` alone). */
export const addonsAnswerSchema = z.object({ data: z.array(addonViewSchema), available: z.array(addonOfferSchema), eligible: z.boolean() });
export type AddonsAnswer = z.infer<typeof addonsAnswerSchema>;

/** POST /api/subscriptions/{ltdId}/add-ons[/{oldAddonId}]. */
export const addonBody = z.object({ addon: z.string().trim().min(1, 'is required').max(60) });

export const CANCEL_REASONS = ['too_expensive', 'missing_features', 'not_using', 'switching', 'technical_issues', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const RETENTION_OFFERS = ['trial_days', 'free_month', 'year_discount'] as const;
export type RetentionOffer = (typeof RETENTION_OFFERS)[number];

/** POST /api/subscription/{id}/cancel. */
export const cancelBody = z.object({
  reasons: z.array(z.enum(CANCEL_REASONS, { error: 'must be one of the listed reasons' })).max(CANCEL_REASONS.length).default([]),
  comment: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
});
/** POST /api/subscription/{id}/cancellation-coupon. */
export const couponBody = z.object({ offer: z.enum(RETENTION_OFFERS, { error: `must be one of ${RETENTION_OFFERS.join(', ')}` }) });

/** GET /api/subscription/{id}/cancellation. */
export const cancellationViewSchema = z.object({
  subscription_id: z.number(),
  /** The latest cancellation still standing (not resumed), or null. */
  cancellation: z.object({ reasons: z.array(z.enum(CANCEL_REASONS)), comment: z.string().nullable(), cancelled_at: z.string(), ends_at: z.string().nullable() }).nullable(),
  can_cancel: z.boolean(),
  /** The offers this subscription could take now (empty once the user has used one). */
  offers: z.array(z.enum(RETENTION_OFFERS)),
  coupon_used: z.boolean(),
  coupon: z.object({ offer: z.enum(RETENTION_OFFERS), percent_off: z.number(), free_months: z.number(), consumed: z.boolean() }).nullable(),
  money_back_days: z.number(),
});
export type CancellationView = z.infer<typeof cancellationViewSchema>;
