import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants as zlibConstants, crc32, deflateRaw as deflateRawCallback, gzip as gzipCallback, type ZlibOptions } from 'node:zlib';
import { collectionByName, type DeltaChange, type SyncedCollectionName } from '../../schema/collections';
import { encodeChange, leanAnswerJson, type EncodedChange } from '../../schema/changes-wire';
import { loadReadContext, type ReadContext, type ReadView } from './reads';
import type { Db, WireRecord } from './store';
import { changeHorizon } from './cursor';
import { boardsToReindex } from './compaction';
import { serverIdentity } from './identity';

/**
 * GET /api/{teamId}/changes?after={seq}[&board_id=] — every record changed after the cursor, once,
 * as its latest copy (op saved), its trashed copy (op deleted, record with deleted_at) or a
 * tombstone (op deleted, record null), limited to what the user may view. Pages of at most
 * DELTA_PAGE changes (a block of ALIGN_CHANGES more for a reader far behind): `has_more` says to
 * ask again from the returned cursor.
 *
 * Why the cursor is safe: only changes up to the change horizon are read (cursor.ts, decision
 * 0031), and every number up to it belongs to a writer that had finished before the rows were
 * read, so nothing below a returned cursor can appear later. Writers never wait for readers.
 */
export const DELTA_PAGE = 5000;

/**
 * Readers more than this many change numbers behind the horizon share page reads by blocks of this
 * many numbers (decision 0285). After a deploy, clients reconnect with cursors that are close but
 * seldom equal; a page read from each cursor was one read, one serialisation and one gzip per
 * client (100 clients, 10,000 changes: ~19 CPU-seconds of servers and database instead of ~1.5).
 * Read from the block's start, one page serves every cursor in the block: each reader's answer
 * leaves out what changed last at or before its own cursor, and its next page (from the page's
 * end, the same for all of them) is shared as a whole. A reader spends at most this many numbers'
 * worth of rows it already has (fewer than a page: it always moves on); readers near the head are
 * not aligned, so a pull after a realtime ping still reads only what is new.
 */
export const ALIGN_CHANGES = 1024;

const gzip = promisify(gzipCallback) as (text: string, options: ZlibOptions) => Promise<Buffer>;
const deflateRaw = promisify(deflateRawCallback) as (text: string, options: ZlibOptions) => Promise<Buffer>;

export interface DeltaPage {
  data: DeltaChange[];
  cursor: number;
  has_more: boolean;
  /** The database's identity (decision 0102): a replica made from another one must load again. */
  server_id: string;
}

/** A reader's /changes answer as bytes to send: the JSON text, and gzip of it made on first ask. */
export interface ChangesAnswer {
  json: string;
  gzipped(): Promise<Buffer>;
}

/** Answers shorter than this go out as they are (compressing them saves less than it costs). */
export const GZIP_FROM_CHARS = 16_384;
/**
 * At most this many distinct answers are kept per shared page (readers with other lists still get
 * theirs, made for them). With RETAIN_PAGES this bounds what a process keeps: a full page is ~5 MB
 * of copies and ~1.7 MB of JSON per answer (a fifth more for a page read from a block's start), so
 * at most ~120 MB, for 5 s after a herd.
 */
const ANSWERS_PER_PAGE = 4;

/**
 * A reader's page of changes (what the reader may hear of, decision 0090), as the text the route
 * sends. Each change's JSON is made once per shared page and reused by every reader it goes to,
 * and a reader whose judged answer is the very
 * same list of changes as an earlier reader's gets that reader's text and its gzip: a page of 5,000
 * items is ~1.7 MB of JSON (~120 KB gzipped), and making and sending it for each of a hundred
 * readers reconnecting at once was most of a thundering herd's cost (decision 0192). What goes
 * into a reader's answer is still judged for that reader alone; answers are shared by their
 * content (the judged list), never by who asked.
 */
