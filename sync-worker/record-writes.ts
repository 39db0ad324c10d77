import type { DBCoreMutateRequest, Middleware, DBCore } from 'dexie';

/**
 * Which records were written while a stream runs (decision 0310): a cold page is written without
 * reading the replica first, except the records the replica may hold a newer copy of — those held
 * when the stream began, and those written since. "Written since" is told here, by the writes
 * themselves, as each write is issued inside its transaction: every Dexie write to `records` (a
 * middleware on the worker's handles) and every raw put of a stream (writeBatch notes its own).
 *
 * Session 9 learned it from Dexie's change notices instead. Those arrive when a transaction
 * completes, and a flag hid the streams' own notices from every watcher, another stream's
 * included; one clean-clone CI run wrote a page over a saved edit. A write noted as it is issued
 * is known before any later transaction on `records` can run (IndexedDB runs overlapping
 * read-write transactions one after another), so nothing is missed. A write that aborts later is
 * noted all the same: that only makes its record compared, never written over.
 */

type Key = readonly [string, string];

interface Watcher {
  collection: string;
  ids: Set<string>;
  all: boolean;
}

const watchers = new Map<string, Set<Watcher>>();

/** Notes writes to `records` of database `dbName`: their keys, or 'all' (a range delete, a clear). */
export function noteRecordWrites(dbName: string, keys: Iterable<Key> | 'all'): void {
  const set = watchers.get(dbName);
  if (!set || set.size === 0) return;
  if (keys === 'all') {
    for (const w of set) w.all = true;
    return;
  }
  for (const key of keys) for (const w of set) if (!w.all && key[0] === w.collection) w.ids.add(key[1]);
}

export interface WriteWatch {
  /** Whether a record of the collection with this id was written since the watch began. */
  has(id: string): boolean;
  stop(): void;
}

/** Watches the writes to `records` of one collection from now on. */
export function watchRecordWrites(dbName: string, collection: string): WriteWatch {
  const watcher: Watcher = { collection, ids: new Set(), all: false };
  let set = watchers.get(dbName);
  if (!set) watchers.set(dbName, (set = new Set()));
  set.add(watcher);
  return {
    has: (id) => watcher.all || watcher.ids.has(id),
    stop() {
      set!.delete(watcher);
      if (set!.size === 0 && watchers.get(dbName) === set) watchers.delete(dbName);
    },
  };
}

const keyOfRecord = (value: unknown): Key | null => {
  const v = value as { collection?: unknown; id?: unknown } | null;
  return v && typeof v.collection === 'string' && typeof v.id === 'string' ? [v.collection, v.id] : null;
};

/** The keys a mutation of `records` writes, or 'all' when it cannot say (a range, an odd key). */
export function keysOfMutation(req: DBCoreMutateRequest): Key[] | 'all' {
  const keys: Key[] = [];
  if (req.type === 'deleteRange') return 'all';
  if (req.type === 'delete') {
    for (const key of req.keys) {
      if (!Array.isArray(key) || typeof key[0] !== 'string' || typeof key[1] !== 'string') return 'all';
      keys.push([key[0], key[1]]);
    }
    return keys;
  }
  // add / put: the keys are the records' own ([collection+id], inbound).
  for (const value of req.values) {
    const key = keyOfRecord(value);
    if (!key) return 'all';
    keys.push(key);
  }
  return keys;
}

/** The Dexie middleware that notes every write to `records` of database `dbName` as it is issued. */
export function recordWritesMiddleware(dbName: string): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'cairn-record-writes',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (name !== 'records') return table;
          return {
            ...table,
            mutate(req) {
              // Keys are worked out only while a stream watches (most writes happen with none).
              if (watchers.get(dbName)?.size) noteRecordWrites(dbName, keysOfMutation(req));
              return table.mutate(req);
            },
          };
        },
      };
    },
  };
}
