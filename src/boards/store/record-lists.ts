import Dexie from 'dexie';
import { attributeOfValueId } from '../../../schema/records';
import type { CairnDexie } from '../../../sync-worker/client';
import type { StoredRecord } from '../../../sync-worker/client';

/**
 * Lists of the replica kept in the tab and updated in place (decision 0101). A list is read from
 * IndexedDB once; after that, every write to `records` — by the worker (Dexie tells each tab
 * through its BroadcastChannel), or by the in-tab engine of a guest — names the keys it wrote,
 * and only those are read again and patched in. A rename, a value edit or a remote save costs
 * one `bulkGet` of the records it touched, never a re-read of the board; a list whose records
 * did not change keeps its array, so the sorts and rows built on it are not redone.
 *
 * A write Dexie cannot name key by key (a clear, a range delete, a bulkPut of 50 or more records:
 * Dexie then marks the whole table) makes the list read itself again, as a live query would.
 */

type Key = [string, string];
export type RecordChange = { all: true } | { all: false; keys: Key[] };
type Listener = (change: RecordChange) => void;

/** Plain-object form of Dexie's RangeSet (it crosses the BroadcastChannel as a structured clone). */
interface RangeNode {
  from?: unknown;
  to?: unknown;
  l?: RangeNode | null;
  r?: RangeNode | null;
}

const sameKey = (a: unknown, b: unknown) => Array.isArray(a) && Array.isArray(b) && a.length === 2 && b.length === 2 && a[0] === b[0] && a[1] === b[1];

/** The primary keys a RangeSet names, or null when it holds a real range (not single keys). */
export function keysOfRangeSet(set: RangeNode): Key[] | null {
  const keys: Key[] = [];
  const stack: RangeNode[] = [set];
  while (stack.length) {
    const node = stack.pop()!;
    if (!('from' in node)) continue;
    if (!sameKey(node.from, node.to)) return null;
    keys.push(node.from as Key);
    if (node.l) stack.push(node.l);
    if (node.r) stack.push(node.r);
  }
  return keys;
}

const listeners = new Map<string, Set<Listener>>();
let subscribed = false;

function onStorageMutated(parts: Record<string, RangeNode>): void {
  for (const [dbName, set] of listeners) {
    // `all`: Dexie's notice after the page came back from the back-forward cache.
    const part = parts.all ?? parts[`idb://${dbName}/records/`];
    if (!part) continue;
    const keys = parts.all ? null : keysOfRangeSet(part);
    const change: RecordChange = keys === null ? { all: true } : { all: false, keys };
    if (!change.all && change.keys.length === 0) continue;
    for (const listener of [...set]) listener(change);
  }
}

/** Tells `listener` which records of the named database's `records` table were written. */
export function onRecordsChanged(dbName: string, listener: Listener): () => void {
  if (!subscribed) {
    subscribed = true;
    Dexie.on('storagemutated', onStorageMutated as (parts: unknown) => void);
  }
  let set = listeners.get(dbName);
  if (!set) listeners.set(dbName, (set = new Set()));
  set.add(listener);
  return () => {
    set!.delete(listener);
    if (set!.size === 0) listeners.delete(dbName);
  };
}

/** What a list holds: how to read all of it, and which records belong to it. */
export interface ListSource<T extends StoredRecord> {
  collection: string;
  load(db: CairnDexie): Promise<T[]>;
  belongs(record: T): boolean;
  /**
   * False when a record with this id can never belong, whatever it holds: such keys of a notice are
   * not read at all. A value's id names its attribute ("{itemId}.{attributeId}"), so a column skips
   * the other columns' values of a streamed page instead of reading each to look.
   */
  mayBelong?(id: string): boolean;
}

