import { api, request } from './client';

/** Single sign-on: the owner's settings of a workspace and the OpenID Connect sign-in (decision 0270). */
export interface SsoSettings {
  team_id: number;
  redirect_uri: string;
  sign_in_url: string;
  oidc: { issuer: string; client_id: string; has_client_secret: boolean; enabled: boolean; enforce: boolean; allowed_domains: string[] } | null;
  saml: { entity_id: string; sso_url: string; certificate_subject: string | null; certificate_valid_to: string | null; active: false } | null;
  updated_at: string | null;
}

export interface OidcInput {
  issuer: string;
  client_id: string;
  client_secret?: string;
  enabled: boolean;
  enforce: boolean;
  allowed_domains: string[];
}

export interface SamlInput {
  entity_id: string;
  sso_url: string;
  certificate: string;
}

export interface DiscoveryResult {
  issuer: string;
  authorization_endpoint: string | null;
  token_endpoint: string | null;
  userinfo_endpoint: string | null;
  jwks_uri: string | null;
  scopes_supported: string[];
  pkce_s256: boolean;
}

export const Sso = {
  get: async (teamId: number) => (await api.get<{ data: SsoSettings }>(`/api/${teamId}/sso`)).data,
  save: async (teamId: number, body: { oidc?: OidcInput | null; saml?: SamlInput | null }) => (await api.put<{ data: SsoSettings }>(`/api/${teamId}/sso`, body)).data,
  remove: async (teamId: number) => (await api.delete<{ data: SsoSettings }>(`/api/${teamId}/sso`)).data,
  test: async (teamId: number, issuer?: string) => (await api.post<{ data: DiscoveryResult }>(`/api/${teamId}/sso/test`, issuer ? { issuer } : {})).data,
  start: async (body: { email?: string; team_id?: number; intended?: string }) =>
    (await request<{ data: { url: string; team_id: number } }>('POST', '/api/auth/sso/start', body, { auth: false })).data,
  callback: (params: Record<string, string>) => request<Record<string, unknown>>('POST', '/api/auth/sso/callback', { params }, { auth: false }),
};
