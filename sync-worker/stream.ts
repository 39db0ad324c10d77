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
 */
import Dexie from 'dexie';
import { toStored, tombstoneKey, type Tombstones } from './apply';
import type { UserDb } from './db';
import { applyRemoteChange } from './merge';
import type { StoredRecord, SyncRecord } from './types';

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
 * Records per bulkPut call inside a batch. Dexie's change tracking names each key a bulkPut of
 * fewer than 50 writes, but marks the WHOLE table changed for a larger one, which makes every live
 * query of every tab read again (and the tab patches its lists per key: src/boards/store/live.ts).
 */
export const PUT_CHUNK = 49;

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
  const held = new Set((await t.records.where('[collection+board_id]').equals([opts.collection, opts.boardId]).primaryKeys()).map((k) => (k as [string, string])[1]));
  const write = async (records: SyncRecord[]) => {
    for (const r of records) held.delete(r.id);
    await writeIndexRecords(opts.db, opts.collection, records, opts.tombstones(), opts.writeBatch);
  };
  const firstSize = opts.firstPage ?? FIRST_PAGE;
  let first: IndexPage;
  let startAfter: string | null;
  if (opts.fetchHead) {
    const head = await opts.fetchHead(firstSize);
    first = { data: head.data, cursor: head.cursor, next: null };
    await write(head.data);
    if (!head.rest) {
      await removeUnlisted(opts.db, opts.collection, held);
      return { first, done: true, complete: Promise.resolve() };
    }
    startAfter = null;
  } else {
    first = await opts.fetchPage(null, firstSize);
    await write(first.data);
    if (first.next === null) {
      await removeUnlisted(opts.db, opts.collection, held);
      return { first, done: true, complete: Promise.resolve() };
    }
    startAfter = first.next;
  }
  const complete = (async () => {
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
    await removeUnlisted(opts.db, opts.collection, held);
  })();
  complete.catch(() => undefined);
  return { first, done: false, complete };
}

/**
 * Writes server copies of one collection in batches of `batch` records, each its own transaction,
 * yielding between them. Newer-or-equal server copies replace ours; busy records (a draft or a
 * queued request) are left alone, a draft's `previous` follows a newer copy.
 */
export async function writeIndexRecords(db: UserDb, collection: string, records: SyncRecord[], tombstones: Tombstones | undefined, batch = WRITE_BATCH): Promise<void> {
  for (let start = 0; start < records.length; start += batch) {
    if (start > 0) await yieldToOthers();
    await writeBatch(db, collection, records.slice(start, start + batch), tombstones);
  }
}

async function writeBatch(db: UserDb, collection: string, records: SyncRecord[], tombstones: Tombstones | undefined): Promise<void> {
  if (records.length === 0) return;
  const t = db.relaxed;
  await t.transaction('rw', [t.records, t.failedRequests, t.drafts], async () => {
    const keys = records.map((r) => [collection, r.id] as [string, string]);
    const [stored, drafts, queued] = await Promise.all([
      t.records.bulkGet(keys),
      t.drafts.bulkGet(keys),
      // The queue of one collection is short (it holds what is not yet sent): one range read.
      t.failedRequests.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
    ]);
    const busy = new Set(queued.map((q) => q.id));
    const puts: StoredRecord[] = [];
    const draftPuts = [];
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      const draft = drafts[i];
      if (draft) {
        const next = applyRemoteChange(draft.previous, 'saved', record);
        if (next !== undefined) draftPuts.push({ ...draft, previous: next });
        continue;
      }
      if (busy.has(record.id)) continue;
      const mine = stored[i];
      if (mine && record.row_version < mine.row_version) continue;
      if (!mine && tombstones && (tombstones.get(tombstoneKey(collection, record.id)) ?? -1) >= record.row_version) continue;
      puts.push(toStored(collection, record));
    }
    for (let i = 0; i < puts.length; i += PUT_CHUNK) await t.records.bulkPut(puts.slice(i, i + PUT_CHUNK));
    if (draftPuts.length) await t.drafts.bulkPut(draftPuts);
  });
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
