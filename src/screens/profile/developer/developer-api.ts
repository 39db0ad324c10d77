import { api } from '../../../api/client';
import type { ApiAbility } from '../../../../schema/api-abilities';

/** The developer area's API calls (personal tokens, OAuth apps, authorised apps, consent). */

export interface PersonalToken {
  id: number;
  name: string;
  abilities: ApiAbility[];
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export interface OAuthApp {
  id: number;
  name: string;
  client_id: string;
  redirect_uris: string[];
  created_at: string;
  updated_at: string;
}

export interface AuthorisedApp {
  client_id: string;
  name: string;
  abilities: ApiAbility[];
  authorised_at: string;
  last_used_at: string | null;
}

export interface ConsentRequest {
  client: { client_id: string; name: string };
  redirect_uri: string;
  scopes: ApiAbility[];
  state: string | null;
}

export const Developer = {
  tokens: async () => (await api.get<{ data: PersonalToken[] }>('/api/me/tokens')).data,
  createToken: async (body: { name: string; abilities: ApiAbility[]; expires_at: string | null }) => (await api.post<{ data: { id: number; name: string; token: string; created_at: string } }>('/api/me/tokens', body)).data,
  revokeToken: (id: number) => api.delete(`/api/me/tokens/${id}`),

  apps: async () => (await api.get<{ data: OAuthApp[] }>('/api/me/oauth-apps')).data,
  registerApp: async (body: { name: string; redirect_uris: string[] }) => (await api.post<{ data: OAuthApp & { client_secret: string } }>('/api/me/oauth-apps', body)).data,
  updateApp: async (id: number, body: { name: string; redirect_uris: string[] }) => (await api.put<{ data: OAuthApp }>(`/api/me/oauth-apps/${id}`, body)).data,
  newSecret: async (id: number) => (await api.post<{ data: OAuthApp & { client_secret: string } }>(`/api/me/oauth-apps/${id}/secret`)).data,
  deleteApp: (id: number) => api.delete(`/api/me/oauth-apps/${id}`),

  authorisedApps: async () => (await api.get<{ data: AuthorisedApp[] }>('/api/me/applications')).data,
  revokeApp: (clientId: string) => api.delete(`/api/me/applications/${encodeURIComponent(clientId)}`),

  consent: async (params: URLSearchParams) => (await api.get<{ data: ConsentRequest }>(`/api/oauth/authorize?${params}`)).data,
  decide: (params: Record<string, string>, allowed: boolean) => api.post<{ redirect: string }>('/api/oauth/authorize', { ...params, allowed }),
};
