import { api } from '../../api/client';
import type { BillingSubscription } from './billing-api';
import type { AddonOffer, AddonsAnswer, AddonView, CancelReason, CancellationView, LtdCodeView, RetentionOffer } from '../../../schema/billing';

/** Lifetime deals, add-ons and cancellation (server/billing/extra-routes.ts, decision 0255). */

/** The shapes are the server's own (schema/billing.ts); the app imports them as types only. */
export type LtdCode = LtdCodeView;
export type Addon = AddonView;
export type CancellationInfo = CancellationView;
export type { AddonOffer, CancelReason, RetentionOffer };

const enc = encodeURIComponent;

export const ExtrasApi = {
  ltdCode: async (code: string) => (await api.get<{ data: LtdCode }>(`/api/ltd-codes/${enc(code)}`)).data,
  redeem: async (code: string) => (await api.post<{ data: BillingSubscription }>(`/api/ltd-codes/${enc(code)}/redeem`)).data,
  addons: (subscriptionId: number) => api.get<AddonsAnswer>(`/api/subscriptions/${subscriptionId}/add-ons`),
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
