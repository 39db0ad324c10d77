import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AttributeRecord, FolderRecord, FolderViewRecord, ItemRecord, ValueRecord } from '../../../schema/records';
import type { CairnDexie, StoredRecord } from '../../../sync-worker/client';
import { useBoardBackend } from './backend';
import type { PendingEntry, PendingWrites } from './pending';
import { heldRecord, recordList, valueListSource, type RecordList } from './record-lists';
import { windowValuesOf } from './window-values';

/**
 * Live reads of the local replica (the read-only Dexie handle). The board's lists (folders,
 * items, attributes, views) and the columns a view sorts or filters by are read once and then
 * updated in place from change notices (record-lists.ts, decision 0101): a rename, a value edit
 * or a remote save reads only the records it wrote. The rest are narrow live queries (one item's
 * values, the values of the rows on screen).
 */

export type Folder = FolderRecord & { collection?: string; team_id?: number };
export type Item = ItemRecord & { collection?: string };
export type Attribute = AttributeRecord & { collection?: string };
export type FolderView = FolderViewRecord & { collection?: string };
export type Value = ValueRecord & { collection?: string };

const boardListKey = (collection: string, boardId: string | null) => `board\u0000${collection}\u0000${boardId ?? ''}`;

/**
 * A board's root folder as the tab's kept-current folder list holds it (a board opened before in
 * this tab): a warm open needs no IndexedDB read, which may wait behind the worker's writes.
 */
export function heldBoardFolder(db: CairnDexie, boardId: string): StoredRecord | undefined {
  return heldRecord(db, boardListKey('folder', boardId), boardId);
}

function useBoardRecords<T extends { id: string; row_version: number } & object>(collection: string, boardId: string | null): T[] | undefined {
  const { db, pending } = useBoardBackend();
  // One list per board and collection, read once and then patched from change notices
  // (record-lists.ts): a rename re-reads the renamed item, not the board. The last few lists stay
  // current after their board closes, so a board opened again shows at once.
  const list = useMemo(
    () =>
      recordList(db, boardListKey(collection, boardId), () => ({
        collection,
        load: (d) => (boardId ? d.records.where('[collection+board_id]').equals([collection, boardId]).toArray() : Promise.resolve([])),
        belongs: (r) => r.board_id === boardId,
      })),
    [db, collection, boardId],
  );
  const stored = useSyncExternalStore(list.subscribe, list.snapshot) as T[] | undefined;
  const version = usePendingVersion(pending, collection);
  return useMemo(
    () => (stored && pending ? mergeList(pending, collection, boardId, stored).list : stored),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [stored, version, pending, collection, boardId],
  );
}

export const useFolders = (boardId: string | null) => useBoardRecords<Folder>('folder', boardId);
export const useItems = (boardId: string | null) => useBoardRecords<Item>('item', boardId);
export const useAttributes = (boardId: string | null) => useBoardRecords<Attribute>('attribute', boardId);
export const useViews = (boardId: string | null) => useBoardRecords<FolderView>('folder_view', boardId);

export function useRecord<T>(collection: string, id: string | null | undefined): T | null | undefined {
  const { db, pending } = useBoardBackend();
  const stored = useLiveQuery(async () => (id ? (((await db.records.get([collection, id])) as T | undefined) ?? null) : null), [db, collection, id]);
  const version = usePendingVersion(pending, collection);
  return useMemo(() => {
    const entry = id && pending?.get(collection, id);
    if (!entry || stored === undefined || pending!.replicaWins(entry, (stored as { row_version: number } | null) ?? undefined)) return stored;
    return entry.record as T | null;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored, version, pending, collection, id]);
}

/** The boards (root folders) this device knows of, per workspace: for the sidebar tree. */
export function useKnownBoards(teamId: number | null): Folder[] | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(
    async () => {
      if (teamId === null) return [];
      // Every folder of every board: the primary-key range of the collection (no `collection` index).
      const folders = (await db.records.where('[collection+id]').between(['folder', Dexie.minKey], ['folder', Dexie.maxKey]).toArray()) as StoredRecord[];
      return folders.filter((f) => f.parent_id === null && f.team_id === teamId) as unknown as Folder[];
    },
    [db, teamId],
  );
}

/** Last values seen per item: a row scrolled back into view shows them at once, then refreshes. */
const rowCache = new Map<string, Map<string, unknown>>();

/** Values read with their versions, so this tab's pending writes can be laid over them. */
interface VersionedValues {
  values: Map<string, unknown>;
  versions: Map<string, number>;
}

