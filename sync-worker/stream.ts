/**
 * Streaming index loads (docs/decisions/0101-streaming-opens.md): one index address (a collection
 * of one board) fetched page by page (`limit`/`after`) and written into the replica in small
 * transactions, so the first page is on screen while the rest streams in and the open board's
 * reads and the user's writes get the database between two batches.
 *
 * Merge rules are those of a full index load (apply.ts replaceIndex): a server copy is taken when
 * it is newer than or as new as ours; records with a draft or a queued request stay as the user
 * left them (a draft's `previous` follows the server); a copy not newer than one seen deleted is
 * not brought back; at the end, what we held before the load and the server no longer listed is
 * removed.
 *
 * The writes themselves (decision 0310): a cold open has nothing of the board, so a page is written
 * without reading the replica first, except the records it may already hold (those held when the
 * stream began, and those written since: each write notes itself as it is issued, record-writes.ts), and the
 * records go in with plain IndexedDB puts, one transaction per batch. Dexie would mark the whole
 * table changed for a bulkPut of 50 or more (every live list of every tab reads itself again), so
 * the stream tells the tabs itself, once per batch, in Dexie's own notice: the keys written and
 * the index keys they fall under, exactly what Dexie names for a small bulkPut.
 */
import Dexie, { RangeSet, type IndexableType, type ObservabilitySet } from 'dexie';
import { toStored, tombstoneKey, type Tombstones } from './apply';
import type { UserDb } from './db';
import { applyRemoteChange } from './merge';
import { noteRecordWrites, watchRecordWrites, type WriteWatch } from './record-writes';
import type { DraftEntry, StoredRecord, SyncRecord } from './types';

/** The first page: enough rows for the first screen, small enough to arrive at once. */
export const FIRST_PAGE = 500;
/** Later pages: few round trips, each well under a second of server time. */
export const NEXT_PAGE = 5_000;
/**
 * Records per write transaction. A readwrite transaction on `records` holds back every other
 * transaction on it (the tab's reads too) until it completes: ~1,000 puts keep that to tens of ms.
 */
export const WRITE_BATCH = 1_000;
/**
 * Records per bulkDelete call (what a refresh removes). Dexie's change tracking names each key of
 * a call of fewer than 50, but marks the WHOLE table changed for a larger one, which makes every
 * live query of every tab read again (the tab patches its lists per key: src/boards/store/live.ts).
 * The pages themselves go in as plain puts and are announced by `announce` (decision 0310).
 */
export const PUT_CHUNK = 49;

/**
 * Which records of a batch the replica may hold a copy of that must be compared with the page's
 * (by row version) before it is written over. Without one, every record is read first.
 */
export type MayHold = (id: string) => boolean;

export interface IndexPage {
  data: SyncRecord[];
  cursor: number | null;
  /** Where the next page starts; null on the last (and for a server that does not page). */
  next: string | null;
}

export type PageFetcher = (after: string | null, limit: number) => Promise<IndexPage>;

/** A board's head (`head=n`): its first n items by position, or their values; `rest` when more remain. */
export interface HeadPage {
  data: SyncRecord[];
  cursor: number | null;
  rest: boolean;
}

export type HeadFetcher = (items: number) => Promise<HeadPage>;

export interface StreamOptions {
  db: UserDb;
  collection: string;
  boardId: string;
  fetchPage: PageFetcher;
  /**
   * Items and values: the first screen of a position-sorted table comes first (the first items by
   * position and their values), then every page in id order (the head again among them).
   */
  fetchHead?: HeadFetcher;
  tombstones: () => Tombstones | undefined;
  /**
   * The rest waits for this: an open lets the first pages of every collection, and the tab's first
   * reads of them, go before the stream takes the server and the database.
   */
  restAfter?: Promise<void>;
  firstPage?: number;
  nextPage?: number;
  writeBatch?: number;
}

export interface StreamedIndex {
  /** The first page, already in the replica. */
  first: IndexPage;
  /** True when the first page was the only one (the load is complete when this answers). */
  done: boolean;
  /** Every page stored and what the server no longer lists removed. */
  complete: Promise<void>;
}

