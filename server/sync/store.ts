import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { copyLine, copyStatement } from '../db/copy-in';
import type { Database } from '../db/types';
import { eventsForWrittenSql, type EventRow } from '../events/outbox';

/** Storage of synced records and their change log. No rules here: see operations.ts. */

export type Db = Kysely<Database> | Transaction<Database>;
export type WireRecord = Record<string, unknown> & { id: string; row_version: number; board_id: string };
export type ChangeKind = 'saved' | 'deleted' | 'trashed' | 'restored';

export interface StoredRecord {
  collection: string;
  id: string;
  team_id: number;
  board_id: string;
  row_version: number;
  /** The record exactly as clients see it. */
  data: WireRecord;
  created_by: number | null;
  deleted_at: Date | null;
}

const columns = ['collection', 'id', 'team_id', 'board_id', 'row_version', 'data', 'created_by', 'deleted_at'] as const;

function toStored(row: { collection: string; id: string; team_id: number; board_id: string; row_version: number; data: unknown; created_by: number | null; deleted_at: Date | null }): StoredRecord {
  return { ...row, data: row.data as WireRecord };
}

export async function findRecord(db: Db, collection: string, id: string): Promise<StoredRecord | null> {
  const row = await db.selectFrom('records').select(columns).where('collection', '=', collection).where('id', '=', id).executeTakeFirst();
  return row ? toStored(row) : null;
}

/** Records by (collection, id) plus, optionally, the live folders of some boards, in one query (rows may repeat). */
export async function findRecordsAndFolders(db: Db, keys: { collection: string; id: string }[], boards: { teamId: number; boardIds: string[] } | null): Promise<StoredRecord[]> {
  // Keys as two array parameters: one plan for a single save and for a batch's thousand records.
  const byKey = keys.length
    ? db
        .selectFrom('records')
        .select(columns)
        .where(sql<boolean>`(collection, id) in (select * from unnest(${keys.map((k) => k.collection)}::text[], ${keys.map((k) => k.id)}::text[]))`)
    : null;
  const folders = boards?.boardIds.length
    ? db
        .selectFrom('records')
        .select(columns)
        .where('team_id', '=', boards.teamId)
        .where('board_id', 'in', boards.boardIds)
        .where('collection', '=', 'folder')
        .where('deleted_at', 'is', null)
    : null;
  const query = byKey && folders ? byKey.unionAll(folders) : (byKey ?? folders);
  if (!query) return [];
  return (await query.execute()).map(toStored);
}

/** Live (not trashed) records of one collection on a board. */
export async function boardRecords(db: Db, teamId: number, boardId: string, collection: string): Promise<StoredRecord[]> {
  const rows = await db
    .selectFrom('records')
    .select(columns)
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', collection)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map(toStored);
}

/**
 * One page of the live records of one collection, in id order after `after` (a keyset page of a
 * paged index load): a board's (`boardId`) or, for folders without a board, the team's. Fetches
 * one row more than asked, so the caller knows whether another page follows. Only the id and the
 * record: a page is what a bootstrap waits on, and reading the other columns (the timestamp
 * above all) cost as much as the records themselves (decision 0310).
 */
export async function recordsPage(db: Db, teamId: number, boardId: string | null, collection: string, after: string | null, limit: number): Promise<{ rows: { id: string; data: WireRecord }[]; more: boolean }> {
  let query = db.selectFrom('records').select(['id', 'data']).where('team_id', '=', teamId).where('collection', '=', collection).where('deleted_at', 'is', null);
  if (boardId !== null) query = query.where('board_id', '=', boardId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit + 1).execute();
  const more = rows.length > limit;
  return { rows: (more ? rows.slice(0, limit) : rows).map((r) => ({ id: r.id, data: r.data as WireRecord })), more };
}

/**
 * The head of a board for a first screen: its first `items` live items by position (then id), or
 * — for `value` — the values of those items. Position is compared as JSON (numbers numerically),
 * so a record with an odd position sorts, it does not fail.
 *
 * Two statements, the head's item ids first: as one statement (`item_id in (ordered, limited
 * subquery)`) PGlite planned the values of a 10,000-item board in 7 s, five times the whole value
 * list. With the ids as an array parameter the values are one lookup per id in the item index
 * (records_item), on both databases and with or without statistics (decision 0377).
 */
