import { sql } from 'kysely';
import type { Migration } from '../migrate';

/** Board passwords (server/board-access): one row per password-protected board. */
export const m0070_board_passwords: Migration = {
  name: '0070_board_passwords',
  async up(db) {
    await sql`create table board_passwords (
      board_id text primary key,
      team_id integer not null references teams(id) on delete cascade,
      password_hash text not null,
      updated_by integer not null,
      updated_at timestamptz not null
    )`.execute(db);
  },
};
