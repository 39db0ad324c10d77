/**
 * Published documents (issue #13, decision 0136): the /p/ addresses of a Docs view and its
 * documents, the item slug, and the "must be public" rule. Pure: the server, the app and the
 * tests share it.
 */

export const PUBLISH_NEEDS_PUBLIC = 'Board and parent folders must be public before sharing.';

export type PublishedKind = 'e' | 'f' | 'i';

/** "Release notes" + id → "release-notes-{id}": readable, and the id keeps it unique across renames. */
export function itemSlug(item: { id: string; name?: unknown }): string {
  const words = String(item.name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return words ? `${words}-${item.id}` : item.id;
}

/** Whether a slug names this item (an old name's slug still does: the id ends it). */
export function slugNames(slug: string, item: { id: string; name?: unknown }): boolean {
  return slug === itemSlug(item) || slug === item.id || slug.endsWith(`-${item.id}`);
}

/** /p/{kind}{workspaceId}-{viewId}[/{itemSlug}] (shell.md routes published-document, -file, shared-document-item). */
export function publishedPath(kind: PublishedKind, teamId: number, viewId: string, slug?: string): string {
  return `/p/${kind}${teamId}-${viewId}${slug ? `/${encodeURIComponent(slug)}` : ''}`;
}

/** The parts of the first segment after /p/, or null when it is not one of ours. */
export function parsePublished(segment: string): { kind: PublishedKind; teamId: number; viewId: string } | null {
  const match = /^([efi])(\d{1,10})-([A-Za-z0-9_-]{1,64})$/.exec(segment);
  if (!match) return null;
  return { kind: match[1] as PublishedKind, teamId: Number(match[2]), viewId: match[3]! };
}

export interface PublishFolder {
  id: string;
  parent_id: string | null;
  is_public?: boolean | null;
  deleted_at?: string | null;
}

/**
 * Null when the view's folder, every folder above it and the board are public and live; else the
 * message the spec gives ("Board and parent folders must be public before sharing").
 */
export function publishProblem(folders: ReadonlyMap<string, PublishFolder>, folderId: string): string | null {
  const seen = new Set<string>();
  for (let id: string | null = folderId; id !== null; ) {
    const folder = folders.get(id);
    if (!folder || seen.has(id) || folder.deleted_at || folder.is_public !== true) return PUBLISH_NEEDS_PUBLIC;
    seen.add(id);
    id = folder.parent_id;
  }
  return null;
}
