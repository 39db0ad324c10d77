import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { attributeOfValueId, itemOfValueId, type AttributeRecord, type FolderRecord, type FolderViewRecord, type ItemRecord, type ValueRecord } from '../../../schema/records';
import type { CairnDexie, StoredRecord } from '../../../sync-worker/client';
import { useBoardBackend } from './backend';
import type { PendingEntry, PendingWrites } from './pending';
import { heldRecord, recordList, valueListSource } from './record-lists';
import { lookupIn, overlaidReader, storedReaders, versionsOf, type ValueLists, type ValueReader } from './value-readers';
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

export { valueChangesBetween, type ValueReader } from './value-readers';

/** The value lists of some attributes as they are read: all of them, some of them, which ones. */
export interface AttributeValueParts {
  /** A reader of every attribute's values; undefined until every list is read. */
  all: ValueReader | undefined;
  /** A reader of the lists read so far (undefined for the others' values): a view may draw what it has. */
  partial: ValueReader | undefined;
  /** The attributes whose lists are read. */
  loaded: ReadonlySet<string>;
}

/**
 * Every value of the given attributes (for sorting, filtering, grouping, and what a view places
 * items by), as a reader by value id; undefined until the first read. See useAttributeValueParts.
 */
export function useAttributeValues(attributeIds: readonly string[]): ValueReader | undefined {
  return useAttributeValueParts(attributeIds).all;
}

/**
 * The values of some attributes, one list per attribute (record-lists.ts), shared by every view
 * and hook that reads that attribute: a Chart over status, owner and due reads the status column
 * the List already holds, and the lists are read side by side, each in its own transaction, so a
 * view can draw the part whose values have arrived (the Chart's first panel) before the rest.
 * After the first read a list is patched in place: a value edit reads that value. Nothing here
 * copies a column: the reader looks a value up in its attribute's list, with this tab's pending
 * writes (a handful) laid over it, so an edit costs O(1) here and a new reader identity (what memos
 * downstream depend on). The reader keeps its identity while neither the lists nor the pending
 * writes of its attributes changed: an edit of a date does not hand the pane a new reader of what
 * it filters and sorts by (which re-filtered and re-sorted all items on every drag of a calendar
 * item or gantt bar, issue #12).
 */
export function useAttributeValueParts(attributeIds: readonly string[]): AttributeValueParts {
  const { db, pending } = useBoardBackend();
  // Asked in the order given (a view puts what it draws first first); the same set is the same key.
  const order = [...new Set(attributeIds)];
  const key = order.join('|');
  const lists = useMemo(
    (): ValueLists => (key ? key.split('|') : []).map((id) => [id, recordList(db, `values\u0000${id}`, () => valueListSource([id]))] as const),
    [db, key],
  );
  const subscribe = useCallback((onChange: () => void) => {
    const offs = lists.map(([, list]) => list.subscribe(onChange));
    return () => offs.forEach((off) => off());
  }, [lists]);
  // The lists' versions as one string (React compares snapshots by value): "3|" = first read, second not yet.
  const versions = useSyncExternalStore(subscribe, () => versionsOf(lists));
  const version = usePendingVersion(pending, 'value');
  const stored = useMemo(() => storedReaders(`${db.name}\u0000${key}`, lists, versions), [db, key, lists, versions]);
  const attributes = useMemo(() => new Set(lists.map(([id]) => id)), [lists]);
  const last = useRef<{ stored: ValueReader; shown: Map<string, unknown>; reader: ValueReader } | null>(null);
  const all = useMemo((): ValueReader | undefined => {
    if (!stored.all) return undefined;
    const entries = pending ? pending.of('value').filter((e) => attributes.has(attributeOf(e)) && !pending.replicaWins(e, lookupIn(lists, e.id))) : [];
    if (entries.length === 0) return stored.all;
    const shown = new Map<string, unknown>();
    for (const e of entries) shown.set(e.id, e.record ? e.record.value : undefined);
    // The same writes over the same lists: the same reader.
    const before = last.current;
    if (before && before.stored === stored.all && sameShown(before.shown, shown)) return before.reader;
    const storedAll = stored.all;
    const reader = overlaidReader(storedAll, shown);
    last.current = { stored: storedAll, shown, reader };
    return reader;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored, version, pending, attributes]);
  return useMemo(() => ({ all, partial: all ?? stored.partial, loaded: stored.loaded }), [all, stored]);
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

const attributeOf = (e: PendingEntry) => String(e.record?.attribute_id ?? attributeOfValueId(e.id));
const itemOf = (e: PendingEntry) => String(e.record?.item_id ?? itemOfValueId(e.id));
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
