import Dexie from 'dexie';
import { pathFor } from '../../schema/routes';
import type { Workspace } from '../api/endpoints';
import { backendFor } from '../boards/store/use-backend';
import { buildIndex, type PaletteEntry, type SearchIndex } from './palette-search';

/**
 * What the palette finds, read from the replica in IndexedDB (the worker's Dexie database): every
 * board and folder, every item, and the current board's views; boards not opened on this device yet
 * come from the server's board list (their items are searchable once the board was opened). Boards and folders are few and come
 * at once; items are read in one pass after the palette is on screen and kept for a few seconds, so the
 * next opening within seconds searches them straight away.
 */

export interface Target extends PaletteEntry {
  href: string;
}

interface StoredRow {
  id: string;
  team_id?: number;
  board_id?: string;
  folder_id?: string;
  parent_id?: string | null;
  name?: string;
  deleted_at?: string | null;
  hidden?: boolean;
}

const hrefOfFolder = (f: StoredRow) => (f.parent_id === null || f.parent_id === undefined ? pathFor('board', { rootId: f.id }) : pathFor('folder', { rootId: f.board_id!, folderId: f.id }));

async function rows(userId: number, collection: string): Promise<StoredRow[]> {
  const { db } = await backendFor(userId);
  return (await db.records.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray()) as unknown as StoredRow[];
}

/** Boards and folders (live ones), each with the board or workspace it sits in. */
export async function loadPlaces(userId: number, workspaces: readonly Workspace[]): Promise<{ places: Target[]; boardNames: Map<string, string>; boardTeams: Map<string, number> }> {
  const backend = await backendFor(userId);
  const local = (await rows(userId, 'folder')).filter((f) => !f.deleted_at);
  // Boards not opened on this device yet are not in the replica: the server's lists add them (online).
  const remote = (await Promise.all(workspaces.map((w) => backend.listBoards(w.id).catch(() => [])))).flat() as unknown as StoredRow[];
  const byId = new Map<string, StoredRow>();
  for (const f of [...remote, ...local]) if (!f.deleted_at) byId.set(f.id, f);
  const folders = [...byId.values()];
  const teamNames = new Map(workspaces.map((w) => [w.id, w.name]));
  const boardNames = new Map<string, string>();
  const boardTeams = new Map<string, number>();
  for (const f of folders) {
    if (f.parent_id === null) {
      boardNames.set(f.id, f.name ?? '');
      if (f.team_id !== undefined) boardTeams.set(f.id, f.team_id);
    }
  }
  const places = folders
    // A board of a workspace the user left stays in the replica for a while; it is not offered.
    .filter((f) => f.team_id === undefined || teamNames.size === 0 || teamNames.has(f.team_id))
    .map<Target>((f) => ({
      id: f.id,
      kind: f.parent_id === null ? 'board' : 'folder',
      label: f.name ?? '',
      detail: f.parent_id === null ? teamNames.get(f.team_id ?? -1) : boardNames.get(f.board_id ?? ''),
      href: hrefOfFolder(f),
    }))
    .sort((a, b) => (a.kind === b.kind ? a.label.localeCompare(b.label) : a.kind === 'board' ? -1 : 1));
  return { places, boardNames, boardTeams };
}

let itemCache: { userId: number; at: number; index: SearchIndex<Target> } | null = null;
const ITEM_CACHE_MS = 5_000;

/** Every live item as a palette entry, in one read (cached for a few seconds). */
export async function loadItems(userId: number, boardNames: ReadonlyMap<string, string>): Promise<SearchIndex<Target>> {
  if (itemCache && itemCache.userId === userId && Date.now() - itemCache.at < ITEM_CACHE_MS) return itemCache.index;
  const items = await rows(userId, 'item');
  const entries: Target[] = [];
  for (const i of items) {
    if (i.deleted_at || !i.board_id || !i.folder_id || !boardNames.has(i.board_id)) continue;
    entries.push({ id: i.id, kind: 'item', label: i.name || '—', detail: boardNames.get(i.board_id), href: pathFor('folder', { rootId: i.board_id, folderId: i.folder_id, itemId: i.id }) });
  }
  const index = buildIndex(entries);
  itemCache = { userId, at: Date.now(), index };
  return index;
}

/** The views of one board (its tabs), for "Switch to view …". */
export async function loadViews(userId: number, boardId: string): Promise<{ id: string; name: string; folderId: string }[]> {
  const { db } = await backendFor(userId);
  const views = (await db.records.where('[collection+board_id]').equals(['folder_view', boardId]).toArray()) as unknown as (StoredRow & { position?: number })[];
  return views
    .filter((v) => !v.deleted_at)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((v) => ({ id: v.id, name: v.name ?? '', folderId: v.folder_id ?? boardId }));
}
