import { attributeOfValueId } from '../../../schema/records';
import type { StoredRecord } from '../../../sync-worker/client';
import type { RecordList } from './record-lists';

/**
 * Readers over the per-attribute value lists (record-lists.ts) that useAttributeValueParts
 * (live.ts) hands out: one reader for the lists read so far, one for all of them once every list
 * is read, and which changes lie between two readers of the same lists (what a view kept in order
 * re-checks after a value edit, model/item-order.ts). No React here.
 */

/** Reads a value by its id ("{itemId}.{attributeId}"): undefined when the item has none. */
export type ValueReader = (valueId: string) => unknown;

/** Attribute id → its value list, in the order the view asked for them. */
export type ValueLists = readonly (readonly [string, RecordList<StoredRecord>])[];

export interface StoredReaders {
  /** Every list's values; undefined until every list is read. */
  all: ValueReader | undefined;
  /** The values of the lists read so far; undefined until one is. */
  partial: ValueReader | undefined;
  loaded: ReadonlySet<string>;
}

/** The record a value id names in its attribute's list, if that list is among `lists`. */
export function lookupIn(lists: ValueLists, valueId: string): StoredRecord | undefined {
  const attributeId = attributeOfValueId(valueId);
  for (const [id, list] of lists) if (id === attributeId) return list.lookup(valueId);
  return undefined;
}

/** What a reader reads: which lists at which versions, and the pending writes laid over them. */
interface ReaderInfo {
  parts: { list: RecordList<StoredRecord>; version: number }[];
  shown: Map<string, unknown> | null;
}
const readerInfo = new WeakMap<ValueReader, ReaderInfo>();

/** A reader that lays `shown` (this tab's pending writes) over `stored`, and remembers it did. */
export function overlaidReader(stored: ValueReader, shown: Map<string, unknown>): ValueReader {
  const reader: ValueReader = (id) => (shown.has(id) ? shown.get(id) : stored(id));
  const base = readerInfo.get(stored);
  if (base) readerInfo.set(reader, { ...base, shown });
  return reader;
}

/** One stored reader per set of lists and versions, shared by every mount (see storedReaders). */
const storedByKey = new Map<string, { lists: ValueLists; versions: string; readers: StoredReaders }>();
const KEEP_READERS = 64;

const EMPTY_READER: ValueReader = () => undefined;
readerInfo.set(EMPTY_READER, { parts: [], shown: null });

/** The lists' versions as one string ("3|" = the first list read, the second not yet). */
export const versionsOf = (lists: ValueLists) => lists.map(([, list]) => list.version() ?? '').join('|');

/**
 * Readers of the lists as they are now: `all` once every list is read, `partial` once any is. One
 * per key (the database and the attributes) and versions, shared by every mount: a view mounted
 * again over unchanged values gets the same reader, so its kept order is not checked again.
 */
export function storedReaders(key: string, lists: ValueLists, versions = versionsOf(lists)): StoredReaders {
  const held = storedByKey.get(key);
  if (held && held.versions === versions && held.lists.length === lists.length && held.lists.every(([, list], i) => list === lists[i]![1])) return held.readers;
  const read = lists.filter(([, list]) => list.version() !== undefined);
  const loaded = new Set(read.map(([id]) => id));
  let reader: ValueReader | undefined;
  if (read.length === 1) {
    // One attribute (a calendar's date, a sort): straight to its list.
    const list = read[0]![1];
    reader = (id) => (list.lookup(id) as { value?: unknown } | undefined)?.value;
  } else if (read.length > 1) {
    const byAttribute = new Map(read.map(([id, list]) => [id, list]));
    reader = (id) => (byAttribute.get(attributeOfValueId(id))?.lookup(id) as { value?: unknown } | undefined)?.value;
  }
  // No attributes: nothing to read, nothing to wait for.
  const all = lists.length === 0 ? EMPTY_READER : read.length === lists.length ? reader : undefined;
  if (all && all !== EMPTY_READER) readerInfo.set(all, { parts: lists.map(([, list]) => ({ list, version: list.version()! })), shown: null });
  const readers: StoredReaders = { all, partial: reader, loaded };
  storedByKey.delete(key);
  storedByKey.set(key, { lists, versions, readers });
  // The oldest go first (a Map keeps insertion order); their lists stay in record-lists' cache.
  if (storedByKey.size > KEEP_READERS) storedByKey.delete(storedByKey.keys().next().value!);
  return readers;
}

/**
 * The ids of the values that may read differently through `after` than through `before` (two
 * readers of the same attributes), or null when that is not known: a value edit tells a view kept
 * in order which items to move (model/item-order.ts).
 */
export function valueChangesBetween(before: ValueReader, after: ValueReader): string[] | null {
  const a = readerInfo.get(before);
  const b = readerInfo.get(after);
  if (!a || !b || a.parts.length !== b.parts.length) return null;
  const ids: string[] = [];
  for (let i = 0; i < a.parts.length; i++) {
    const x = a.parts[i]!;
    const y = b.parts[i]!;
    if (x.list !== y.list) return null;
    const changed = x.list.changedBetween(x.version, y.version);
    if (!changed) return null;
    for (const id of changed) ids.push(id);
  }
  if (a.shown) ids.push(...a.shown.keys());
  if (b.shown) ids.push(...b.shown.keys());
  return ids;
}
