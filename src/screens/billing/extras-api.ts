import { api } from '../../api/client';
import type { BillingSubscription, PlanLimits } from './billing-api';

/** Lifetime deals, add-ons and cancellation (server/billing/extra-routes.ts, decision 0255). */

export interface LtdCode {
  code: string;
  plan: string;
  plan_name: string;
  redeemed: boolean;
  redeemed_by_you: boolean;
  subscription_id: number | null;
}

export interface AddonOffer {
  id: string;
  limits: Partial<Pick<PlanLimits, 'workspaces' | 'members' | 'storage' | 'AutomationRunsLimit'>>;
  amount: number;
  currency: string;
}

export interface Addon {
  id: number;
  ltd_id: number;
  old_addon_id: number | null;
  addon: string;
  limits: AddonOffer['limits'];
  amount: number;
  currency: string;
  payment_status: 'paid' | 'recorded' | string;
  created_at: string;
}

export type CancelReason = 'too_expensive' | 'missing_features' | 'not_using' | 'switching' | 'technical_issues' | 'other';
export type RetentionOffer = 'trial_days' | 'free_month' | 'year_discount';

export interface CancellationInfo {
  subscription_id: number;
  cancellation: { reasons: CancelReason[]; comment: string | null; cancelled_at: string; ends_at: string | null } | null;
  can_cancel: boolean;
  offers: RetentionOffer[];
  coupon_used: boolean;
  coupon: { offer: RetentionOffer; percent_off: number; free_months: number; consumed: boolean } | null;
  money_back_days: number;
}

const enc = encodeURIComponent;

export const ExtrasApi = {
  ltdCode: async (code: string) => (await api.get<{ data: LtdCode }>(`/api/ltd-codes/${enc(code)}`)).data,
  redeem: async (code: string) => (await api.post<{ data: BillingSubscription }>(`/api/ltd-codes/${enc(code)}/redeem`)).data,
  addons: (subscriptionId: number) => api.get<{ data: Addon[]; available: AddonOffer[]; eligible: boolean }>(`/api/subscriptions/${subscriptionId}/add-ons`),
  buyAddon: async (subscriptionId: number, addon: string, oldAddonId?: number) =>
    (await api.post<{ data: Addon }>(`/api/subscriptions/${subscriptionId}/add-ons${oldAddonId ? `/${oldAddonId}` : ''}`, { addon })).data,
  removeAddon: (subscriptionId: number, id: number) => api.delete<void>(`/api/subscriptions/${subscriptionId}/add-ons/${id}`),
  cancellation: async (subscriptionId: number) => (await api.get<{ data: CancellationInfo }>(`/api/subscription/${subscriptionId}/cancellation`)).data,
  cancel: async (subscriptionId: number, reasons: CancelReason[], comment: string) =>
    (await api.post<{ data: BillingSubscription }>(`/api/subscription/${subscriptionId}/cancel`, { reasons, comment: comment.trim() || undefined })).data,
  resume: async (subscriptionId: number) => (await api.post<{ data: BillingSubscription }>(`/api/subscription/${subscriptionId}/resume`)).data,
  takeOffer: async (subscriptionId: number, offer: RetentionOffer) =>
    (await api.post<{ data: BillingSubscription }>(`/api/subscription/${subscriptionId}/cancellation-coupon`, { offer })).data,
};
