import { api } from '../../api/client';
import type { ReferralInviteAnswer, ReferralView } from '../../../schema/referral';

/** The referral calls of /profile/referral (server/referral/routes.ts, decision 0260). */

/** The shapes are the server's own (schema/referral.ts); the app imports them as types only. */
export type { ReferralView };

export const ReferralApi = {
  get: async () => (await api.get<{ data: ReferralView }>('/api/referral')).data,
  setCode: async (code: string) => (await api.put<{ data: ReferralView }>('/api/referral', { code })).data,
  invite: async (emails: string) => (await api.post<{ data: ReferralInviteAnswer }>('/api/referral/invite', { emails })).data,
};
