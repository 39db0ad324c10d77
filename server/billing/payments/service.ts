import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { isInt4Id } from '../../http/int-ids';
import type { Database } from '../../db/types';
import type { AppContext } from '../../context';
import { ApiError, notFound } from '../../http/errors';
import { Messages } from '../../../schema/messages';
import { appendEvents, registerEventFloor } from '../../events/outbox';
import { ownedSubscriptions } from '../../workspaces/subscriptions';
import { isPaid, limitsOf, listPlans, pricesOf, type PlanRow } from '../plans';
import { offeredPlan } from '../subscriptions';
import { subscriptionState } from '../limits';
import { paymentProvider } from './registry';
import { PaymentDeclinedError, type PaymentSource } from './provider';
import { quote, type Interval, type InvoiceLine } from './proration';
import type { JobQueue } from '../../jobs/types';
import { consumeCancellationCoupon, pendingCancellationCoupon } from '../cancellation';
import { renewalLines, RENEW_JOB } from './renewal-lines';
import { addMethodBody, cardBody, purchaseBody, type InvoiceView, type NextInvoice, type PaymentMethodView, type PurchaseBody, type PurchaseQuote } from '../../../schema/payments';

/**
 * Buying plans (issue #18, decision 0250): payment methods, purchases with proration, invoices and
 * the next invoice. Cairn computes everything; the provider (registry.ts) keeps the customer and
 * its cards and moves the money. A purchase is three steps so that money never moves inside a
 * database transaction and nothing is applied twice:
 *   1. an `open` invoice with its lines and the change it makes (plan, price, period) is stored;
 *   2. the provider charges it (outside any transaction; the idempotency key is the invoice);
 *   3. `settleInvoice` applies the change, numbers the invoice, records the coupon and appends the
 *      `invoice.paid` domain event, all in one transaction, once (it only acts on an open invoice).
 * Step 3 runs from the request and again from the provider's charge.succeeded event (job runner):
 * whichever comes first settles, the other finds the invoice paid.
 */

type Db = Kysely<Database> | Transaction<Database>;
type InvoiceRow = Selectable<Database['invoices']>;
type MethodRow = Selectable<Database['payment_methods']>;

/** The bodies and the answers' shapes are shared with the app: schema/payments.ts. */
export { addMethodBody, cardBody, purchaseBody, type InvoiceView, type NextInvoice, type PaymentMethodView, type PurchaseBody, type PurchaseQuote };

/** What settling an invoice does to its subscription. */
interface Change {
  plan: string;
  version: number;
  limits: Record<string, unknown>;
  price_id: string;
  interval: Interval;
  amount: number;
  period_start: string;
  period_end: string | null;
  credit_after: number;
  payment_method_id: number | null;
  /** A renewal that took the subscription's retention offer (decision 0255): consumed when paid. */
  retention?: boolean;
}

export const methodView = (m: MethodRow): PaymentMethodView => ({
  id: m.id,
  provider: m.provider,
  brand: m.brand,
  last4: m.last4,
  exp_month: m.exp_month,
  exp_year: m.exp_year,
  created_at: new Date(m.created_at).toISOString(),
});

export function invoiceView(row: InvoiceRow): InvoiceView {
  const change = row.change as unknown as Partial<Change>;
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    subscription_id: row.subscription_id,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discount,
    credit_applied: row.credit_applied,
    total: row.total,
    lines: row.lines as unknown as InvoiceLine[],
    plan: change.plan ?? null,
    card: (row.card as { brand: string; last4: string } | null) ?? null,
    failure: row.failure_code ? { code: row.failure_code, message: row.failure_message ?? '' } : null,
    created_at: new Date(row.created_at).toISOString(),
    paid_at: row.paid_at ? new Date(row.paid_at).toISOString() : null,
    pdf_url: row.status === 'paid' || row.status === 'refunded' ? `/api/payment/invoices/${row.id}/pdf` : null,
  };
}

export const declined = (e: PaymentDeclinedError) => new ApiError(402, e.message, e.code);

/** The user's customer at the provider, made on first need. */
export async function customerOf(ctx: AppContext, userId: number): Promise<string> {
  const provider = paymentProvider(ctx);
  const found = await ctx.db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.key).executeTakeFirst();
  if (found) return found.customer_id;
  const user = await ctx.db.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirstOrThrow();
  const { customerId } = await provider.createCustomer({ userId, email: user.email, name: user.name });
  // Two first purchases at once: the first stored customer wins; the other provider customer stays unused.
  await ctx.db.insertInto('payment_customers').values({ user_id: userId, provider: provider.key, customer_id: customerId }).onConflict((oc) => oc.columns(['user_id', 'provider']).doNothing()).execute();
  const row = await ctx.db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.key).executeTakeFirstOrThrow();
  return row.customer_id;
}