/** Every value of some attributes (a value column: what a view sorts, groups or places items by). */
export function valueListSource(attributeIds: Iterable<string>): ListSource<StoredRecord> {
  const attributes = new Set(attributeIds);
  return {
    collection: 'value',
    // Side by side: IndexedDB reads the next range while this thread deserialises the last.
    load: async (db) => (await Promise.all([...attributes].map((id) => db.records.where('[collection+attribute_id]').equals(['value', id]).toArray()))).flat(),
    belongs: (r) => attributes.has(String(r.attribute_id)),
    mayBelong: (id) => attributes.has(attributeOfValueId(id)),
  };
}

/**
 * One list of the replica, by id, kept current from change notices. `snapshot()` is the array
 * (undefined until the first read); it changes identity only when a record in it changed.
 */
export class RecordList<T extends StoredRecord> {
  private byId = new Map<string, T>();
  private array: T[] | undefined;
  /** Which version `array` was built at: the array is built when asked, not on every change. */
  private arrayVersion = -1;
  /** Counts changes; undefined until the first read. */
  private current: number | undefined;
  private readonly subscribers = new Set<() => void>();
  private queue: Promise<void> = Promise.resolve();
  private pending: Key[] = [];
  private reloadAsked = false;
  private off: (() => void) | null = null;
  /** Full reads so far (tests check that an edit does not cause one). */
  loads = 0;
  /** Records read to patch the list (tests check a column skips other columns' values). */
  keysRead = 0;
  /** The ids each recent change touched, by the version it made (null: not known, a full read). */
  private log: { version: number; ids: string[] | null }[] = [];

  constructor(
    private readonly db: CairnDexie,
    private readonly source: ListSource<T>,
  ) {}

  /**
   * The list as an array (undefined until the first read); the same array until a record in it
   * changes. Built on demand, so a list read only by `lookup` (a value column) never copies itself.
   */
  snapshot = (): T[] | undefined => {
    if (this.current === undefined) return undefined;
    if (this.arrayVersion !== this.current) {
      this.array = [...this.byId.values()];
      this.arrayVersion = this.current;
    }
    return this.array;
  };

  /** A number that changes with every change of the list (undefined until the first read): a cheap snapshot. */
  version = (): number | undefined => this.current;

  /**
   * The ids of the records that changed between two versions (added, changed or removed), or
   * null when that is not known (the first read, too long ago): what a view kept in order
   * re-checks after a value edit instead of every item (model/item-order.ts).
   */
  changedBetween(from: number, to: number): string[] | null {
    if (from === to) return [];
    if (from > to || this.log.length === 0 || this.log[0]!.version > from + 1 || this.log[this.log.length - 1]!.version < to) return null;
    const ids: string[] = [];
    for (const entry of this.log) {
      if (entry.version <= from || entry.version > to) continue;
      if (entry.ids === null) return null;
      for (const id of entry.ids) ids.push(id);
    }
    return ids;
  }

  /** The record with this id as the list holds it now (no copy; O(1)). */
  lookup(id: string): T | undefined {
    return this.byId.get(id);
  }

  subscribe = (onChange: () => void): (() => void) => {
    this.subscribers.add(onChange);
    if (!this.off) this.start();
    return () => {
      this.subscribers.delete(onChange);
    };
  };

  get watching(): boolean {
    return this.subscribers.size > 0;
  }

  /** Stops following changes (the list is dropped from the cache). */
  stop(): void {
    this.off?.();
    this.off = null;
  }

  /** Settles when every notice received so far is applied (tests). */
  settled(): Promise<void> {
    return this.queue;
  }

  private start(): void {
    // Follow first, then read: a write between the two is patched in after the read.
    this.off = onRecordsChanged(this.db.name, (change) => this.changed(change));
    this.reloadAsked = true;
    this.schedule();
  }

  private changed(change: RecordChange): void {
    if (change.all) this.reloadAsked = true;
    else {
      const { collection, mayBelong } = this.source;
      for (const key of change.keys) if (key[0] === collection && (!mayBelong || mayBelong(key[1]) || this.byId.has(key[1]))) this.pending.push(key);
    }
    if (this.reloadAsked || this.pending.length) this.schedule();
  }

