import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Change log compaction (issue #31 part 6, decision 0351). `change_log_record` lets the compactor
 * ask "is there a later change of this record on this board?" with one index probe per row;
 * `change_log_horizons` holds, per board, the compaction horizon: the highest change number of a
 * removal for good (tombstone) the compactor dropped after the retention period. A cursor below
 * it may have missed such a removal, so /changes tells its reader to load that board again.
 */
export const m0351_change_log_compaction: Migration = {
  name: '0351_change_log_compaction',
  async up(db) {
    await sql`create index if not exists change_log_record on change_log (team_id, board_id, collection, record_id, seq)`.execute(db);
    await sql`
      create table if not exists change_log_horizons (
        team_id integer not null references teams(id) on delete cascade,
        board_id text not null,
        horizon bigint not null,
        primary key (team_id, board_id)
      )`.execute(db);
  },
};
