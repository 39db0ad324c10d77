import { api } from '../../api/client';

/** The referral calls of /profile/referral (server/referral/routes.ts, decision 0260). */

export interface ReferralView {
  code: string;
  link: string;
  /** The referrer's share of each paid invoice (0.2). */
  rate: number;
  signups: number;
  invitations: { email: string; sent_at: string; times: number; joined: boolean }[];
  /** Minor units (cents) per currency. */
  earnings: { currency: string; amount: number }[];
  credits: { invoice_id: string; amount: number; invoice_amount: number; currency: string; created_at: string }[];
}

export const ReferralApi = {
  get: async () => (await api.get<{ data: ReferralView }>('/api/referral')).data,
  setCode: async (code: string) => (await api.put<{ data: ReferralView }>('/api/referral', { code })).data,
  invite: async (emails: string) => (await api.post<{ data: { sent: string[]; skipped: { email: string; reason: 'has_account' | 'own_address' }[] } }>('/api/referral/invite', { emails })).data,
};
