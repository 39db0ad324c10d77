import { api } from '../api/client';
import type { BoardJob } from '../../schema/board-jobs';
import type { TemplateDetail, TemplateSummary } from '../../schema/templates';

/** The templates screens' API calls (docs/api/templates.md). */
export const Templates = {
  gallery: async (filter: { tag?: string; q?: string } = {}) => {
    const query = new URLSearchParams();
    if (filter.tag) query.set('tag', filter.tag);
    if (filter.q) query.set('q', filter.q);
    const suffix = query.toString() ? `?${query}` : '';
    return (await api.get<{ data: TemplateSummary[] }>(`/api/templates${suffix}`)).data;
  },
  open: async (id: string) => (await api.get<{ data: TemplateDetail }>(`/api/templates/${encodeURIComponent(id)}`)).data,
  mine: async () => (await api.get<{ data: TemplateSummary[] }>('/api/me/templates')).data,
  sharedWithMe: async () => (await api.get<{ data: TemplateSummary[] }>('/api/me/templates?shared=1')).data,
  edit: async (id: string, body: { name?: string; description?: string; cover_url?: string | null; tags?: string[]; shared_team_ids?: number[]; link_shared?: boolean }) =>
    (await api.put<{ data: TemplateDetail }>(`/api/me/templates/${encodeURIComponent(id)}`, body)).data,
  share: async (id: string, teamIds: number[]) => (await api.post<{ data: TemplateDetail }>(`/api/me/templates/${encodeURIComponent(id)}/share`, { team_ids: teamIds })).data,
  remove: (id: string) => api.delete(`/api/me/templates/${encodeURIComponent(id)}`),
  saveBoard: async (teamId: number, boardId: string, body: { name: string; description?: string; with_items: boolean; folder_id?: string }) =>
    (await api.post<{ data: TemplateSummary }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/template`, body)).data,
  use: async (teamId: number, templateId: string, name: string) =>
    (await api.post<{ data: { board_id: string; items: number } }>(`/api/${teamId}/templates/${encodeURIComponent(templateId)}/use`, { name })).data,
  duplicate: async (teamId: number, boardId: string, body: { name: string; with_items: boolean; with_values: boolean; with_views: boolean; with_automations?: boolean; with_comments?: boolean }) =>
    (await api.post<{ data: { job: BoardJob; board_id: string } }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/duplicate`, body)).data,
};