export async function listPaymentMethods(ctx: AppContext, userId: number): Promise<PaymentMethodView[]> {
  const provider = paymentProvider(ctx);
  const rows = await ctx.db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('provider', '=', provider.key).orderBy('id', 'desc').execute();
  return rows.map(methodView);
}

export async function addPaymentMethod(ctx: AppContext, userId: number, source: PaymentSource): Promise<PaymentMethodView> {
  const provider = paymentProvider(ctx);
  const customerId = await customerOf(ctx, userId);
  let info;
  try {
    info = await provider.attachPaymentMethod(customerId, source);
  } catch (error) {
    if (error instanceof PaymentDeclinedError) throw declined(error);
    throw error;
  }
  const row = await ctx.db
    .insertInto('payment_methods')
    .values({ user_id: userId, provider: provider.key, provider_method_id: info.providerMethodId, brand: info.brand, last4: info.last4, exp_month: info.expMonth, exp_year: info.expYear })
    .returningAll()
    .executeTakeFirstOrThrow();
  return methodView(row);
}

export async function ownMethod(db: Db, userId: number, id: number): Promise<MethodRow | undefined> {
  if (!isInt4Id(id)) return undefined;
  return db.selectFrom('payment_methods').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function deletePaymentMethod(ctx: AppContext, userId: number, id: number): Promise<void> {
  const row = await ownMethod(ctx.db, userId, id);
  if (!row) throw notFound();
  const customerId = await customerOf(ctx, userId);
  await paymentProvider(ctx).detachPaymentMethod(customerId, row.provider_method_id);
  await ctx.db.deleteFrom('payment_methods').where('id', '=', row.id).execute();
}

const refuse = (message: string, type: string, field?: string) => new ApiError(422, message, type, field ? [`${field}: ${message}`] : undefined);

const compare = (a: PlanRow, b: PlanRow) => a.level - b.level || a.tier - b.tier;

/**
 * Buys a plan on the caller's subscription (the one named, else the first): a new purchase, an
 * upgrade, a downgrade or a change of interval, with the spec's rules (workspace.md §4): from a
 * trial (running or ended) or the free plan anything may be bought; from a paid plan, a higher
 * level or tier only when the plan is upgradable and the target is in the same version; a lower
 * one is a downgrade (prorated: the difference becomes credit). Answers the paid invoice; a
 * refused card answers 402 with the provider's reason and leaves the subscription as it was.
 */
/** A dry run ends the pricing transaction (rolled back) carrying its answer. */
class QuoteOnly extends Error {
  constructor(readonly quote: PurchaseQuote) {
    super('quote only');
  }
}

/**
 * The price of a purchase as `purchase` would charge it now — the same rules and refusals, with
 * no card needed and nothing stored (the pricing transaction is rolled back).
 */
export async function quotePurchase(ctx: AppContext, userId: number, body: Omit<PurchaseBody, 'card_id' | 'token'>, subscriptionId?: number): Promise<PurchaseQuote> {
  try {
    await purchase(ctx, userId, body, subscriptionId, { dryRun: true });
  } catch (error) {
    if (error instanceof QuoteOnly) return error.quote;
    throw error;
  }
  throw new Error('a dry run always ends with its quote');
}

export async function purchase(ctx: AppContext, userId: number, body: PurchaseBody, subscriptionId?: number, opts: { dryRun?: boolean } = {}): Promise<{ invoice: InvoiceView; subscriptionId: number }> {
  const provider = paymentProvider(ctx);
  const now = ctx.now();
  const plan = await offeredPlan(ctx.db, body.plan);
  const prices = pricesOf(plan.prices, plan.id).filter((p) => p.amount > 0);
  if (!isPaid(plan) || prices.length === 0) throw refuse(Messages.buyFreePlan, 'validation', 'plan');
  const price = body.price ? prices.find((p) => p.id === body.price) : prices[0];
  if (!price) throw refuse(`must be one of ${prices.map((p) => p.id).join(', ')}`, 'validation', 'price');

  // A card: the one named, a new one from a token, else the subscription's or the newest saved.
  let method: MethodRow | undefined;
  if (body.card_id !== undefined && body.card_id !== '') {
    method = await ownMethod(ctx.db, userId, Number(body.card_id));
    if (!method || method.provider !== provider.key) throw refuse('must be one of your cards', 'validation', 'card_id');
  } else if (body.token) {
    const added = await addPaymentMethod(ctx, userId, { token: body.token });
    method = await ownMethod(ctx.db, userId, added.id);
  }

  const prepared = await ctx.db.transaction().execute(async (trx) => {
    const owned = await ownedSubscriptions(trx, userId, now, { lock: true });
    const sub = subscriptionId === undefined ? owned[0] : owned.find((s) => s.id === subscriptionId);
    if (!sub) throw refuse('must be a subscription you own', 'validation', 'id');
    const pending = await trx.selectFrom('invoices').select('id').where('subscription_id', '=', sub.id).where('status', '=', 'open').where('created_at', '>', new Date(now.getTime() - 5 * 60_000)).executeTakeFirst();
    if (pending) throw new ApiError(409, Messages.paymentInProgress, 'payment_in_progress');
    const catalogue = await listPlans(trx, { includeArchived: true });
    const currentPlan = catalogue.find((p) => p.id === sub.deal);
    const paid = await trx.selectFrom('subscription_payments').selectAll().where('subscription_id', '=', sub.id).executeTakeFirst();
    const state = subscriptionState(sub, now);
    const fromTrial = state === 'trial' || state === 'trial_expired';
    const payingNow = paid && !fromTrial && (state === 'active' || state === 'cancelled') && currentPlan && isPaid(currentPlan);
    if (payingNow && currentPlan) {
      if (currentPlan.id === plan.id && paid.price_id === price.id && state === 'active') throw refuse(Messages.alreadyOnPlan, 'already_on_plan', 'plan');
      if (paid.price_interval === 'lifetime') throw refuse(Messages.planNotUpgradable, 'plan_not_upgradable', 'plan');
      if (paid.currency !== price.currency) throw refuse(Messages.currencyFixed, 'validation', 'price');
      const higher = compare(plan, currentPlan) > 0;
      if (higher) {
        const upgradable = currentPlan.is_upgradable && plan.version === currentPlan.version;
        if (!upgradable) throw refuse(Messages.planNotUpgradable, 'plan_not_upgradable', 'plan');
      } else if (plan.version !== currentPlan.version) {
        throw refuse(Messages.planNotUpgradable, 'plan_not_upgradable', 'plan');
      }
    } else if (!fromTrial && currentPlan && isPaid(currentPlan) && sub.deal !== plan.id && compare(plan, currentPlan) > 0) {
      // A paid plan that was never bought here (given by an operator): the upgrade rule applies.
      if (!currentPlan.is_upgradable || plan.version !== currentPlan.version) throw refuse(Messages.planNotUpgradable, 'plan_not_upgradable', 'plan');
    }

    let couponPercent: number | undefined;
    const couponCode = body.coupon?.trim() ? body.coupon.trim().toUpperCase() : undefined;
    if (couponCode) {
      const coupon = await trx.selectFrom('coupons').selectAll().where('code', '=', couponCode).where('active', '=', true).executeTakeFirst();
      if (!coupon) throw refuse(Messages.couponInvalid, 'coupon_invalid', 'coupon');
      const used = await trx.selectFrom('coupon_redemptions').select('code').where('code', '=', couponCode).where('user_id', '=', userId).executeTakeFirst();
      if (used) throw refuse(Messages.couponUsed, 'coupon_used', 'coupon');
      couponPercent = coupon.percent_off;
    }

    const q = quote({
      now,
      target: { plan: plan.id, planName: plan.name, amount: price.amount, interval: price.interval },
      current: payingNow && paid && currentPlan
        ? { planName: currentPlan.name, amount: paid.amount, interval: paid.price_interval, periodStart: new Date(paid.period_start), periodEnd: paid.period_end ? new Date(paid.period_end) : null, credit: paid.credit }
        : paid
          ? { planName: currentPlan?.name ?? sub.deal, amount: 0, interval: 'lifetime', periodStart: now, periodEnd: null, credit: paid.credit }
          : null,
      couponPercent,
      coupon: couponCode,
    });

    if (opts.dryRun) {
      const periodEnd = q.periodEnd ? q.periodEnd.toISOString() : null;
      throw new QuoteOnly({ subscription_id: sub.id, plan: plan.id, price: price.id, currency: price.currency, subtotal: q.subtotal, discount: q.discount, credit_applied: q.creditApplied, total: q.total, lines: q.lines, period_end: periodEnd });
    }
    if (!method && q.total > 0) {
      const fallback = paid?.payment_method_id ? await ownMethod(trx, userId, paid.payment_method_id) : undefined;
      method = fallback ?? (await trx.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('provider', '=', provider.key).orderBy('id', 'desc').executeTakeFirst());
      if (!method) throw refuse(Messages.cardRequired, 'card_required', 'card_id');
    }
    const change: Change = {
      plan: plan.id,
      version: plan.version,
      limits: limitsOf(plan.limits),
      price_id: price.id,
      interval: price.interval,
      amount: price.amount,
      period_start: q.periodStart.toISOString(),
      period_end: q.periodEnd ? q.periodEnd.toISOString() : null,
      credit_after: q.creditAfter,
      payment_method_id: method?.id ?? paid?.payment_method_id ?? null,
    };
    const invoice = await trx
      .insertInto('invoices')
      .values({
        user_id: userId,
        subscription_id: sub.id,
        status: 'open',
        provider: provider.key,
        currency: price.currency,
        subtotal: q.subtotal,
        discount: q.discount,
        credit_applied: q.creditApplied,
        total: q.total,
        lines: JSON.stringify(q.lines),
        change: JSON.stringify(change),
        coupon: couponCode ?? null,
        payment_method_id: method?.id ?? null,
        card: method ? JSON.stringify({ brand: method.brand, last4: method.last4 }) : null,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { invoice, subId: sub.id };
  });

  const { invoice } = prepared;
  let chargeId: string | null = null;
  if (invoice.total > 0) {
    try {
      const result = await provider.charge({
        customerId: await customerOf(ctx, userId),
        paymentMethodId: method!.provider_method_id,
        amount: invoice.total,
        currency: invoice.currency,
        invoiceNumber: invoiceReference(invoice.id),
        description: `Cairn ${plan.name}`,
        lines: (invoice.lines as unknown as InvoiceLine[]).map((l) => ({ description: l.description, amount: l.amount })),
        idempotencyKey: invoiceReference(invoice.id),
      });
      chargeId = result.chargeId;
    } catch (error) {
      if (error instanceof PaymentDeclinedError) {
        await failInvoice(ctx.db, invoice.id, error.code, error.message);
        throw declined(error);
      }
      await failInvoice(ctx.db, invoice.id, 'processing_error', Messages.cardProcessingError);
      throw error;
    }
  }
  const settled = await settleInvoice(ctx.db, invoice.id, chargeId, now, ctx.jobs);
  return { invoice: invoiceView(settled), subscriptionId: prepared.subId };
}

/** The reference a provider keeps for an invoice (its printed number is given when paid). */
export const invoiceReference = (id: number) => `invoice-${id}`;
export const invoiceIdOfReference = (ref: string | null) => {
  const m = ref ? /^invoice-(\d+)$/.exec(ref) : null;
  return m ? Number(m[1]) : null;
};

export async function failInvoice(db: Db, invoiceId: number, code: string, message: string): Promise<void> {
  await db.updateTable('invoices').set({ status: 'failed', failure_code: code, failure_message: message }).where('id', '=', invoiceId).where('status', '=', 'open').execute();
}

/**
 * Settles an open invoice once: the subscription takes the plan, its limits and no end date, the
 * price and period are stored, the invoice gets the next number, a coupon counts as used, and
 * `invoice.paid` is appended to the outbox — all in one transaction. An invoice no longer open
 * (settled already, failed) is answered as it is.
 */
export async function settleInvoice(db: Kysely<Database>, invoiceId: number, chargeId: string | null, now: Date, jobs?: JobQueue): Promise<InvoiceRow> {
  return db.transaction().execute(async (trx) => {
    const invoice = await trx.selectFrom('invoices').selectAll().where('id', '=', invoiceId).forUpdate().executeTakeFirstOrThrow();
    if (invoice.status !== 'open' || invoice.subscription_id === null) return invoice;
    const change = invoice.change as unknown as Change;
    await trx
      .updateTable('subscriptions')
      .set({ deal: change.plan, limits: JSON.stringify(change.limits), version: change.version, trial_ends_at: null, ends_at: null })
      .where('id', '=', invoice.subscription_id)
      .execute();
    const payment = {
      provider: invoice.provider,
      price_id: change.price_id,
      price_interval: change.interval,
      currency: invoice.currency,
      amount: change.amount,
      period_start: change.period_start,
      period_end: change.period_end,
      payment_method_id: change.payment_method_id,
      credit: change.credit_after,
      updated_at: now,
    };
    await trx
      .insertInto('subscription_payments')
      .values({ subscription_id: invoice.subscription_id, ...payment })
      .onConflict((oc) => oc.column('subscription_id').doUpdateSet(payment))
      .execute();
    const { rows } = await sql<{ n: string }>`select nextval('invoice_number_seq') as n`.execute(trx);
    const number = `INV-${String(rows[0]!.n).padStart(6, '0')}`;
    const paid = await trx
      .updateTable('invoices')
      .set({ status: 'paid', number, charge_id: chargeId ?? invoice.charge_id, paid_at: now })
      .where('id', '=', invoice.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (change.retention) await consumeCancellationCoupon(trx, invoice.subscription_id, now);
    // The renewal at the period's end (renewals.ts); a later change schedules its own, this one then finds nothing due.
    if (jobs && change.period_end) {
      await jobs.enqueue(RENEW_JOB, { subscription_id: invoice.subscription_id }, { key: `renew:${invoice.subscription_id}:${change.period_end}`, runAt: new Date(change.period_end), maxAttempts: 3, db: trx });
    }
    if (invoice.coupon) {
      await trx.insertInto('coupon_redemptions').values({ code: invoice.coupon, user_id: invoice.user_id, invoice_id: invoice.id }).onConflict((oc) => oc.columns(['code', 'user_id']).doNothing()).execute();
    }
    await registerEventFloor(trx);
    await appendEvents(
      trx,
      [
        {
          // Account-level: no workspace (domain_events.team_id is null; consumers see 0).
          team_id: null as unknown as number,
          board_id: null,
          type: 'invoice.paid',
          collection: null,
          record_id: String(invoice.id),
          item_id: null,
          actor_id: invoice.user_id,
          before: null,
          after: {
            invoice_id: invoice.id,
            number,
            user_id: invoice.user_id,
            subscription_id: invoice.subscription_id,
            amount: invoice.total,
            currency: invoice.currency,
            plan: change.plan,
            price_id: change.price_id,
            paid_at: now.toISOString(),
          },
        },
      ],
      now,
    );
    return paid;
  });
}

export async function listInvoices(db: Db, userId: number): Promise<InvoiceView[]> {
  const rows = await db.selectFrom('invoices').selectAll().where('user_id', '=', userId).where('status', '!=', 'open').orderBy('id', 'desc').execute();
  return rows.map(invoiceView);
}

/** One of the caller's invoices; another person's reads like an unknown one (404). */
export async function ownInvoice(db: Db, userId: number, id: number): Promise<InvoiceRow> {
  if (!isInt4Id(id)) throw notFound();
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * GET /api/payment/user/user/invoices/next: the renewal of the caller's first bought subscription
 * that renews (not lifetime, not cancelled, not ended): its date, the price for the next period,
 * less a credit; null when nothing renews.
 */
export async function nextInvoice(ctx: AppContext, userId: number): Promise<NextInvoice | null> {
  const now = ctx.now();
  const rows = await ctx.db
    .selectFrom('subscription_payments as p')
    .innerJoin('subscriptions as s', 's.id', 'p.subscription_id')
    .leftJoin('plans', 'plans.id', 's.deal')
    .select(['p.subscription_id', 'p.price_interval', 'p.currency', 'p.amount', 'p.period_end', 'p.credit', 's.ends_at', 's.trial_ends_at', 's.deal', 'plans.name as plan_name'])
    .where('s.user_id', '=', userId)
    .where('p.price_interval', '!=', 'lifetime')
    .orderBy('p.subscription_id')
    .execute();
  for (const row of rows) {
    if (!row.period_end || subscriptionState(row, now) !== 'active') continue;
    const offer = await pendingCancellationCoupon(ctx.db, row.subscription_id);
    const next = renewalLines({ planId: row.deal, planName: row.plan_name ?? row.deal, amount: row.amount, interval: row.price_interval, from: new Date(row.period_end), credit: row.credit, offer: offer ?? null });
    return { subscription_id: row.subscription_id, date: new Date(row.period_end).toISOString(), amount: next.total, currency: row.currency, lines: next.lines };
  }
  return null;
}