export async function boardHead(db: Db, teamId: number, boardId: string, collection: 'item' | 'value', items: number): Promise<StoredRecord[]> {
  const ids = await boardHeadIds(db, teamId, boardId, items);
  if (ids.length === 0) return [];
  if (collection === 'item') {
    const rows = await db.selectFrom('records').select(columns).where('collection', '=', 'item').where(sql<boolean>`id = any(${ids}::text[])`).execute();
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows.map(toStored).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  // One index lookup per head item (records_item), whatever the planner knows: the lateral
  // subquery, kept apart by `offset 0`, cannot become a join that scans the board's values. A
  // planner without statistics (PGlite runs no autovacuum, so a board made in the app is never
  // analysed) otherwise scanned every value of the board, or every value of every board.
  const { rows } = await sql<{ collection: string; id: string; team_id: number; board_id: string; row_version: number; data: unknown; created_by: number | null; deleted_at: Date | null }>`
    select v.collection, v.id, v.team_id, v.board_id, v.row_version, v.data, v.created_by, v.deleted_at
    from unnest(${ids}::text[]) as head(item_id)
    cross join lateral (
      select * from records r where r.collection = 'value' and r.data->>'item_id' = head.item_id and r.deleted_at is null offset 0
    ) as v
    where v.team_id = ${teamId} and v.board_id = ${boardId}`.execute(db);
  return rows.map(toStored);
}

/** The ids of a board's first `items` live items by position, then id (the head's rows). */
export async function boardHeadIds(db: Db, teamId: number, boardId: string, items: number): Promise<string[]> {
  const rows = await db
    .selectFrom('records')
    .select('id')
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', 'item')
    .where('deleted_at', 'is', null)
    .orderBy(sql`data->'position'`)
    .orderBy('id')
    .limit(items)
    .execute();
  return rows.map((r) => r.id);
}

/** How many live items a board has, up to `atMost` (enough to tell whether a head covers them all). */
export async function countItems(db: Db, teamId: number, boardId: string, atMost: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from (select 1 from records where team_id = ${teamId} and board_id = ${boardId} and collection = 'item' and deleted_at is null limit ${atMost}) as x`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Every live folder of the team (boards and their folders): the input of permission chains. */
export async function teamFolders(db: Db, teamId: number): Promise<StoredRecord[]> {
  const rows = await db
    .selectFrom('records')
    .select(columns)
    .where('team_id', '=', teamId)
    .where('collection', '=', 'folder')
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map(toStored);
}

/**
 * Stores the record (insert or update) and appends its change in one statement: the two always
 * go together, and one round trip instead of two matters on the save path. Every write is the
 * step from the stored version to `record.row_version` (1 for a new record), and the statement
 * itself checks that: when another transaction changed or created the row meanwhile (saves of
 * one team run concurrently), nothing is written and it returns false (the caller answers 409).
 */
export async function writeLogged(db: Db, collection: string, teamId: number, record: WireRecord, createdBy: number | null, deletedAt: Date | null, now: Date, op: ChangeKind, event?: EventRow | null): Promise<boolean> {
  const data = JSON.stringify(record);
  // Its domain event goes in the same statement, stored only if the record was (server/events/outbox.ts).
  const events = event ? sql`, events as (${eventsForWrittenSql([event], now)})` : sql``;
  const { rows } = await sql<{ n: string }>`
    with written as (
      insert into records (collection, id, team_id, board_id, row_version, data, created_by, created_at, updated_at, deleted_at)
      values (${collection}, ${record.id}, ${teamId}, ${record.board_id}, ${record.row_version}, ${data}::jsonb, ${createdBy}, ${now}, ${now}, ${deletedAt})
      on conflict (collection, id) do update
        set board_id = excluded.board_id, row_version = excluded.row_version, data = excluded.data,
            updated_at = excluded.updated_at, deleted_at = excluded.deleted_at
        where records.row_version = excluded.row_version - 1 and records.team_id = excluded.team_id
      returning team_id, board_id, id, collection
    ), logged as (
      insert into change_log (team_id, board_id, collection, record_id, op, at)
      select team_id, board_id, ${collection}, id, ${op}, ${now} from written
      returning 1
    )${events}
    select count(*) as n from logged`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/** One record write of writeManyLogged. */
export interface LoggedWrite {
  collection: string;
  record: WireRecord;
  createdBy: number | null;
  deletedAt: Date | null;
  op: ChangeKind;
  /** Its domain event (none when the save changed nothing but bookkeeping). */
  event?: EventRow | null;
}

/**
 * writeLogged for many records in one statement (a batch's saves, written at its end). The rows go
 * as one JSON parameter; their changes are numbered in the given order. Returns how many were
 * written: fewer than given means some were overtaken (see writeLogged) and the caller must not commit.
 * `alongside` is one more data-modifying statement run in the same round trip (the request's
 * idempotency response).
 */
export async function writeManyLogged(db: Db, teamId: number, now: Date, writes: LoggedWrite[], alongside?: RawBuilder<unknown>): Promise<number> {
  if (writes.length === 0) return 0;
  const input = JSON.stringify(
    writes.map((w, ord) => ({ ord, collection: w.collection, id: w.record.id, board_id: w.record.board_id, row_version: w.record.row_version, data: w.record, created_by: w.createdBy, deleted_at: w.deletedAt, op: w.op })),
  );
  const source = sql`select * from jsonb_to_recordset(${input}::jsonb) as i(${sql.raw(INPUT_COLUMNS)})`;
  return loggedWriteOf(db, teamId, now, source, writes, alongside);
}

/** The columns of a logged write's input rows, as writeManyLogged and the staging table of writeManyCopied have them. */
const INPUT_COLUMNS = 'ord integer, collection text, id text, board_id text, row_version integer, data jsonb, created_by integer, deleted_at timestamptz, op text';

/** The one statement of a batch write: records, their changes in input order and the events of the records written. */
async function loggedWriteOf(db: Db, teamId: number, now: Date, source: RawBuilder<unknown>, writes: LoggedWrite[], alongside?: RawBuilder<unknown>): Promise<number> {
  const events = writes.flatMap((w) => (w.event ? [w.event] : []));
  const { rows } = await sql<{ n: string }>`
    with input as materialized (
      ${source}
    ), written as (
      insert into records (collection, id, team_id, board_id, row_version, data, created_by, created_at, updated_at, deleted_at)
      -- Rows in key order: two batches touching the same records lock them in the same order (no deadlock).
      select collection, id, ${teamId}, board_id, row_version, data, created_by, ${now}, ${now}, deleted_at from input order by collection, id
      on conflict (collection, id) do update
        set board_id = excluded.board_id, row_version = excluded.row_version, data = excluded.data,
            updated_at = excluded.updated_at, deleted_at = excluded.deleted_at
        where records.row_version = excluded.row_version - 1 and records.team_id = excluded.team_id
      returning collection, id, team_id, board_id
    ), logged as (
      insert into change_log (team_id, board_id, collection, record_id, op, at)
      select w.team_id, w.board_id, w.collection, w.id, i.op, ${now}
      from written w join input i on i.collection = w.collection and i.id = w.id
      order by i.ord
      returning 1
    )${events.length ? sql`, events as (${eventsForWrittenSql(events, now)})` : sql``}${alongside ? sql`, alongside as (${alongside})` : sql``}
    select count(*) as n from logged`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * writeManyLogged for PostgreSQL with the rows sent by `COPY` (decision 0362): the rows go into a
 * staging table of the session (emptied at commit) in one COPY, then the same one statement as
 * writeManyLogged writes records, changes and events from it. Three round trips for any number of
 * rows, and no JSON of the whole batch parsed by the server. Same answer as writeManyLogged.
 * Only on a PostgreSQL pool whose clients have enableCopyIn (server/db/copy-in.ts).
 */
export async function writeManyCopied(db: Db, teamId: number, now: Date, writes: LoggedWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  // Emptied here too: a second batch in the same transaction must not see the first one's rows.
  await sql.raw(`create temp table if not exists logged_write_input (${INPUT_COLUMNS}) on commit delete rows; truncate logged_write_input`).execute(db);
  const rows = writes.map((w, ord) => copyLine([ord, w.collection, w.record.id, w.record.board_id, w.record.row_version, JSON.stringify(w.record), w.createdBy, w.deletedAt ? w.deletedAt.toISOString() : null, w.op])).join('');
  await copyStatement(sql.raw('logged_write_input'), rows).execute(db);
  return loggedWriteOf(db, teamId, now, sql`select * from logged_write_input`, writes);
}

export async function removeRecord(db: Db, collection: string, id: string): Promise<void> {
  await db.deleteFrom('records').where('collection', '=', collection).where('id', '=', id).execute();
}

export async function appendChange(db: Db, teamId: number, boardId: string, collection: string, recordId: string, op: ChangeKind, now: Date): Promise<void> {
  await db.insertInto('change_log').values({ team_id: teamId, board_id: boardId, collection, record_id: recordId, op, at: now }).execute();
}
