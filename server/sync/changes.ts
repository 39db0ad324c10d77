import { collectionByName, type DeltaChange, type SyncedCollectionName } from '../../schema/collections';
import { loadReadContext, type ReadView } from './reads';
import type { Db, WireRecord } from './store';
import { changeHorizon } from './cursor';
import { serverIdentity } from './identity';

/**
 * GET /api/{teamId}/changes?after={seq}[&board_id=] — every record changed after the cursor, once,
 * as its latest copy (op saved), its trashed copy (op deleted, record with deleted_at) or a
 * tombstone (op deleted, record null), limited to what the user may view. Pages of at most
 * DELTA_PAGE changes: `has_more` says to ask again from the returned cursor.
 *
 * Why the cursor is safe: only changes up to the change horizon are read (cursor.ts, decision
 * 0031), and every number up to it belongs to a writer that had finished before the rows were
 * read, so nothing below a returned cursor can appear later. Writers never wait for readers.
 */
export const DELTA_PAGE = 5000;

export interface DeltaPage {
  data: DeltaChange[];
  cursor: number;
  has_more: boolean;
  /** The database's identity (decision 0102): a replica made from another one must load again. */
  server_id: string;
}

export async function readChanges(db: Db, view: ReadView, after: number, boardId: string | null): Promise<DeltaPage> {
  // Its own statement, before the rows' snapshot.
  const horizon = await changeHorizon(db);
  const server_id = await serverIdentity(db);
  // A cursor past the horizon was never handed out by this database: the client's replica comes
  // from another one (a reset, a restored backup). Answer the horizon, below what it asked from,
  // so it knows to load again (decision 0102) instead of waiting for numbers that mean other things.
  if (after > horizon) return { data: [], cursor: horizon, has_more: false, server_id };
  const { latest, current, cursor, hasMore } = await sharedPage(db, view.team.id, after, horizon, boardId);
  if (latest.size === 0) return { data: [], cursor, has_more: hasMore, server_id };

  const byCollection = new Map<string, WireRecord[]>();
  for (const copy of current.values()) {
    const list = byCollection.get(copy.collection) ?? [];
    list.push(copy.data);
    byCollection.set(copy.collection, list);
  }
  const readable = new Set<string>();
  for (const [collection, records] of byCollection) {
    for (const record of await view.filter(db, collection, records)) readable.add(`${collection}:${record.id}`);
  }

  // Values gone for good still name their item (their id is item.attribute): judged like a live value.
  const goneValues = [...latest].filter(([key, c]) => c.collection === 'value' && !current.has(key)).map(([, c]) => ({ id: c.id, board_id: c.board_id, item_id: c.id.split('.')[0]! }) as unknown as WireRecord);
  const valueContext = goneValues.length ? await loadReadContext(db, view.team.id, 'value', goneValues) : null;
  const readableGoneValues = new Set(goneValues.filter((v) => view.canRead('value', v, valueContext!)).map((v) => v.id));

  const data: DeltaChange[] = [];
  for (const [key, change] of latest) {
    const copy = current.get(key);
    if (copy) {
      // Trashed copies are judged like live ones (trashed folders are part of the view): a record
      // the reader may not read is not mentioned at all, not even by id (decision 0090).
      if (readable.has(key)) data.push({ collection: change.collection as SyncedCollectionName, id: change.id, op: copy.deleted ? 'deleted' : 'saved', record: copy.data });
    } else if (change.collection === 'value' ? readableGoneValues.has(change.id) || view.chain(change.board_id) === null : mayHearOfRemoval(view, change.collection, change.board_id)) {
      data.push({ collection: change.collection as SyncedCollectionName, id: change.id, op: 'deleted', record: null });
    }
  }
  return { data, cursor, has_more: hasMore, server_id };
}

interface SharedPage {
  /** One entry per record, in the order of its last change. */
  latest: Map<string, { collection: string; id: string; board_id: string; seq: number }>;
  current: Map<string, { collection: string; data: WireRecord; deleted: boolean }>;
  cursor: number;
  hasMore: boolean;
}

/**
 * Requests in flight for the same page — same workspace, board, cursor and horizon — share one
 * read of the change log and of the current copies (per database handle, only while one is in
 * flight). After a deploy every client of a busy workspace reconnects with the cursor it had, so a
 * hundred readers make one query instead of a hundred (bench/scale-out.ts, decision 0192). The
 * page is judged per reader afterwards, as before; it holds nothing another reader may not see
 * until then. A copy read for an earlier request is as fresh as the horizon asks: anything newer has
 * a change after it and comes with the next page.
 */
const inFlight = new WeakMap<object, Map<string, Promise<SharedPage>>>();

function sharedPage(db: Db, teamId: number, after: number, horizon: number, boardId: string | null): Promise<SharedPage> {
  let pages = inFlight.get(db as object);
  if (!pages) inFlight.set(db as object, (pages = new Map()));
  const key = `${teamId}:${boardId ?? ''}:${after}:${horizon}`;
  let page = pages.get(key);
  if (!page) {
    page = readPage(db, teamId, after, horizon, boardId).finally(() => pages.delete(key));
    pages.set(key, page);
  }
  return page;
}

async function readPage(db: Db, teamId: number, after: number, horizon: number, boardId: string | null): Promise<SharedPage> {
  let query = db
    .selectFrom('change_log')
    .select(['seq', 'collection', 'record_id', 'board_id'])
    .where('team_id', '=', teamId)
    .where('seq', '>', String(after))
    .where('seq', '<=', String(horizon))
    .orderBy('seq')
    .limit(DELTA_PAGE + 1);
  if (boardId) query = query.where('board_id', '=', boardId);
  const rows = await query.execute();
  const hasMore = rows.length > DELTA_PAGE;
  const page = hasMore ? rows.slice(0, DELTA_PAGE) : rows;
  // A full page ends at its last change; otherwise everything up to the horizon was read (the
  // numbers between belong to other teams or to rolled-back writes).
  const cursor = hasMore ? Number(page[page.length - 1]!.seq) : horizon;

  const latest: SharedPage['latest'] = new Map();
  for (const row of page) {
    const key = `${row.collection}:${row.record_id}`;
    latest.delete(key);
    latest.set(key, { collection: row.collection, id: row.record_id, board_id: row.board_id, seq: Number(row.seq) });
  }
  const current = latest.size === 0 ? new Map() : await currentCopies(db, teamId, [...latest.values()]);
  return { latest, current, cursor, hasMore };
}

/**
 * A record gone for good no longer says which folder it was in. Records with a trash (items,
 * folders, attributes) are removed for good only from the trash, and their trashed copy already
 * reached whoever could read it: their tombstone goes only to readers who see every folder of the
 * board, so nobody learns the id of a hidden one. Records without a trash (values, comments,
 * reactions, time entries, views) are removed at once: every reader of the board hears of it, or a
 * reader of the record would keep showing it; such an id names nothing that still exists (values,
 * whose id names their item, are judged by their item instead, in readChanges).
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