export async function changesAnswer(db: Db, view: ReadView, after: number, boardId: string | null, format: 1 | 2 = 1): Promise<ChangesAnswer> {
  const { page, entries, cursor, hasMore, serverId, suffixFrom } = await judgedPage(db, view, after, boardId);
  // Boards whose compaction horizon is above the cursor (decision 0351): read after the page, so
  // a horizon raised before the page was read is seen. Named only to readers who may see the
  // board (or when it is gone for good, like its removal). Such an answer is the reader's own.
  const reindex = (await boardsToReindex(db, view.team.id, after, boardId)).filter((b) => view.chain(b) === null || view.canViewFolder(b));
  // A reader who may hear of everything on a page read from its block's start gets the page's
  // changes from its cursor on: made from the page's text and gzip, shared by every such reader
  // (decision 0320).
  // Readers from the same cursor share the very answer (kept like the others, below).
  if (reindex.length === 0 && format === 2 && page !== null && suffixFrom != null && suffixFrom > 0 && entries.length > 0) {
    const key = `2:from:${suffixFrom}`;
    let answer = page.answers.get(key);
    if (!answer) {
      answer = leanSuffixAnswer(page, suffixFrom, serverId);
      if (page.answers.size < ANSWERS_PER_PAGE) page.answers.set(key, answer);
    }
    return answer;
  }
  const build = (): ChangesAnswer => {
    // Format 2 (schema/changes-wire.ts, decision 0320): field names once per shape, values as arrays.
    let json =
      format === 2
        ? leanAnswerJson(page === null ? [] : entries.map((key) => leanChange(page, key)), cursor, hasMore, serverId)
        : `{"data":[${(page === null ? [] : entries.map((key) => changeJson(page, key))).join(',')}],"cursor":${cursor},"has_more":${hasMore},"server_id":${JSON.stringify(serverId)}}`;
    if (reindex.length) json = `${json.slice(0, -1)},"reindex":${JSON.stringify(reindex)}}`;
    let zipped: Promise<Buffer> | null = null;
    // Off the event loop (zlib runs in libuv's thread pool). Level 1: a 1.8 MB page of changes
    // comes to 88 KB against 87 KB at level 4, in 30–50 % less time (decision 0285); each reader
    // whose list is its own (cursors in one block, decision 0285) has its answer compressed alone.
    return { json, gzipped: () => (zipped ??= gzip(json, { level: 1 })) };
  };
  if (page === null || reindex.length) return build();
  // Most readers hear of every change on the page; anyone else's answer is named by its list.
  const key = `${format}:${entries.length === page.order.length ? 'all' : createHash('sha1').update(entries.join('\n')).digest('base64')}`;
  let answer = page.answers.get(key);
  if (!answer) {
    answer = build();
    if (page.answers.size < ANSWERS_PER_PAGE) page.answers.set(key, answer);
  }
  return answer;
}

function changeJson(page: SharedPage, key: string): string {
  let text = page.json.get(key);
  if (text === undefined) {
    const change = page.latest.get(key)!;
    const copy = page.current.get(key);
    const entry: DeltaChange = { collection: change.collection as SyncedCollectionName, id: change.id, op: copy && !copy.deleted ? 'saved' : 'deleted', record: copy ? copy.data : null };
    text = JSON.stringify(entry);
    page.json.set(key, text);
  }
  return text;
}

/** A change in format 2 (schema/changes-wire.ts), encoded once per shared page like changeJson. */
function leanChange(page: SharedPage, key: string): EncodedChange {
  let encoded = page.lean.get(key);
  if (encoded === undefined) {
    const change = page.latest.get(key)!;
    const copy = page.current.get(key);
    encoded = encodeChange(change.collection, change.id, copy && !copy.deleted ? 'saved' : 'deleted', copy ? copy.data : null);
    page.lean.set(key, encoded);
  }
  return encoded;
}

/**
 * Rows per piece of a page's format-2 text that is compressed once and shared (leanSuffixAnswer).
 * A reader's own part is at most this many rows (~40 KB of JSON), compressed for it alone.
 */
export const SHARED_ROWS = 256;

/** The page's format-2 text for readers who hear of all of it, in pieces of SHARED_ROWS rows. */
interface LeanPage {
  /** `{"format":2,"shapes":[…],"data":[` — the shapes of the whole page. */
  head: string;
  /** Each row of the page, in order, with the comma before it (the first's is dropped). */
  rows: string[];
  /** Rows [n·SHARED_ROWS, (n+1)·SHARED_ROWS) as one text, and as raw deflate ending on a byte (sync flush). */
  pieces: { text: string; deflated: Promise<Buffer> | null }[];
  /** `],"cursor":…}` and its raw deflate, the stream's last block. */
  tail: string;
  tailDeflated: Promise<Buffer> | null;
  /** For the pieces from n on and the tail: the CRC-32 and byte length of their text, made once. */
  sharedCrc: Map<number, { crc: number; bytes: number }>;
}

