import type { AppContext } from '../../context';
import { PAYMENT_EVENT_JOB } from './events';
import type { ProviderEvent } from './provider';
import { failInvoice, invoiceIdOfReference, settleInvoice } from './service';
import { RENEW_JOB } from './renewal-lines';
import { renewSubscription } from './renewals';
import { finishCardSetupFromEvent } from './card-setup';

/**
 * The job that handles provider events (decision 0250): at least once, idempotent. A charge that
 * succeeded settles its invoice if the request did not (a request that died after the charge);
 * one that failed marks an open invoice failed; a refund marks a paid invoice refunded. An
 * invoice is only ever moved forward from `open`, so an event arriving late or twice changes nothing.
 */
export function registerPaymentJobs(ctx: AppContext): void {
  ctx.jobs.register<{ subscription_id: number }>(RENEW_JOB, async ({ subscription_id }) => {
    await renewSubscription(ctx, subscription_id);
  });
  ctx.jobs.register<{ provider: string; event_id: string }>(PAYMENT_EVENT_JOB, async ({ provider, event_id }) => {
    const row = await ctx.db.selectFrom('payment_events').selectAll().where('provider', '=', provider).where('event_id', '=', event_id).executeTakeFirst();
    if (!row || row.handled_at) return;
    const event = row.payload as unknown as ProviderEvent;
    if (event.type === 'card_setup.completed') await finishCardSetupFromEvent(ctx, provider, event);
    const invoiceId = invoiceIdOfReference(event.invoiceNumber);
    if (invoiceId !== null) {
      const invoice = await ctx.db.selectFrom('invoices').select(['id', 'status', 'provider']).where('id', '=', invoiceId).executeTakeFirst();
      if (invoice && invoice.provider === provider) {
        if (event.type === 'charge.succeeded') await settleInvoice(ctx.db, invoice.id, event.chargeId, ctx.now(), ctx.jobs);
        else if (event.type === 'charge.failed') await failInvoice(ctx.db, invoice.id, event.failure?.code ?? 'card_declined', event.failure?.message ?? '');
        else if (event.type === 'charge.refunded') await ctx.db.updateTable('invoices').set({ status: 'refunded' }).where('id', '=', invoice.id).where('status', '=', 'paid').execute();
      }
    }
    await ctx.db.updateTable('payment_events').set({ handled_at: ctx.now() }).where('provider', '=', provider).where('event_id', '=', event_id).execute();
  });
}
