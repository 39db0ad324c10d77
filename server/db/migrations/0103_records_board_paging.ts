import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Paged index loads (docs/decisions/0101-streaming-opens.md) read a board's records of one
 * collection in id order from a keyset cursor (`id > after order by id limit n`). With `id` as
 * the last column the page is a range scan of this index, not a sort of every record of the
 * board per page (a 100,000-item board has a million values). It serves every query of the old
 * (team_id, board_id, collection) index, which it replaces.
 */
export const m0103_records_board_paging: Migration = {
  name: '0103_records_board_paging',
  async up(db) {
    await sql`create index records_board_page on records (team_id, board_id, collection, id)`.execute(db);
    await sql`drop index if exists records_board`.execute(db);
  },
};