function leanPage(page: SharedPage, serverId: string): LeanPage {
  if (page.leanAll) return page.leanAll;
  const shapes = new Map<string, number>();
  const rows: string[] = new Array(page.order.length);
  for (let i = 0; i < page.order.length; i += 1) {
    const change = leanChange(page, page.order[i]!.key);
    let n = shapes.get(change.shape);
    if (n === undefined) shapes.set(change.shape, (n = shapes.size));
    rows[i] = `,\n[${n}${change.values}]`;
  }
  const pieces: LeanPage['pieces'] = [];
  for (let at = 0; at < rows.length; at += SHARED_ROWS) pieces.push({ text: rows.slice(at, at + SHARED_ROWS).join(''), deflated: null });
  page.leanAll = {
    head: `{"format":2,"shapes":[${[...shapes.keys()].join(',')}],"data":[`,
    rows,
    pieces,
    tail: `],"cursor":${page.cursor},"has_more":${page.hasMore},"server_id":${JSON.stringify(serverId)}}`,
    tailDeflated: null,
    sharedCrc: new Map(),
  };
  return page.leanAll;
}

const SYNC_FLUSH: ZlibOptions = { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH };

/**
 * The answer of a reader who may hear of every change on a block-aligned page: the page's changes
 * from place `from` on (what changed after its cursor), in format 2. Its text is the page's
 * (shapes of the whole page, every one the reader may read); its gzip is put together from pieces
 * compressed once per page: a gzip header, the reader's own rows up to the next piece's start
 * (compressed for it, ending on a byte with a sync flush), the shared pieces after it (each
 * compressed alone, ending likewise, so they follow any byte-aligned deflate data), the shared
 * tail (the last block), and the trailer (CRC-32 and length of the whole text). A herd of readers
 * with close cursors (after a deploy) then costs one compression of the page, not one per reader
 * (bench/scale-out.ts HERD_CURSORS=spread, decision 0320).
 */
function leanSuffixAnswer(page: SharedPage, from: number, serverId: string): ChangesAnswer {
  const lean = leanPage(page, serverId);
  const next = Math.min(lean.rows.length, Math.ceil((from + 1) / SHARED_ROWS) * SHARED_ROWS);
  const own = lean.head + lean.rows[from]!.slice(1) + lean.rows.slice(from + 1, next).join('');
  const shared = lean.pieces.slice(next / SHARED_ROWS);
  const sharedText = shared.map((p) => p.text).join('') + lean.tail;
  const json = own + sharedText;
  let zipped: Promise<Buffer> | null = null;
  const build = async (): Promise<Buffer> => {
    const parts = await Promise.all([
      deflateRaw(own, SYNC_FLUSH),
      ...shared.map((p) => (p.deflated ??= deflateRaw(p.text, SYNC_FLUSH))),
      (lean.tailDeflated ??= deflateRaw(lean.tail, { level: 1 })),
    ]);
    // The trailer from the reader's own part and the shared rest's CRC-32, made once per page.
    let rest = lean.sharedCrc.get(next);
    if (!rest) lean.sharedCrc.set(next, (rest = { crc: crc32(sharedText), bytes: Buffer.byteLength(sharedText) }));
    const ownBytes = Buffer.byteLength(own);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32Combine(crc32(own), rest.crc, rest.bytes), 0);
    trailer.writeUInt32LE((ownBytes + rest.bytes) % 0x1_0000_0000, 4);
    // ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952).
    return Buffer.concat([GZIP_HEADER, ...parts, trailer]);
  };
  return { json, gzipped: () => (zipped ??= build()) };
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The CRC-32 of A followed by B from crc(A), crc(B) and B's length in bytes (zlib's
 * crc32_combine, which Node does not expose): B's CRC register is advanced over len2 zero bytes by
 * squaring the one-zero-bit operator in GF(2). ~0.1 ms, instead of reading a page's text again.
 */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const times = (mat: Uint32Array, vec: number) => {
    let sum = 0;
    for (let i = 0; vec !== 0; i += 1, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
    return sum >>> 0;
  };
  const square = (out: Uint32Array, mat: Uint32Array) => {
    for (let n = 0; n < 32; n += 1) out[n] = times(mat, mat[n]!);
  };
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial: the operator for one zero bit
  for (let n = 1, row = 1; n < 32; n += 1, row <<= 1) odd[n] = row >>> 0;
  square(even, odd); // two zero bits
  square(odd, even); // four zero bits
  let crc = crc1 >>> 0;
  let len = len2;
  do {
    square(even, odd);
    if (len % 2 === 1) crc = times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    square(odd, even);
    if (len % 2 === 1) crc = times(odd, crc);
    len = Math.floor(len / 2);
  } while (len !== 0);
  return (crc ^ crc2) >>> 0;
}

