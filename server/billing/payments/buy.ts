import type { AppContext } from '../../context';
import { parseBody } from '../../http/errors';
import { billingView } from '../subscriptions';
import { purchase, purchaseBody, type InvoiceView } from './service';
import type { BillingSubscriptionView } from '../subscriptions';

/**
 * POST /api/subscription[/{id}] without `trial: true` (decision 0250): buys, upgrades or
 * downgrades. Answers the subscription as GET /api/subscription/all shows it and the paid invoice.
 */
export async function buy(ctx: AppContext, userId: number, rawBody: unknown, subscriptionId?: number): Promise<{ data: BillingSubscriptionView; invoice: InvoiceView }> {
  const body = parseBody(purchaseBody, rawBody);
  const { invoice, subscriptionId: id } = await purchase(ctx, userId, body, subscriptionId);
  const sub = await ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { data: await billingView(ctx, ctx.db, sub, ctx.now()), invoice };
}
