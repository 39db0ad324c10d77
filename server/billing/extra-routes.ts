import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser, requireUser } from '../auth/guard';
import { ApiError, parseBody } from '../http/errors';
import { int4IdProblem, isInt4Id } from '../http/int-ids';
import { addonBody, addonView, buyAddon, listAddons, removeAddon, type AddonCharge } from './addons';
import { cancelBody, cancelSubscription, cancellationView, couponBody, resumeSubscription, takeCancellationCoupon } from './cancellation';
import { ltdCodeView, redeemLtdCode } from './ltd';
import { addonCharge } from './addon-charge';
import { billingView } from './subscriptions';

/**
 * Lifetime deals, add-ons and cancellation (issue #18, decision 0255; docs/api/billing.md):
 * - GET /api/ltd-codes/{code}: whether a code exists and is still unused (anyone: the screen shows it signed out);
 *   POST /api/ltd-codes/{code}/redeem: moves the caller's subscription onto the lifetime plan.
 * - GET /api/subscriptions/{id}/add-ons, POST /api/subscriptions/{ltdId}/add-ons[/{oldAddonId}] {addon},
 *   DELETE /api/subscriptions/{ltdId}/add-ons/{id} (workspace.md §7).
 * - GET /api/subscription/{id}/cancellation, POST …/cancel {reasons, comment}, POST …/resume,
 *   POST /api/subscription/{id}/cancellation-coupon {offer} (workspace.md §7).
 * All on the caller's own subscriptions; someone else's reads like an unknown one (422).
 */

export { addonBody, cancelBody, couponBody };
const tag = 'Billing';

const positiveId = (raw: string, name: string) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(422, `Validation Error: ${name}: must be a positive whole number`, 'validation', [`${name}: must be a positive whole number`]);
  // Above the database's integer range (N11): a 422 naming the field, not a failed query.
  if (!isInt4Id(id)) throw new ApiError(422, `Validation Error: ${int4IdProblem(name)}`, 'validation', [int4IdProblem(name)]);
  return id;
};
const codeParam = (raw: string) => {
  if (raw.length > 64) throw new ApiError(422, 'Validation Error: code: is too long', 'validation', ['code: is too long']);
  return raw;
};

export function billingExtraRoutes(app: FastifyInstance, ctx: AppContext, opts: { chargeAddon?: () => AddonCharge | undefined } = {}) {
  app.get<{ Params: { code: string } }>('/api/ltd-codes/:code', { config: { docs: { tag, summary: 'Whether a lifetime-deal code exists and is unused', auth: 'optional-bearer' } } }, async (request) => {
    const user = await optionalUser(ctx.db, request);
    return { data: await ltdCodeView(ctx.db, codeParam(request.params.code), user?.id ?? null) };
  });

  app.post<{ Params: { code: string } }>('/api/ltd-codes/:code/redeem', { config: { docs: { tag, summary: 'Redeem a lifetime-deal code: the caller’s subscription moves onto the lifetime plan' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const now = ctx.now();
    const sub = await redeemLtdCode(ctx.db, user.id, codeParam(request.params.code), now);
    return { data: await billingView(ctx, ctx.db, sub, now) };
  });

  app.get<{ Params: { id: string } }>('/api/subscriptions/:id/add-ons', { config: { docs: { tag, summary: 'A subscription’s add-ons and the add-ons on offer' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return listAddons(ctx.db, user.id, positiveId(request.params.id, 'id'));
  });

  const buy = async (userId: number, ltdId: string, body: unknown, oldAddonId?: string) => {
    const { addon } = parseBody(addonBody, body);
    const row = await buyAddon(ctx.db, userId, positiveId(ltdId, 'ltdId'), addon, ctx.now(), {
      oldAddonId: oldAddonId === undefined ? undefined : positiveId(oldAddonId, 'oldAddonId'),
      charge: opts.chargeAddon?.() ?? addonCharge(ctx),
    });
    return { data: addonView(row) };
  };
  app.post<{ Params: { ltdId: string } }>('/api/subscriptions/:ltdId/add-ons', { config: { docs: { tag, summary: 'Buy an add-on for a lifetime-deal subscription', body: addonBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return buy(user.id, request.params.ltdId, request.body);
  });
  app.post<{ Params: { ltdId: string; oldAddonId: string } }>('/api/subscriptions/:ltdId/add-ons/:oldAddonId', { config: { docs: { tag, summary: 'Replace an add-on with another (the charge is the difference)', body: addonBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return buy(user.id, request.params.ltdId, request.body, request.params.oldAddonId);
  });
  app.delete<{ Params: { ltdId: string; id: string } }>('/api/subscriptions/:ltdId/add-ons/:id', { config: { docs: { tag, summary: 'Remove an add-on (its capacity goes)', status: 204 } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    await removeAddon(ctx.db, user.id, positiveId(request.params.ltdId, 'ltdId'), positiveId(request.params.id, 'id'), ctx.now());
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/api/subscription/:id/cancellation', { config: { docs: { tag, summary: 'The standing cancellation, whether it can be cancelled, the retention offers left' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await cancellationView(ctx.db, user.id, positiveId(request.params.id, 'id'), ctx.now()) };
  });
  app.post<{ Params: { id: string } }>('/api/subscription/:id/cancel', { config: { docs: { tag, summary: 'Cancel: runs to the end of its period, then read-only', body: cancelBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(cancelBody, request.body ?? {});
    const now = ctx.now();
    const sub = await cancelSubscription(ctx.db, user.id, positiveId(request.params.id, 'id'), body, now);
    return { data: await billingView(ctx, ctx.db, sub, now) };
  });
  app.post<{ Params: { id: string } }>('/api/subscription/:id/resume', { config: { docs: { tag, summary: 'Withdraw a cancellation before the end' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const now = ctx.now();
    const sub = await resumeSubscription(ctx.db, user.id, positiveId(request.params.id, 'id'), now);
    return { data: await billingView(ctx, ctx.db, sub, now) };
  });
  app.post<{ Params: { id: string } }>('/api/subscription/:id/cancellation-coupon', { config: { docs: { tag, summary: 'Take a retention offer (once per user): 30 more trial days, a free month or 20 % off the next year', body: couponBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const { offer } = parseBody(couponBody, request.body);
    const now = ctx.now();
    const sub = await takeCancellationCoupon(ctx.db, user.id, positiveId(request.params.id, 'id'), offer, now);
    return { data: await billingView(ctx, ctx.db, sub, now) };
  });
}
