import type { DeltaChange, SyncedCollectionName } from '../../schema/collections';
import type { ReadView } from './reads';
import type { Db, WireRecord } from './store';
import { changeHorizon } from './cursor';

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
}

export async function readChanges(db: Db, view: ReadView, after: number, boardId: string | null): Promise<DeltaPage> {
  // Its own statement, before the rows' snapshot.
  const horizon = await changeHorizon(db);
  let query = db
    .selectFrom('change_log')
    .select(['seq', 'collection', 'record_id', 'board_id'])
    .where('team_id', '=', view.team.id)
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
  const cursor = hasMore ? Number(page[page.length - 1]!.seq) : Math.max(after, horizon);

  // One entry per record, in the order of its last change.
  const latest = new Map<string, { collection: string; id: string; board_id: string; seq: number }>();
  for (const row of page) {
    const key = `${row.collection}:${row.record_id}`;
    latest.delete(key);
    latest.set(key, { collection: row.collection, id: row.record_id, board_id: row.board_id, seq: Number(row.seq) });
  }
  if (latest.size === 0) return { data: [], cursor, has_more: hasMore };

  const current = await currentCopies(db, view.team.id, [...latest.values()]);
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

  const data: DeltaChange[] = [];
  for (const [key, change] of latest) {
    const copy = current.get(key);
    if (copy) {
      if (!readable.has(key)) {
        // A trashed board or folder hides itself from the view: still tell it is gone.
        if (copy.deleted) data.push({ collection: change.collection as SyncedCollectionName, id: change.id, op: 'deleted', record: null });
        continue;
      }
      data.push({ collection: change.collection as SyncedCollectionName, id: change.id, op: copy.deleted ? 'deleted' : 'saved', record: copy.data });
    } else if (view.canViewFolder(change.board_id) || !view.boardExists(change.board_id)) {
      // Gone for good. Tombstones carry no content, so a deleted board's are safe to tell.
      data.push({ collection: change.collection as SyncedCollectionName, id: change.id, op: 'deleted', record: null });
    }
  }
  return { data, cursor, has_more: hasMore };
}

async function currentCopies(db: Db, teamId: number, keys: { collection: string; id: string }[]) {
  const out = new Map<string, { collection: string; data: WireRecord; deleted: boolean }>();
  const byCollection = new Map<string, string[]>();
  for (const k of keys) byCollection.set(k.collection, [...(byCollection.get(k.collection) ?? []), k.id]);
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
