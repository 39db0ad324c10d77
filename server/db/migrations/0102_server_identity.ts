import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * The database's identity (decision 0102): one row holding an id made when the database was
 * created. Every API answer names it (X-Server-Id), so a client whose replica came from another
 * database — the server was reset onto an empty one, or pointed at another — notices and loads
 * again instead of showing boards that no longer exist. The id lives in the database, not in the
 * process, so every node of a scaled-out server answers the same one and a restart keeps it.
 * Restoring a backup brings the backup's id back: `rotateServerIdentity` (server/sync/identity.ts)
 * gives the restored database a new one (docs/operations.md).
 */
export const m0102_server_identity: Migration = {
  name: '0102_server_identity',
  async up(db) {
    await sql`
      create table server_identity (
        -- Always true: the table holds exactly one row.
        one boolean primary key default true check (one),
        id text not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`insert into server_identity (id) values (${randomUUID()})`.execute(db);
  },
};
