import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { ProviderEvent } from './provider';

/**
 * Provider events (decision 0250): recorded once per (provider, event id) in payment_events and
 * handled by the job `payments.event` (server/billing/payments/jobs.ts), never in a route handler.
 * The local provider records its own events here; a provider with webhooks verifies the request
 * (`parseWebhook`) and records the event here from its webhook route. A repeated delivery finds
 * the row and enqueues nothing (idempotency).
 */

export const PAYMENT_EVENT_JOB = 'payments.event';

export async function recordProviderEvent(ctx: Pick<AppContext, 'db' | 'jobs'>, provider: string, event: ProviderEvent): Promise<boolean> {
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ event_id: string }>`
      insert into payment_events (provider, event_id, type, created, payload)
      values (${provider}, ${event.id}, ${event.type}, ${event.created}, ${JSON.stringify(event)}::jsonb)
      on conflict (provider, event_id) do nothing
      returning event_id`.execute(trx);
    if (rows.length === 0) return false;
    await ctx.jobs.enqueue(PAYMENT_EVENT_JOB, { provider, event_id: event.id }, { key: `${provider}:${event.id}`, db: trx });
    return true;
  });
  if (recorded) ctx.jobs.kick();
  return recorded;
}
