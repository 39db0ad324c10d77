import { api } from '../../../../api/client';
import type { Hook, HookEventType, HookLog } from '../../../../../schema/hooks';

/** The webhooks screens' API calls (docs/api/hooks.md). */
export const Hooks = {
  mine: async () => (await api.get<{ data: Hook[] }>('/api/me/hooks')).data,
  save: async (teamId: number, id: string, body: { url?: string; events?: HookEventType[]; active?: boolean; rotate_secret?: boolean }) =>
    (await api.put<{ data: Hook }>(`/api/${teamId}/hooks/${encodeURIComponent(id)}`, body)).data,
  remove: (hook: Hook) => api.delete(`/api/${hook.team_id}/hooks/${encodeURIComponent(hook.id)}`),
  test: (hook: Hook) => api.post<{ message: string }>(`/api/${hook.team_id}/hooks/${encodeURIComponent(hook.id)}/test`),
  logs: async (hook: Hook) => (await api.get<{ data: HookLog[] }>(`/api/${hook.team_id}/hooks/${encodeURIComponent(hook.id)}/logs?limit=100`)).data,
};

/** One hook of the user's, by id (the list is the only read: GET /api/me/hooks). */
export async function myHook(id: string): Promise<Hook | null> {
  return (await Hooks.mine()).find((hook) => hook.id === id) ?? null;
}