/** Fetches and stores the first page (or the head), then streams the rest behind it. */
export async function streamIndex(opts: StreamOptions): Promise<StreamedIndex> {
  const t = opts.db.relaxed;
  // What we held before: after the last page, whatever of it the server did not list is gone.
  // (Ids only; a cold open has none, so a first open never keeps a list of the board's ids.)
  // Writes from here on are watched first, so none falls between the read of `held` and the watch.
  const written = watchRecordWrites(opts.db.relaxed.name, opts.collection);
  let held: Set<string>;
  try {
    held = new Set((await t.records.where('[collection+board_id]').equals([opts.collection, opts.boardId]).primaryKeys()).map((k) => (k as [string, string])[1]));
  } catch (error) {
    written.stop();
    throw error;
  }
  // Every page is read from the server after this point: a copy we held before is not newer than
  // the page's unless it is one of the board's (a refresh) or was written since (realtime, deltas,
  // the user's saves, another stream). Those are compared; the rest of a cold open is written
  // straight (record-writes.ts says how the writes since are known).
  const before = new Set(held);
  const mayHold: MayHold = (id) => before.has(id) || written.has(id);
  const write = async (records: SyncRecord[]) => {
    for (const r of records) held.delete(r.id);
    await writeIndexRecords(opts.db, opts.collection, records, opts.tombstones(), opts.writeBatch, mayHold);
  };
  try {
    return await streamRest(opts, held, write, written);
  } catch (error) {
    written.stop();
    throw error;
  }
}

async function streamRest(opts: StreamOptions, held: Set<string>, write: (records: SyncRecord[]) => Promise<void>, written: WriteWatch): Promise<StreamedIndex> {
  const firstSize = opts.firstPage ?? FIRST_PAGE;
  let first: IndexPage;
  let startAfter: string | null;
  if (opts.fetchHead) {
    const head = await opts.fetchHead(firstSize);
    first = { data: head.data, cursor: head.cursor, next: null };
    await write(head.data);
    if (!head.rest) {
      written.stop();
      await removeUnlisted(opts.db, opts.collection, held);
      return { first, done: true, complete: Promise.resolve() };
    }
    startAfter = null;
  } else {
    first = await opts.fetchPage(null, firstSize);
    await write(first.data);
    if (first.next === null) {
      written.stop();
      await removeUnlisted(opts.db, opts.collection, held);
      return { first, done: true, complete: Promise.resolve() };
    }
    startAfter = first.next;
  }
  const complete = (async () => {
    try {
      await streamPages(opts, startAfter, write);
    } finally {
      written.stop();
    }
    await removeUnlisted(opts.db, opts.collection, held);
  })();
  complete.catch(() => undefined);
  return { first, done: false, complete };
}

async function streamPages(opts: StreamOptions, startAfter: string | null, write: (records: SyncRecord[]) => Promise<void>): Promise<void> {
  await opts.restAfter;
  let next: Promise<IndexPage> = opts.fetchPage(startAfter, opts.nextPage ?? NEXT_PAGE);
  for (;;) {
    const page = await next;
    // The next page travels while this one is written.
    const following = page.next === null ? null : opts.fetchPage(page.next, opts.nextPage ?? NEXT_PAGE);
    following?.catch(() => undefined);
    await write(page.data);
    if (!following) break;
    next = following;
  }
}

/**
 * Writes server copies of one collection in batches of `batch` records, each its own transaction,
 * yielding between them. Newer-or-equal server copies replace ours; busy records (a draft or a
 * queued request) are left alone, a draft's `previous` follows a newer copy. Only the records
 * `mayHold` names are read and compared first (all of them without it).
 */
export async function writeIndexRecords(db: UserDb, collection: string, records: SyncRecord[], tombstones: Tombstones | undefined, batch = WRITE_BATCH, mayHold?: MayHold): Promise<void> {
  for (let start = 0; start < records.length; start += batch) {
    if (start > 0) await yieldToOthers();
    await writeBatch(db, collection, records.slice(start, start + batch), tombstones, mayHold);
  }
}

