import { api, request } from './client';
import type { OidcInput, SamlInput, SsoDiscovery, SsoLinks, SsoSaveInput, SsoStartAnswer, SsoStartInput, SsoView } from '../../schema/sso';

/** Single sign-on: the owner's settings of a workspace and the OpenID Connect sign-in (decision 0270). */
/** The shapes are the server's own (schema/sso.ts); the app imports them as types only. */
export type SsoSettings = SsoView;
export type DiscoveryResult = SsoDiscovery;
export type { OidcInput, SamlInput };

export const Sso = {
  get: async (teamId: number) => (await api.get<{ data: SsoSettings }>(`/api/${teamId}/sso`)).data,
  save: async (teamId: number, body: SsoSaveInput) => (await api.put<{ data: SsoSettings }>(`/api/${teamId}/sso`, body)).data,
  remove: async (teamId: number) => (await api.delete<{ data: SsoSettings }>(`/api/${teamId}/sso`)).data,
  test: async (teamId: number, issuer?: string) => (await api.post<{ data: DiscoveryResult }>(`/api/${teamId}/sso/test`, issuer ? { issuer } : {})).data,
  start: async (body: SsoStartInput) =>
    (await request<{ data: SsoStartAnswer }>('POST', '/api/auth/sso/start', body, { auth: false })).data,
  callback: (params: Record<string, string>) => request<Record<string, unknown>>('POST', '/api/auth/sso/callback', { params }, { auth: false }),
  /** Checks the allowed domains' DNS TXT records; answers the settings and why each unproven domain is not. */
  verify: async (teamId: number) => api.post<{ data: SsoSettings; problems: Record<string, string> }>(`/api/${teamId}/sso/verify`, {}),
  /** The code of an account with two-factor on, after the provider's sign-in (same browser cookie). */
  secondFactor: (body: { totp?: string; recoveryCode?: string }) => request<Record<string, unknown>>('POST', '/api/auth/sso/second-factor', body, { auth: false }),
  links: async () => (await api.get<{ data: SsoLinks }>('/api/me/sso-links')).data,
  /** Starts linking the signed-in account to a workspace's provider: answers the provider's URL. */
  link: async (teamId: number) => (await api.post<{ data: SsoStartAnswer }>('/api/me/sso-links/start', { team_id: teamId })).data,
  unlink: async (id: number) => api.delete(`/api/me/sso-links/${id}`),
};