interface JudgedPage {
  /** Null when the page is empty or the cursor is from another database. */
  page: SharedPage | null;
  /** The keys of the page's changes this reader may hear of, in change order. */
  entries: string[];
  cursor: number;
  hasMore: boolean;
  serverId: string;
  /**
   * When the reader may hear of every change on the page: the place of its first change (its
   * answer is the page's changes from there on). Null otherwise.
   */
  suffixFrom?: number | null;
}

/** Reads (or shares) the page after the cursor and judges it for this reader (decision 0090). */
async function judgedPage(db: Db, view: ReadView, after: number, boardId: string | null): Promise<JudgedPage> {
  // Its own statement, before the rows' snapshot.
  const horizon = await changeHorizon(db);
  const serverId = await serverIdentity(db);
  // A cursor past the horizon was never handed out by this database: the client's replica comes
  // from another one (a reset, a restored backup). Answer the horizon, below what it asked from,
  // so it knows to load again (decision 0102) instead of waiting for numbers that mean other things.
  if (after > horizon) return { page: null, entries: [], cursor: horizon, hasMore: false, serverId };
  // A reader far behind reads the page from the start of its block of change numbers, shared by
  // every reader whose cursor is in that block; its answer holds only what changed after its own
  // cursor (below). A reader near the head reads exactly from its cursor.
  // Such a page holds a block more (so each of its readers still gets a full page of changes, and
  // a catch-up takes as many requests as before).
  const aligned = horizon - after > ALIGN_CHANGES;
  const from = aligned ? after - (after % ALIGN_CHANGES) : after;
  const page = await sharedPage(db, serverId, view.team.id, from, horizon, boardId, aligned ? DELTA_PAGE + ALIGN_CHANGES : DELTA_PAGE);
  const { cursor, hasMore } = page;
  if (page.order.length === 0) return { page: null, entries: [], cursor, hasMore, serverId };

  // The read rule per collection, on the page's own copies (the filter answers the same objects),
  // marked by their place on the page: ok[i] says the reader may read page.order[i]'s copy.
  const ok = new Uint8Array(page.order.length);
  for (const [collection, records] of page.byCollection) {
    markReadable(records, await view.filter(db, collection, records), page.byCollectionAt.get(collection)!, ok);
  }

  // Values gone for good still name their item (their id is item.attribute): judged like a live value.
  let readableGoneValues: Set<string> | null = null;
  if (page.goneValues.length) {
    if (!page.goneValueContext) {
      const loading = loadReadContext(db, view.team.id, 'value', page.goneValues);
      page.goneValueContext = loading;
      // A failed read is not kept for the next reader.
      loading.catch(() => {
        if (page.goneValueContext === loading) page.goneValueContext = undefined;
      });
    }
    const context = await page.goneValueContext;
    readableGoneValues = new Set(page.goneValues.filter((v) => view.canRead('value', v, context)).map((v) => v.id));
  }

  const entries: string[] = [];
  // Whether the reader may hear of every change on the page, those before its cursor included,
  // and where its own part starts (the page is in change order, so what it has is a prefix).
  let hearsAll = true;
  let first = page.order.length;
  for (let i = 0; i < page.order.length; i += 1) {
    const { key, change, copy } = page.order[i]!;
    // Trashed copies are judged like live ones (trashed folders are part of the view): a record
    // the reader may not read is not mentioned at all, not even by id (decision 0090).
    const hears = copy
      ? ok[i] === 1
      : change.collection === 'value'
        ? readableGoneValues!.has(change.id) || view.chain(change.board_id) === null
        : mayHearOfRemoval(view, change.collection, change.board_id);
    if (!hears) hearsAll = false;
    // Changed last at or before the reader's cursor (a page read from its block's start): it has it.
    if (change.seq <= after) continue;
    if (first === page.order.length) first = i;
    if (hears) entries.push(key);
  }
  return { page, entries, cursor, hasMore, serverId, suffixFrom: hearsAll ? first : null };
}

