import { api } from '../../api/client';
import type { BillingSubscriptionView, PlanLimits, PlanPrice, PlanView, SubscribeInput, SubscriptionState } from '../../../schema/billing';

/** The billing calls of /profile/billing (server/billing/routes.ts, decision 0240). */

/** The shapes are the server's own (schema/billing.ts); the app imports them as types only. */
export type Plan = PlanView;
export type BillingSubscription = BillingSubscriptionView;
export type { PlanLimits, PlanPrice, SubscriptionState };

export const BillingApi = {
  plans: async () => (await api.get<{ data: Plan[] }>('/api/plans')).data,
  subscriptions: async () => (await api.get<{ data: BillingSubscription[] }>('/api/subscription/all')).data,
  startTrial: async (plan: string, subscriptionId?: number) =>
    (await api.post<{ data: BillingSubscription }>(subscriptionId ? `/api/subscription/${subscriptionId}` : '/api/subscription', { plan, trial: true } satisfies SubscribeInput)).data,
  extendTrial: async (subscriptionId: number) => (await api.post<{ data: BillingSubscription }>(`/api/subscription/${subscriptionId}`, { trial: true } satisfies SubscribeInput)).data,
};

/** Share of a limit used, 0..1 (a zero limit with any use counts as full). */
export function usageRate(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 1 : 0;
  return Math.min(1, used / limit);
}

/** workspace.md §4, §9: warning from 80 %, full at 100 %. */
export function usageLevel(used: number, limit: number): 'ok' | 'warning' | 'full' {
  const rate = limit <= 0 ? (used > 0 ? 1 : 0) : used / limit;
  return rate >= 1 ? 'full' : rate >= 0.8 ? 'warning' : 'ok';
}
