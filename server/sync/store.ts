import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types';

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

/** Records by (collection, id) plus, optionally, a board's live folders, in one query (rows may repeat). */
export async function findRecordsAndFolders(db: Db, keys: { collection: string; id: string }[], board: { teamId: number; boardId: string } | null): Promise<StoredRecord[]> {
  const byKey = keys.length
    ? db.selectFrom('records').select(columns).where((eb) => eb.or(keys.map((k) => eb.and([eb('collection', '=', k.collection), eb('id', '=', k.id)]))))
    : null;
  const folders = board
    ? db
        .selectFrom('records')
        .select(columns)
        .where('team_id', '=', board.teamId)
        .where('board_id', '=', board.boardId)
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
 * go together, and one round trip instead of two matters on the save path.
 */
export async function writeLogged(db: Db, collection: string, teamId: number, record: WireRecord, createdBy: number | null, deletedAt: Date | null, now: Date, op: ChangeKind): Promise<void> {
  const data = JSON.stringify(record);
  await sql`
    with written as (
      insert into records (collection, id, team_id, board_id, row_version, data, created_by, created_at, updated_at, deleted_at)
      values (${collection}, ${record.id}, ${teamId}, ${record.board_id}, ${record.row_version}, ${data}::jsonb, ${createdBy}, ${now}, ${now}, ${deletedAt})
      on conflict (collection, id) do update
        set board_id = excluded.board_id, row_version = excluded.row_version, data = excluded.data,
            updated_at = excluded.updated_at, deleted_at = excluded.deleted_at
      returning team_id, board_id, id
    )
    insert into change_log (team_id, board_id, collection, record_id, op, at)
    select team_id, board_id, ${collection}, id, ${op}, ${now} from written`.execute(db);
}

export async function removeRecord(db: Db, collection: string, id: string): Promise<void> {
  await db.deleteFrom('records').where('collection', '=', collection).where('id', '=', id).execute();
}

/**
 * Serialises the team's writers until commit, so change_log sequence numbers of one team become
 * visible in increasing order and a reader never skips a change that commits late (the delta's
 * cursor is a team's highest visible seq). Must be called inside the write transaction.
 */
export async function lockTeamForWrite(db: Db, teamId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(727301, ${teamId})`.execute(db);
}

export async function appendChange(db: Db, teamId: number, boardId: string, collection: string, recordId: string, op: ChangeKind, now: Date): Promise<void> {
  await db.insertInto('change_log').values({ team_id: teamId, board_id: boardId, collection, record_id: recordId, op, at: now }).execute();
}

/** The team's latest change sequence (0 when nothing changed yet). */
export async function currentCursor(db: Db, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.seq ? Number(row.seq) : 0;
}
