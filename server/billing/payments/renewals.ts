import type { AppContext } from '../../context';
import { Messages } from '../../../schema/messages';
import { getPlan } from '../plans';
import { pendingCancellationCoupon } from '../cancellation';
import { PaymentDeclinedError } from './provider';
import { paymentProvider } from './registry';
import { renewalLines } from './renewal-lines';
import { customerOf, failInvoice, invoiceReference, ownMethod, settleInvoice } from './service';
import type { InvoiceLine } from './proration';

export type RenewalOutcome = 'renewed' | 'not_due' | 'declined' | 'no_card';

/**
 * Renews a bought subscription at the end of its period (decision 0250), run by the job
 * `payments.renew` that settling an invoice schedules for the period's end. Nothing happens when
 * the period has moved since (a later purchase scheduled its own renewal), the subscription was
 * cancelled (it ends; decision 0255), it is a lifetime deal, or another provider holds it. The
 * next period is invoiced at the stored price, less a retention offer waiting for it and a credit,
 * charged to the subscription's card (else the newest saved one) and settled like a purchase. A
 * declined card or no card ends the subscription at the period's end: it is `expired` (the free
 * plan's limits) until a plan is bought again.
 */
export async function renewSubscription(ctx: AppContext, subscriptionId: number): Promise<RenewalOutcome> {
  const now = ctx.now();
  const provider = paymentProvider(ctx);
  const prepared = await ctx.db.transaction().execute(async (trx) => {
    const sub = await trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).forUpdate().executeTakeFirst();
    const paid = await trx.selectFrom('subscription_payments').selectAll().where('subscription_id', '=', subscriptionId).executeTakeFirst();
    if (!sub || !paid || paid.price_interval === 'lifetime' || !paid.period_end || paid.provider !== provider.key) return null;
    if (new Date(paid.period_end).getTime() > now.getTime() || sub.ends_at !== null || sub.trial_ends_at !== null) return null;
    const open = await trx.selectFrom('invoices').select('id').where('subscription_id', '=', sub.id).where('status', '=', 'open').executeTakeFirst();
    if (open) return null;
    const plan = await getPlan(trx, sub.deal);
    const offer = await pendingCancellationCoupon(trx, sub.id);
    const from = new Date(paid.period_end);
    const r = renewalLines({ planId: sub.deal, planName: plan?.name ?? sub.deal, amount: paid.amount, interval: paid.price_interval, from, credit: paid.credit, offer: offer ?? null });
    const method =
      (paid.payment_method_id ? await ownMethod(trx, sub.user_id, paid.payment_method_id) : undefined) ??
      (await trx.selectFrom('payment_methods').selectAll().where('user_id', '=', sub.user_id).where('provider', '=', provider.key).orderBy('id', 'desc').executeTakeFirst());
    if (!method && r.total > 0) {
      await trx.updateTable('subscriptions').set({ ends_at: from }).where('id', '=', sub.id).execute();
      return 'no_card' as const;
    }
    const invoice = await trx
      .insertInto('invoices')
      .values({
        user_id: sub.user_id,
        subscription_id: sub.id,
        status: 'open',
        provider: provider.key,
        currency: paid.currency,
        subtotal: r.subtotal,
        discount: r.discount,
        credit_applied: r.creditApplied,
        total: r.total,
        lines: JSON.stringify(r.lines),
        change: JSON.stringify({
          plan: sub.deal,
          version: sub.version,
          limits: sub.limits,
          price_id: paid.price_id,
          interval: paid.price_interval,
          amount: paid.amount,
          period_start: from.toISOString(),
          period_end: r.to ? r.to.toISOString() : null,
          credit_after: r.creditAfter,
          payment_method_id: method?.id ?? null,
          retention: r.usesOffer,
        }),
        coupon: null,
        payment_method_id: method?.id ?? null,
        card: method ? JSON.stringify({ brand: method.brand, last4: method.last4 }) : null,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { invoice, method, from, userId: sub.user_id, planName: plan?.name ?? sub.deal };
  });
  if (prepared === null) return 'not_due';
  if (prepared === 'no_card') return 'no_card';
  const { invoice, method, from } = prepared;
  let chargeId: string | null = null;
  if (invoice.total > 0 && method) {
    try {
      const result = await provider.charge({
        customerId: await customerOf(ctx, prepared.userId),
        paymentMethodId: method.provider_method_id,
        amount: invoice.total,
        currency: invoice.currency,
        invoiceNumber: invoiceReference(invoice.id),
        description: `Cairn ${prepared.planName}`,
        lines: (invoice.lines as unknown as InvoiceLine[]).map((l) => ({ description: l.description, amount: l.amount })),
        idempotencyKey: invoiceReference(invoice.id),
      });
      chargeId = result.chargeId;
    } catch (error) {
      if (!(error instanceof PaymentDeclinedError)) {
        // Not a refusal (the provider unreachable): the job tries again with a new invoice.
        await failInvoice(ctx.db, invoice.id, 'processing_error', Messages.cardProcessingError);
        throw error;
      }
      await failInvoice(ctx.db, invoice.id, error.code, error.message);
      await ctx.db.updateTable('subscriptions').set({ ends_at: from }).where('id', '=', subscriptionId).where('ends_at', 'is', null).execute();
      return 'declined';
    }
  }
  await settleInvoice(ctx.db, invoice.id, chargeId, ctx.now(), ctx.jobs);
  return 'renewed';
}