async function writeBatch(db: UserDb, collection: string, records: SyncRecord[], tombstones: Tombstones | undefined, mayHold: MayHold | undefined): Promise<void> {
  if (records.length === 0) return;
  const t = db.relaxed;
  const puts: StoredRecord[] = [];
  await t.transaction('rw', [t.records, t.failedRequests, t.drafts], async (tx) => {
    // Drafts and the queue hold what is not saved yet: short, one range read each.
    const [drafts, queued] = await Promise.all([
      t.drafts.where(':id').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
      t.failedRequests.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
    ]);
    // (Past that await, the notices of every write that committed before this transaction began
    // have been heard: `mayHold` knows them.)
    const draftOf = new Map(drafts.map((d) => [d.id, d]));
    const busy = new Set(queued.map((q) => q.id));
    const compare = records.filter((r) => !draftOf.has(r.id) && !busy.has(r.id) && (!mayHold || mayHold(r.id)));
    const stored = compare.length ? await t.records.bulkGet(compare.map((r) => [collection, r.id] as [string, string])) : [];
    const mine = new Map(compare.map((r, i) => [r.id, stored[i]]));
    const draftPuts: DraftEntry[] = [];
    for (const record of records) {
      const draft = draftOf.get(record.id);
      if (draft) {
        const next = applyRemoteChange(draft.previous, 'saved', record);
        if (next !== undefined) draftPuts.push({ ...draft, previous: next });
        continue;
      }
      if (busy.has(record.id)) continue;
      const ours = mine.get(record.id);
      if (ours && record.row_version < ours.row_version) continue;
      if (!ours && tombstones && (tombstones.get(tombstoneKey(collection, record.id)) ?? -1) >= record.row_version) continue;
      puts.push(toStored(collection, record));
    }
    // Plain puts on the transaction: Dexie's bookkeeping per write is most of a bulkPut's cost
    // here, and the tabs are told below, key by key, as Dexie would for a small bulkPut.
    const store = tx.idbtrans.objectStore('records');
    // Raw puts pass no Dexie middleware: told here, for the other streams running (and this one's
    // later pages, which a head page's records come back in).
    noteRecordWrites(t.name, puts.map((row) => [collection, row.id] as const));
    for (const row of puts) store.put(row);
    if (draftPuts.length) await t.drafts.bulkPut(draftPuts);
  });
  if (puts.length) announce(t, puts);
}

/**
 * Tells the tabs (and this worker's own listeners) which records were written: Dexie's change
 * notice, which crosses to every tab on Dexie's BroadcastChannel, with the primary keys and the
 * index keys of the rows, as Dexie's own notice for a small bulkPut of new rows names them.
 */
function announce(t: UserDb['relaxed'], rows: StoredRecord[]): void {
  const prefix = `idb://${t.name}/records/`;
  const keys = keySet(rows.map((r) => [r.collection, r.id]));
  const parts: ObservabilitySet = { [prefix]: keys, [`${prefix}:dels`]: keys };
  for (const index of t.records.schema.indexes) {
    const path = index.keyPath;
    if (!Array.isArray(path)) continue;
    const indexKeys: unknown[][] = [];
    for (const row of rows) {
      const key = path.map((p) => (row as Record<string, unknown>)[p]);
      if (!key.some((k) => k === undefined || k === null)) indexKeys.push(key);
    }
    if (indexKeys.length) parts[prefix + index.name] = keySet(indexKeys);
  }
  Dexie.on('storagemutated').fire(parts);
}

interface KeyNode {
  from: unknown[];
  to: unknown[];
  d: number;
  l: KeyNode | null;
  r: KeyNode | null;
}

/**
 * A RangeSet of single keys, as Dexie's `addKeys` builds it, but at once: keys of two strings
 * (the records' keys and index keys here) sorted by code unit — IndexedDB's and Dexie's order for
 * strings — and hung in a balanced tree, instead of one tree insertion (with rebalancing) per key.
 * Any other key shape goes through `addKey`.
 */
export function keySet(keys: unknown[][]): RangeSet {
  const set = new RangeSet();
  if (keys.length === 0) return set;
  const first = keys[0]![0];
  if (typeof first !== 'string' || !keys.every((k) => k.length === 2 && k[0] === first && typeof k[1] === 'string')) {
    for (const k of keys) set.addKey(k as IndexableType);
    return set;
  }
  const seconds = [...new Set(keys.map((k) => k[1] as string))].sort();
  const build = (lo: number, hi: number): KeyNode | null => {
    if (lo > hi) return null;
    const mid = (lo + hi) >> 1;
    const l = build(lo, mid - 1);
    const r = build(mid + 1, hi);
    const key = [first, seconds[mid]!];
    return { from: key, to: key, d: Math.max(l?.d ?? 0, r?.d ?? 0) + 1, l, r };
  };
  return Object.assign(set, build(0, seconds.length - 1));
}

/** Removes the records we held that the server no longer lists (not those with a draft or a queued request). */
async function removeUnlisted(db: UserDb, collection: string, ids: Set<string>): Promise<void> {
  if (ids.size === 0) return;
  const t = db.relaxed;
  await t.transaction('rw', [t.records, t.failedRequests, t.drafts], async () => {
    const keys = [...ids].map((id) => [collection, id] as [string, string]);
    const [drafts, queued] = await Promise.all([
      t.drafts.bulkGet(keys),
      t.failedRequests.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
    ]);
    const busy = new Set(queued.map((q) => q.id));
    const gone = keys.filter((k, i) => !drafts[i] && !busy.has(k[1]));
    for (let i = 0; i < gone.length; i += PUT_CHUNK) await t.records.bulkDelete(gone.slice(i, i + PUT_CHUNK));
  });
}

/** Lets other work (realtime events, the user's saves, the tabs' reads) take the database. */
function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
