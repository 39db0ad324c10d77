import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Stored files (server/files, decision 0095): one row per file under `${DATA_DIR}/uploads`, and
 * each workspace's storage figure. The sweep (server/files/sweep.ts) removes files nothing
 * references any more and adopts files on disk that have no row yet (those written before this
 * table existed), so no back-fill is done here.
 */
export const m0091_uploads: Migration = {
  name: '0091_uploads',
  async up(db) {
    await sql`
      create table uploads (
        -- "{folder}/{name}" under uploads/, as in the URL /api/files/{folder}/{name}.
        path text primary key,
        -- The workspace the bytes count against; null for profile photos and for files whose
        -- workspace is unknown or gone. No foreign key: a deleted workspace's rows must stay until
        -- the sweep has removed their files.
        team_id integer,
        size bigint not null,
        created_at timestamptz not null,
        -- When a sweep first found nothing referencing the file (null while referenced or unswept).
        unreferenced_since timestamptz
      )`.execute(db);
    await sql`create index uploads_team on uploads (team_id)`.execute(db);
    await sql`
      create table workspace_storage (
        team_id integer primary key references teams(id) on delete cascade,
        bytes_used bigint not null default 0
      )`.execute(db);
  },
};
