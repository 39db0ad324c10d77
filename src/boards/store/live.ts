import { useLiveQuery } from 'dexie-react-hooks';
import type { AttributeRecord, FolderRecord, FolderViewRecord, ItemRecord, ValueRecord } from '../../../schema/records';
import type { StoredRecord } from '../../../sync-worker/types';
import { useBoardBackend } from './backend';

/**
 * Live reads of the local replica (useLiveQuery on the read-only Dexie handle). Each hook reads the
 * narrowest index it can, so an edit re-runs only the queries whose range it touches: a value
 * edit re-reads that item's values (and, when sorted or filtered by it, that attribute's column),
 * never the whole board.
 */

export type Folder = FolderRecord & { collection?: string; team_id?: number };
export type Item = ItemRecord & { collection?: string };
export type Attribute = AttributeRecord & { collection?: string };
export type FolderView = FolderViewRecord & { collection?: string };
export type Value = ValueRecord & { collection?: string };

function useBoardRecords<T>(collection: string, boardId: string | null): T[] | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(
    () => (boardId ? db.records.where('[collection+board_id]').equals([collection, boardId]).toArray() : Promise.resolve([])) as Promise<T[]>,
    [db, collection, boardId],
  );
}

export const useFolders = (boardId: string | null) => useBoardRecords<Folder>('folder', boardId);
export const useItems = (boardId: string | null) => useBoardRecords<Item>('item', boardId);
export const useAttributes = (boardId: string | null) => useBoardRecords<Attribute>('attribute', boardId);
export const useViews = (boardId: string | null) => useBoardRecords<FolderView>('folder_view', boardId);

export function useRecord<T>(collection: string, id: string | null | undefined): T | null | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(async () => (id ? (((await db.records.get([collection, id])) as T | undefined) ?? null) : null), [db, collection, id]);
}

/** The boards (root folders) this device knows of, per workspace: for the sidebar tree. */
export function useKnownBoards(teamId: number | null): Folder[] | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(
    async () => {
      if (teamId === null) return [];
      const folders = (await db.records.where('collection').equals('folder').toArray()) as StoredRecord[];
      return folders.filter((f) => f.parent_id === null && f.team_id === teamId) as unknown as Folder[];
    },
    [db, teamId],
  );
}

/** Last values seen per item: a row scrolled back into view shows them at once, then refreshes. */
const rowCache = new Map<string, Map<string, unknown>>();

/** The values of one item, by attribute id. */
export function useItemValues(itemId: string): Map<string, unknown> {
  const { db } = useBoardBackend();
  const live = useLiveQuery(async () => {
    const rows = (await db.records.where('[collection+item_id]').equals(['value', itemId]).toArray()) as unknown as Value[];
    const map = new Map<string, unknown>();
    for (const row of rows) map.set(row.attribute_id, row.value);
    rowCache.set(itemId, map);
    return map;
  }, [db, itemId]);
  return live ?? rowCache.get(itemId) ?? EMPTY;
}
const EMPTY = new Map<string, unknown>();

/**
 * Every value of the given attributes (for sorting, filtering and grouping), keyed by value id
 * ("{itemId}.{attributeId}"). Reads one index range per attribute.
 */
export function useAttributeValues(attributeIds: readonly string[]): Map<string, unknown> | undefined {
  const { db } = useBoardBackend();
  const key = [...new Set(attributeIds)].sort().join('|');
  return useLiveQuery(async () => {
    const map = new Map<string, unknown>();
    if (!key) return map;
    for (const attributeId of key.split('|')) {
      const rows = (await db.records.where('[collection+attribute_id]').equals(['value', attributeId]).toArray()) as unknown as Value[];
      for (const row of rows) map.set(row.id, row.value);
    }
    return map;
  }, [db, key]);
}

/**
 * The values of the items on screen, by item then attribute, read with one query per window (not
 * one per row), so scrolling costs one IndexedDB read per frame of new rows. Rows scrolled back
 * into view show their last known values at once.
 */
export function useWindowValues(itemIds: readonly string[]): (itemId: string) => Map<string, unknown> {
  const { db } = useBoardBackend();
  const key = itemIds.join('|');
  const live = useLiveQuery(async () => {
    const byItem = new Map<string, Map<string, unknown>>();
    if (!key) return byItem;
    const ids = key.split('|');
    for (const id of ids) byItem.set(id, new Map());
    const rows = (await db.records
      .where('[collection+item_id]')
      .anyOf(ids.map((id) => ['value', id]))
      .toArray()) as unknown as Value[];
    for (const row of rows) byItem.get(row.item_id)?.set(row.attribute_id, row.value);
    for (const [id, map] of byItem) rowCache.set(id, map);
    return byItem;
  }, [db, key]);
  return (itemId) => live?.get(itemId) ?? rowCache.get(itemId) ?? EMPTY;
}