/** The values of one item, by attribute id. */
export function useItemValues(itemId: string): Map<string, unknown> {
  const { db, pending } = useBoardBackend();
  const live = useLiveQuery(async (): Promise<VersionedValues> => {
    const rows = (await db.records.where('[collection+item_id]').equals(['value', itemId]).toArray()) as unknown as Value[];
    const values = new Map<string, unknown>();
    const versions = new Map<string, number>();
    for (const row of rows) {
      values.set(row.attribute_id, row.value);
      versions.set(row.id, row.row_version);
    }
    rowCache.set(itemId, values);
    return { values, versions };
  }, [db, itemId]);
  const version = usePendingVersion(pending, 'value');
  return useMemo(() => {
    const base = live?.values ?? rowCache.get(itemId) ?? EMPTY;
    return pending && live ? overlayItemValues(pending, itemId, base, live.versions) : base;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live, version, pending, itemId]);
}
const EMPTY = new Map<string, unknown>();

/** Reads a value by its id ("{itemId}.{attributeId}"): undefined when the item has none. */
export type ValueReader = (valueId: string) => unknown;

/**
 * Every value of the given attributes (for sorting, filtering, grouping, and what a view places
 * items by), as a reader by value id; undefined until the first read. Reads one index range per
 * attribute once; after that the list is patched in place (record-lists.ts): a value edit reads
 * that value. Nothing here copies the column: the reader looks a value up in the list itself,
 * with this tab's pending writes (a handful) laid over it, so an edit costs O(1) here and a new
 * reader identity (what memos downstream depend on). The reader keeps its identity while neither
 * the list nor the pending writes of its attributes changed: an edit of a date does not hand the
 * pane a new reader of what it filters and sorts by (which re-filtered and re-sorted all items
 * on every drag of a calendar item or gantt bar, issue #12).
 */
export function useAttributeValues(attributeIds: readonly string[]): ValueReader | undefined {
  const { db, pending } = useBoardBackend();
  const key = [...new Set(attributeIds)].sort().join('|');
  const list = useMemo(() => recordList(db, `values\u0000${key}`, () => valueListSource(key ? key.split('|') : [])), [db, key]);
  const listVersion = useSyncExternalStore(list.subscribe, list.version);
  const version = usePendingVersion(pending, 'value');
  // One reader per list and version, shared by every mount: a view mounted again over unchanged
  // values gets the same reader, so its kept order (model/item-order.ts) is not checked again.
  const stored = useMemo((): ValueReader | undefined => (listVersion === undefined ? undefined : readerOf(list, listVersion)), [list, listVersion]);
  const attributes = useMemo(() => new Set(key.split('|')), [key]);
  const last = useRef<{ stored: ValueReader; shown: Map<string, unknown>; reader: ValueReader } | null>(null);
  return useMemo((): ValueReader | undefined => {
    if (!stored) return undefined;
    const entries = pending ? pending.of('value').filter((e) => attributes.has(attributeOf(e)) && !pending.replicaWins(e, list.lookup(e.id))) : [];
    if (entries.length === 0) return stored;
    const shown = new Map<string, unknown>();
    for (const e of entries) shown.set(e.id, e.record ? e.record.value : undefined);
    // The same writes over the same list: the same reader.
    const before = last.current;
    if (before && before.stored === stored && sameShown(before.shown, shown)) return before.reader;
    const reader: ValueReader = (id) => (shown.has(id) ? shown.get(id) : stored(id));
    const base = readerInfo.get(stored);
    if (base) readerInfo.set(reader, { ...base, shown });
    last.current = { stored, shown, reader };
    return reader;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored, version, pending, attributes]);
}

const readers = new WeakMap<object, { version: number; reader: ValueReader }>();
/** What a reader reads: which list at which version, and the pending writes laid over it. */
interface ReaderInfo {
  list: RecordList<StoredRecord>;
  version: number;
  shown: Map<string, unknown> | null;
}
const readerInfo = new WeakMap<ValueReader, ReaderInfo>();

function readerOf(list: RecordList<StoredRecord>, version: number): ValueReader {
  const held = readers.get(list);
  if (held && held.version === version) return held.reader;
  const reader: ValueReader = (id) => (list.lookup(id) as unknown as Value | undefined)?.value;
  readers.set(list, { version, reader });
  readerInfo.set(reader, { list, version, shown: null });
  return reader;
}

/**
 * The ids of the values that may read differently through `after` than through `before` (two
 * readers of the same attributes from useAttributeValues), or null when that is not known: a
 * value edit tells a view kept in order which items to move (model/item-order.ts).
 */