/**
 * Marks which of `records` are in `kept` (what the read rule let through, a subset of the same
 * objects): `ok[at[n]] = 1` for each kept `records[n]`. ReadView.filter keeps the records' order,
 * so one walk over both lists does it, without hashing 5,000 objects per reader (a Set of them cost
 * ~1 ms of each reader's page in a herd, decision 0285); should the subset ever come in another
 * order, each record is looked up in a Set of the kept ones instead.
 */
export function markReadable(records: readonly object[], kept: readonly object[], at: readonly number[], ok: Uint8Array): void {
  let n = 0;
  for (const record of kept) {
    while (n < records.length && records[n] !== record) n += 1;
    if (n === records.length) {
      const set = new Set(kept);
      for (let m = 0; m < records.length; m += 1) ok[at[m]!] = set.has(records[m]!) ? 1 : 0;
      return;
    }
    ok[at[n]!] = 1;
    n += 1;
  }
}

type Change = { collection: string; id: string; board_id: string; seq: number };
type Copy = { collection: string; data: WireRecord; deleted: boolean };

interface SharedPage {
  /** One entry per record, in the order of its last change. */
  latest: Map<string, Change>;
  /** The current copy of each record that still exists (trashed or not). */
  current: Map<string, Copy>;
  /** The same, as a list in change order (what each reader's judgement walks). */
  order: { key: string; change: Change; copy: Copy | undefined }[];
  /** Values gone for good, as the read rule takes them (their item named by their id), and their parents. */
  goneValues: WireRecord[];
  goneValueContext?: Promise<ReadContext>;
  /** The current copies by collection, as the read rule takes them, in change order. */
  byCollection: Map<string, WireRecord[]>;
  /** For each of byCollection's lists, the place of each copy in `order`. */
  byCollectionAt: Map<string, number[]>;
  /** Each change's JSON, made on first use and shared by every reader the change goes to. */
  json: Map<string, string>;
  /** Each change in format 2 (decision 0320), made on first use and shared likewise. */
  lean: Map<string, EncodedChange>;
  /** The whole page in format 2, in shared pieces (leanSuffixAnswer), made on first use. */
  leanAll?: LeanPage;
  /** Whole answers by the judged list of changes they hold (changesAnswer). */
  answers: Map<string, ChangesAnswer>;
  cursor: number;
  hasMore: boolean;
}

/**
 * Requests for the same page — same database, workspace, board, cursor and horizon — share one
 * read of the change log and of the current copies, and each change's JSON, while one is in flight
 * and for RETAIN_MS after (per database handle, at most RETAIN_PAGES pages). After a deploy every
 * client of a busy workspace reconnects with the cursor it had, so a hundred readers make one query
 * and one serialisation instead of a hundred (bench/scale-out.ts, decision 0192). The page is
 * judged per reader, as before; it holds nothing another reader may not see until then.
 *
 * Why a shared page is as good as a fresh read: the key holds the horizon, and a copy read for an
 * earlier request is as fresh as that horizon asks — anything newer has a change after the
 * horizon and comes with a later page. A new write moves the horizon, so the next request reads
 * anew.
 */
const RETAIN_MS = 5_000;
const RETAIN_PAGES = 8;
const pagesByDb = new WeakMap<object, Map<string, Promise<SharedPage>>>();

function sharedPage(db: Db, serverId: string, teamId: number, after: number, horizon: number, boardId: string | null, limit: number): Promise<SharedPage> {
  let pages = pagesByDb.get(db as object);
  if (!pages) pagesByDb.set(db as object, (pages = new Map()));
  const key = `${serverId}:${teamId}:${boardId ?? ''}:${after}:${horizon}:${limit}`;
  let page = pages.get(key);
  if (!page) {
    const read = readPage(db, teamId, after, horizon, boardId, limit);
    page = read;
    pages.set(key, read);
    const forget = () => {
      if (pages.get(key) === read) pages.delete(key);
    };
    read.then(
      () => setTimeout(forget, RETAIN_MS).unref?.(),
      forget,
    );
    // The oldest pages go first when more are kept (Map order is insertion order).
    for (const old of pages.keys()) {
      if (pages.size <= RETAIN_PAGES) break;
      pages.delete(old);
    }
  }
  return page;
}

