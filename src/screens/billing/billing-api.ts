import { api } from '../../api/client';

/** The billing calls of /profile/billing (server/billing/routes.ts, decision 0240). */

export interface PlanPrice {
  id: string;
  interval: 'month' | 'year' | 'lifetime';
  currency: string;
  /** Minor units (cents). */
  amount: number;
}

export interface PlanLimits {
  workspaces: number;
  members: number;
  /** GB */
  storage: number;
  AutomationRunsLimit: number;
  WhitelabelLimit: number;
  proViews: boolean;
}

export interface Plan {
  id: string;
  name: string;
  version: number;
  level: number;
  tier: number;
  prices: PlanPrice[];
  isUpgradable: boolean;
  limits: PlanLimits;
}

export type SubscriptionState = 'trial' | 'trial_expired' | 'active' | 'cancelled' | 'expired';

export interface BillingSubscription {
  id: number;
  deal: string;
  state: SubscriptionState;
  plan: Plan | null;
  limits: PlanLimits;
  /** storage in bytes; members and automation_runs: the fullest workspace on the subscription. */
  usage: { workspaces: number; storage: number; members: number; automation_runs: number };
  trial_ends_at: string | null;
  ends_at: string | null;
  trial: { plan: string; started_at: string; extended_at: string | null; days_left: number; can_extend: boolean } | null;
  trial_eligible: boolean;
}

export const BillingApi = {
  plans: async () => (await api.get<{ data: Plan[] }>('/api/plans')).data,
  subscriptions: async () => (await api.get<{ data: BillingSubscription[] }>('/api/subscription/all')).data,
  startTrial: async (plan: string, subscriptionId?: number) =>
    (await api.post<{ data: BillingSubscription }>(subscriptionId ? `/api/subscription/${subscriptionId}` : '/api/subscription', { plan, trial: true })).data,
  extendTrial: async (subscriptionId: number) => (await api.post<{ data: BillingSubscription }>(`/api/subscription/${subscriptionId}`, { trial: true })).data,
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