export function valueChangesBetween(before: ValueReader, after: ValueReader): string[] | null {
  const a = readerInfo.get(before);
  const b = readerInfo.get(after);
  if (!a || !b || a.list !== b.list) return null;
  const ids = a.list.changedBetween(a.version, b.version);
  if (!ids) return null;
  if (a.shown) ids.push(...a.shown.keys());
  if (b.shown) ids.push(...b.shown.keys());
  return ids;
}

function sameShown(a: Map<string, unknown>, b: Map<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, value] of a) if (!b.has(id) || b.get(id) !== value) return false;
  return true;
}

/**
 * The values of the items on screen, by item then attribute (window-values.ts, decision 0295):
 * only items not held yet are read, once, and a write re-reads only the items it touched. The
 * caller passes whole blocks of rows, so the window changes only when scrolling crosses a block.
 * A row whose values did not change keeps its Map, so its memoised row does not render.
 */
export function useWindowValues(itemIds: readonly string[]): (itemId: string) => Map<string, unknown> {
  const { db, pending } = useBoardBackend();
  const cache = useMemo(() => windowValuesOf(db), [db]);
  const key = itemIds.join('|');
  const [owner] = useState(() => ({}));
  // Asking is idempotent (only items not held or being read are read), so it is done while
  // rendering: the read starts in the same frame the window moved.
  useMemo(() => cache.show(owner, key ? key.split('|') : []), [cache, owner, key]);
  useEffect(() => () => cache.hide(owner), [cache, owner]);
  const held = useSyncExternalStore(cache.subscribe, cache.version);
  const version = usePendingVersion(pending, 'value');
  return useMemo(() => {
    const shown = new Map<string, Map<string, unknown>>();
    return (itemId: string) => {
      let map = shown.get(itemId);
      if (map) return map;
      const base = cache.get(itemId) ?? rowCache.get(itemId) ?? EMPTY;
      map = pending ? overlayItemValues(pending, itemId, base, cache.versions) : base;
      shown.set(itemId, map);
      return map;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cache, held, version, pending]);
}

// ── pending writes laid over the replica ─────────────────────────────────────────────────────

const noSubscription = () => () => undefined;

/** Renders again when this tab's pending writes of `collection` change. */
function usePendingVersion(pending: PendingWrites | undefined, collection: string): number {
  return useSyncExternalStore(pending?.subscribe ?? noSubscription, () => pending?.versionOf(collection) ?? 0);
}

const attributeOf = (e: PendingEntry) => String(e.record?.attribute_id ?? e.id.slice(e.id.indexOf('.') + 1));
const itemOf = (e: PendingEntry) => String(e.record?.item_id ?? e.id.slice(0, e.id.indexOf('.')));
const versionOf = (versions: Map<string, number>, id: string) => {
  const v = versions.get(id);
  return v === undefined ? undefined : { row_version: v };
};

/** One item's values with this tab's pending value writes laid over them (the same Map when none apply). */
function overlayItemValues(pending: PendingWrites, itemId: string, base: Map<string, unknown>, versions: Map<string, number>): Map<string, unknown> {
  if (pending.size === 0) return base;
  let map = base;
  for (const e of pending.of('value')) {
    if (itemOf(e) !== itemId || pending.replicaWins(e, versionOf(versions, e.id))) continue;
    if (map === base) map = new Map(base);
    if (e.record) map.set(attributeOf(e), e.record.value);
    else map.delete(attributeOf(e));
  }
  return map;
}

/** A board's records of one collection with this tab's pending writes laid over them. */
function mergeList<T extends { id: string; row_version: number }>(pending: PendingWrites, collection: string, boardId: string | null, stored: T[]): { list: T[]; touched: boolean } {
  const entries = pending.of(collection);
  if (entries.length === 0) return { list: stored, touched: false };
  const byId = new Map<string, PendingEntry>();
  const storedIds = new Set<string>();
  for (const row of stored) storedIds.add(row.id);
  for (const e of entries) {
    const row = storedIds.has(e.id) ? stored.find((r) => r.id === e.id) : undefined;
    if (!pending.replicaWins(e, row)) byId.set(e.id, e);
  }
  if (byId.size === 0) return { list: stored, touched: false };
  const list: T[] = [];
  for (const row of stored) {
    const e = byId.get(row.id);
    if (!e) list.push(row);
    else if (e.record) list.push({ ...row, ...e.record } as T);
  }
  for (const e of byId.values()) if (e.record && !storedIds.has(e.id) && e.record.board_id === boardId) list.push(e.record as unknown as T);
  return { list, touched: true };
}
