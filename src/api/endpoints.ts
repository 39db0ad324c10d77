import { api, request } from './client';

/** The non-synced API calls the shell makes, in one place so paths are easy to follow. */

export interface Profile {
  id: number;
  name: string;
  email: string;
  photo_url: string | null;
  guest?: boolean;
  locale: string;
  timezone: string | null;
  start_of_week: number | null;
  theme: number;
  email_verified?: boolean;
  email_verified_at?: string | null;
  two_factor_enabled?: boolean;
  preferences?: Record<string, unknown>;
}

export interface Workspace {
  id: number;
  name: string;
  owner_id: number;
  user_role?: string;
  subscription_id?: number | null;
  member_count?: number;
  photo_url?: string | null;
  whitelabel_settings?: { link?: string | null } | null;
  domain?: string | null;
  /** Why the workspace is read-only (its subscription ended; decision 0360), or null. */
  read_only?: 'trial_expired' | 'expired' | null;
}

export interface Member {
  id: number;
  name: string;
  email: string;
  photo_url?: string | null;
  guest?: boolean;
  verified?: boolean;
  pending?: boolean;
  pivot: { role: string; verified?: boolean };
}

export interface LoginBody {
  email: string;
  password: string;
  totp?: string;
  recoveryCode?: string;
  intended?: string;
}

/** Lists arrive either bare or as {data: [...]}; screens want the array. */
export function listOf<T>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  const data = (value as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as T[]) : [];
}

/** Single records arrive bare or as {data: record}. */
export function recordOf<T>(value: unknown): T {
  const data = (value as { data?: unknown } | null)?.data;
  return (data && typeof data === 'object' && !Array.isArray(data) ? data : value) as T;
}

export const Accounts = {
  login: (body: LoginBody) => request<Record<string, unknown>>('POST', '/api/auth/login', body, { auth: false }),
  register: (body: { email: string; name: string; password: string; locale?: string; invitation?: string; referral?: string; intended?: string }) =>
    request<Record<string, unknown>>('POST', '/api/auth/register', body, { auth: false }),
  logout: () => request<{ redirect?: string | null } | null>('POST', '/api/auth/logout', {}),
  forgotPassword: (email: string) => request('POST', '/api/auth/forgot-password', { email }, { auth: false }),
  resetPassword: (body: { token: string; email: string; password: string }) => request('POST', '/api/auth/reset-password', body, { auth: false }),
  verifyEmail: (token: string) => request('POST', '/api/auth/verify-email', { token }, { auth: false }),
  resendVerification: () => api.post('/api/auth/verify-email/resend'),
  reauthenticate: (password: string) => api.post('/api/auth/reauthenticate', { password }),
  me: async () => recordOf<Profile>(await api.get('/api/me')),
  updateMe: async (patch: Partial<Profile>) => recordOf<Profile>(await api.put('/api/me', patch)),
  uploadPhoto: async (file: File) => {
    const form = new FormData();
    form.append('photo', file);
    return recordOf<Profile>(await request('POST', '/api/me/photo', form));
  },
  deletePhoto: async () => recordOf<Profile>(await api.delete('/api/me/photo')),
  twoFactorStatus: () => api.get<{ enabled: boolean; pending_confirmation?: boolean; recovery_codes_left?: number }>('/api/me/two-factor'),
  twoFactorStart: () => api.post<{ secret: string; otpauth_url: string; qr_code: string }>('/api/me/two-factor'),
  twoFactorConfirm: (code: string) => api.post<{ recovery_codes: string[] }>('/api/me/two-factor/confirm', { code }),
  twoFactorDisable: () => api.delete('/api/me/two-factor'),
  regenerateRecoveryCodes: () => api.post<{ recovery_codes: string[] }>('/api/me/two-factor/recovery-codes'),
};

export const Workspaces = {
  mine: async () => listOf<Workspace>(await api.get('/api/me/workspaces')),
  get: async (id: number) => recordOf<Workspace>(await api.get(`/api/teams/${id}`)),
  create: async (name: string) => recordOf<Workspace>(await api.post('/api/teams', { name })),
  update: async (id: number, patch: { name: string }) => recordOf<Workspace>(await api.put(`/api/teams/${id}`, patch)),
  uploadPhoto: async (id: number, file: File) => {
    const form = new FormData();
    form.append('photo', file);
    return recordOf<Workspace>(await request('POST', `/api/teams/${id}/photo`, form));
  },
  deletePhoto: (id: number) => api.delete(`/api/teams/${id}/photo`),
  members: async (id: number) => listOf<Member>(await api.get(`/api/teams/${id}/members`)),
  /** Invited people who have not joined yet (pivot.verified false). */
  invitations: async (id: number) => listOf<Member>(await api.get(`/api/teams/${id}/members/invitations`)),
  invite: (id: number, invitations: { email: string; role: string }[]) => api.post<{ users?: Member[] }>(`/api/teams/${id}/members`, { invitations }),
  changeRole: (id: number, memberId: number, role: string) => api.put(`/api/teams/${id}/members/${memberId}`, { role }),
  removeMember: (id: number, memberId: number) => api.delete(`/api/teams/${id}/members/${memberId}`),
  resendInvitation: (id: number, userId: number) => api.post(`/api/teams/${id}/members/resend`, { user_id: userId }),
  leave: (id: number) => api.delete(`/api/teams/${id}/leave`),
  subscriptions: () => api.get<unknown>('/api/subscription'),
};

export const Notifications = {
  markRead: (body: { notification_ids: string[] }) => api.put('/api/notifications/read', body),
};

export const Log = {
  event: (body: { name: string; properties: Record<string, unknown> }) => api.put('/api/log', body),
};

export const AppVars = {
  get: () => request<Record<string, unknown>>('GET', '/api/app-vars', undefined, { auth: false }),
};