  /** Notices are applied one round at a time, in order; a round takes every notice so far. */
  private schedule(): void {
    this.queue = this.queue.then(() => this.round()).catch(() => undefined);
  }

  private async round(): Promise<void> {
    if (this.reloadAsked) {
      this.reloadAsked = false;
      this.pending = [];
      this.loads++;
      const rows = await this.source.load(this.db);
      const next = new Map<string, T>();
      const first = this.current === undefined;
      const ids: string[] = [];
      for (const row of rows) {
        const before = this.byId.get(row.id);
        // Keep the object of a record that did not change (memoised rows compare by identity).
        if (before && sameRecord(before, row)) next.set(row.id, before);
        else {
          next.set(row.id, row);
          if (!first) ids.push(row.id);
        }
      }
      if (!first) for (const id of this.byId.keys()) if (!next.has(id)) ids.push(id);
      this.byId = next;
      if (first || ids.length) this.publish(first ? null : ids);
      return;
    }
    if (this.pending.length === 0) return;
    const keys = dedupe(this.pending);
    this.pending = [];
    this.keysRead += keys.length;
    const rows = (await this.db.records.bulkGet(keys)) as (T | undefined)[];
    const ids: string[] = [];
    keys.forEach(([, id], i) => {
      const row = rows[i];
      const before = this.byId.get(id);
      if (row && this.source.belongs(row)) {
        if (before && sameRecord(before, row)) return;
        this.byId.set(id, row);
        ids.push(id);
      } else if (before) {
        this.byId.delete(id);
        ids.push(id);
      }
    });
    if (ids.length) this.publish(ids);
  }

  private publish(ids: string[] | null): void {
    this.current = (this.current ?? 0) + 1;
    this.log.push({ version: this.current, ids });
    if (this.log.length > LOG_LENGTH) this.log.shift();
    for (const notify of [...this.subscribers]) notify();
  }
}

/** Changes remembered for changedBetween (a view catches up on a few renders' worth). */
const LOG_LENGTH = 64;

function dedupe(keys: Key[]): Key[] {
  const seen = new Map<string, Key>();
  for (const key of keys) seen.set(`${key[0]}\u0000${key[1]}`, key);
  return [...seen.values()];
}

/** Same record field by field (a conflict may adopt another copy at the same row_version). */
export function sameRecord(a: object, b: object): boolean {
  if (a === b) return true;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    const v = x[k];
    const w = y[k];
    if (v === w) continue;
    if (typeof v !== 'object' || typeof w !== 'object' || v === null || w === null || JSON.stringify(v) !== JSON.stringify(w)) return false;
  }
  return true;
}

/**
 * The lists in use, shared by every hook that asks for the same one; the last few left are kept
 * (and kept current) so a board opened again shows at once.
 */
const lists = new Map<string, RecordList<StoredRecord>>();
const KEEP_UNUSED = 24;

/**
 * A record as a list already read and kept current holds it (no IndexedDB read, no list made):
 * undefined when no such list was read or it does not hold the record.
 */
export function heldRecord(db: CairnDexie, key: string, id: string): StoredRecord | undefined {
  const list = lists.get(`${db.name}\u0000${key}`);
  return list && list.version() !== undefined ? list.lookup(id) : undefined;
}

export function recordList<T extends StoredRecord>(db: CairnDexie, key: string, source: () => ListSource<T>): RecordList<T> {
  const id = `${db.name}\u0000${key}`;
  let list = lists.get(id) as RecordList<T> | undefined;
  if (list) {
    // Most recently asked last: the oldest unused ones go first.
    lists.delete(id);
    lists.set(id, list as unknown as RecordList<StoredRecord>);
  } else {
    list = new RecordList(db, source());
    lists.set(id, list as unknown as RecordList<StoredRecord>);
  }
  const unused = [...lists.entries()].filter(([, l]) => !l.watching && l !== (list as unknown));
  for (const [k, l] of unused.slice(0, Math.max(0, unused.length - KEEP_UNUSED))) {
    l.stop();
    lists.delete(k);
  }
  return list;
}
