import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { isActive, isOnTrial } from './subscriptions';
import { effectiveLimits } from '../billing/limits';
import { parseTeamId, requireMemberAccess } from './access';

/**
 * GET /api/{teamId}/features (workspace.md §7, §10: "feature flags load per workspace from the
 * features call") → {data: {plan, on_trial, active, flags}} for members. The flags follow from the
 * workspace's subscription's effective limits (server/billing/limits.ts: proViews, automation
 * runs, white label).
 * The client reads them to grey out what the plan does not include, never to hide a screen.
 */

export interface WorkspaceFeatures {
  /** The subscription's plan id (free, pro, business), or null when the workspace has none. */
  plan: string | null;
  on_trial: boolean;
  active: boolean;
  flags: Record<string, boolean>;
}

export function featuresRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { teamId: string } }>('/api/:teamId/features', async (request) => {
    const user = await requireUser(ctx.db, request);
    const { team } = await requireMemberAccess(ctx, user, parseTeamId(request.params.teamId));
    return { data: await featuresOf(ctx, team.subscription_id ?? null) };
  });
}

export async function featuresOf(ctx: AppContext, subscriptionId: number | null): Promise<WorkspaceFeatures> {
  const sub = subscriptionId === null ? undefined : await ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirst();
  const plan = sub ? await ctx.db.selectFrom('plans').select(['id', 'level']).where('id', '=', sub.deal).executeTakeFirst() : undefined;
  const now = ctx.now();
  const active = sub ? isActive(sub, now) : false;
  const onTrial = sub ? isOnTrial(sub, now) : false;
  // The effective limits (decision 0260): BILLING=off gives the top plan's, an ended subscription
  // the free plan's, add-ons add to them; a workspace on no subscription is not under a plan.
  const limits = sub || !ctx.config.billing ? await effectiveLimits(ctx, ctx.db, sub ?? null, now) : null;
  return {
    plan: plan?.id ?? null,
    on_trial: onTrial,
    active,
    flags: {
      pro_views: limits ? limits.proViews : true,
      automations: limits ? limits.AutomationRunsLimit > 0 : true,
      white_label: limits ? limits.WhitelabelLimit > 0 : false,
      time_tracking: true,
      webhooks: true,
    },
  };
}
