import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser, requireUser } from '../auth/guard';
import { ApiError, parseBody } from '../http/errors';
import { isInt4Id } from '../http/int-ids';
import { Messages } from '../../schema/messages';
import { listPlans, planView } from './plans';
import { billingView, billingViews, extendTrial, startTrial } from './subscriptions';
import { buy } from './payments/buy';
import { subscribeBody } from '../../schema/billing';

/**
 * The billing API (issue #18 parts 2–3, decision 0240):
 * - GET /api/plans: the offered plans, public (the pricing page is seen signed out too).
 * - GET /api/subscription/all: the caller's subscriptions with state, plan, effective limits,
 *   usage and trial; anonymous visitors get [] (like GET /api/subscription).
 * - POST /api/subscription[/{id}] {plan, trial: true}: start a 14-day trial; on a subscription
 *   that had one, extend it once by 30 days. Without `trial: true` it buys, upgrades or
 *   downgrades (token, price, card_id, coupon): server/billing/payments/buy.ts, decision 0250.
 */

export const BILLING_OFF_MESSAGE = 'Billing is off on this server: every workspace has the top plan.';

/** The body of POST /api/subscription[/{id}] is shared with the app: schema/billing.ts. */
export { subscribeBody };

const idParam = (raw: string) => {
  const id = Number(raw);
  if (!isInt4Id(id)) throw new ApiError(422, 'Validation Error: id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
  return id;
};

export function billingRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/plans', async () => {
    const catalogue = await listPlans(ctx.db);
    return { data: catalogue.map((plan) => planView(plan, catalogue)) };
  });

  app.get('/api/subscription/all', async (request) => {
    const user = await optionalUser(ctx.db, request);
    if (!user) return { data: [] };
    return { data: await billingViews(ctx, user.id, ctx.now()) };
  });

  const subscribe = async (userId: number, rawBody: unknown, subscriptionId?: number) => {
    const body = parseBody(subscribeBody, rawBody);
    if (!ctx.config.billing) throw new ApiError(422, BILLING_OFF_MESSAGE, 'billing_off');
    if (body.trial !== true) return buy(ctx, userId, body, subscriptionId); // payments (decision 0250)
    const now = ctx.now();
    let sub;
    if (subscriptionId !== undefined) {
      // Someone else's subscription reads like an unknown one (it is not named to the caller).
      const owned = await ctx.db.selectFrom('subscriptions').select('id').where('id', '=', subscriptionId).where('user_id', '=', userId).executeTakeFirst();
      if (!owned) throw new ApiError(422, 'Validation Error: id: must be a subscription you own', 'validation', ['id: must be a subscription you own']);
      const trial = await ctx.db.selectFrom('subscription_trials').select('plan').where('subscription_id', '=', subscriptionId).executeTakeFirst();
      if (trial) sub = await extendTrial(ctx.db, userId, subscriptionId, now);
    }
    if (!sub) {
      if (!body.plan) throw new ApiError(422, 'Validation Error: plan: is required', 'validation', ['plan: is required']);
      sub = await startTrial(ctx.db, userId, body.plan, now, subscriptionId);
    }
    return { data: await billingView(ctx, ctx.db, sub, now) };
  };

  app.post('/api/subscription', async (request) => {
    const user = await requireUser(ctx.db, request);
    return subscribe(user.id, request.body);
  });

  app.post<{ Params: { id: string } }>('/api/subscription/:id', async (request) => {
    const user = await requireUser(ctx.db, request);
    return subscribe(user.id, request.body, idParam(request.params.id));
  });
}