async function readPage(db: Db, teamId: number, after: number, horizon: number, boardId: string | null, limit: number): Promise<SharedPage> {
  let query = db
    .selectFrom('change_log')
    .select(['seq', 'collection', 'record_id', 'board_id'])
    .where('team_id', '=', teamId)
    .where('seq', '>', String(after))
    .where('seq', '<=', String(horizon))
    .orderBy('seq')
    .limit(limit + 1);
  if (boardId) query = query.where('board_id', '=', boardId);
  const rows = await query.execute();
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  // A full page ends at its last change; otherwise everything up to the horizon was read (the
  // numbers between belong to other teams or to rolled-back writes).
  const cursor = hasMore ? Number(page[page.length - 1]!.seq) : horizon;

  const latest: SharedPage['latest'] = new Map();
  for (const row of page) {
    const key = `${row.collection}:${row.record_id}`;
    latest.delete(key);
    latest.set(key, { collection: row.collection, id: row.record_id, board_id: row.board_id, seq: Number(row.seq) });
  }
  const current: Map<string, Copy> = latest.size === 0 ? new Map() : await currentCopies(db, teamId, [...latest.values()]);
  const byCollection = new Map<string, WireRecord[]>();
  const byCollectionAt = new Map<string, number[]>();
  const order: SharedPage['order'] = [];
  const goneValues: WireRecord[] = [];
  for (const [key, change] of latest) {
    const copy = current.get(key);
    if (copy) {
      const list = byCollection.get(copy.collection);
      if (list) {
        list.push(copy.data);
        byCollectionAt.get(copy.collection)!.push(order.length);
      } else {
        byCollection.set(copy.collection, [copy.data]);
        byCollectionAt.set(copy.collection, [order.length]);
      }
    }
    order.push({ key, change, copy });
    if (!copy && change.collection === 'value') goneValues.push({ id: change.id, board_id: change.board_id, item_id: change.id.split('.')[0]! } as unknown as WireRecord);
  }
  return { latest, current, order, goneValues, byCollection, byCollectionAt, json: new Map(), lean: new Map(), answers: new Map(), cursor, hasMore };
}

/**
 * A record gone for good no longer says which folder it was in. Records with a trash (items,
 * folders, attributes) are removed for good only from the trash, and their trashed copy already
 * reached whoever could read it: their tombstone goes only to readers who see every folder of the
 * board, so nobody learns the id of a hidden one. Records without a trash (values, comments,
 * reactions, time entries, views) are removed at once: every reader of the board hears of it, or a
 * reader of the record would keep showing it; such an id names nothing that still exists (values,
 * whose id names their item, are judged by their item instead, in judgedPage).
 * A board gone for good: everyone (nothing of it is left to reach).
 */
function mayHearOfRemoval(view: ReadView, collection: string, boardId: string): boolean {
  if (view.chain(boardId) === null) return true;
  if (!view.canViewFolder(boardId)) return false;
  return collectionByName(collection)?.trash !== true || !view.hasHiddenFolders(boardId);
}

async function currentCopies(db: Db, teamId: number, keys: { collection: string; id: string }[]) {
  const out = new Map<string, { collection: string; data: WireRecord; deleted: boolean }>();
  const byCollection = new Map<string, string[]>();
  for (const k of keys) {
    const ids = byCollection.get(k.collection);
    if (ids) ids.push(k.id);
    else byCollection.set(k.collection, [k.id]);
  }
  for (const [collection, ids] of byCollection) {
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .selectFrom('records')
        .select(['id', 'data', 'deleted_at'])
        .where('team_id', '=', teamId)
        .where('collection', '=', collection)
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
      for (const row of rows) out.set(`${collection}:${row.id}`, { collection, data: row.data as WireRecord, deleted: row.deleted_at !== null });
    }
  }
  return out;
}

/** Whether an Accept-Encoding header takes gzip (`gzip`, `gzip;q=0.5`, `*`; not `gzip;q=0`). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
