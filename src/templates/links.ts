import { pathFor } from '../../schema/routes';

/** The gallery's query (teamId, boardId, folderId) kept from one gallery route to the next. */
export type GalleryQuery = { teamId?: string | number; boardId?: string; folderId?: string };

export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const galleryQuery = (search: GalleryQuery) => ({ teamId: search.teamId, boardId: search.boardId, folderId: search.folderId });

/** Where "Use template" leads: the create-board screen of the workspace with the template chosen. */
export function createBoardHref(teamId: number, templateId: string, name?: string): string {
  return withQuery(pathFor('create-board', { teamId }), { template: templateId, name });
}
