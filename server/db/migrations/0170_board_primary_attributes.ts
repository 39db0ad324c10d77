import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Every board has a name (primary) attribute (issue #17, decision 0170). Boards saved before the
 * server enforced it (the old demo board, boards created through the API) get one, with the id the
 * server gives new boards (`{boardId}.name`, schema/board-defaults.ts). Each new record is logged
 * in the change log, so replicas receive it on their next catch-up like any other save.
 */
export const m0170_board_primary_attributes: Migration = {
  name: '0170_board_primary_attributes',
  async up(db) {
    await sql`
      with boards as (
        select f.team_id, f.id as board_id
        from records f
        where f.collection = 'folder' and f.deleted_at is null and f.data->>'parent_id' is null
          and not exists (
            select 1 from records a
            where a.team_id = f.team_id and a.board_id = f.id and a.collection = 'attribute'
              and a.deleted_at is null and a.data->>'kind' = 'primary')
      ), stamp as (
        select to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
      ), written as (
        insert into records (collection, id, team_id, board_id, row_version, data, created_by, created_at, updated_at, deleted_at)
        select 'attribute', b.board_id || '.name', b.team_id, b.board_id, 1,
          jsonb_build_object(
            'id', b.board_id || '.name', 'team_id', b.team_id, 'board_id', b.board_id, 'folder_id', b.board_id,
            'name', 'Name', 'kind', 'primary', 'position', 0, 'hidden', false, 'settings', '{}'::jsonb,
            'row_version', 1, 'created_at', s.at, 'updated_at', s.at, 'deleted_at', null),
          null, now(), now(), null
        from boards b cross join stamp s
        on conflict (collection, id) do nothing
        returning team_id, board_id, id
      )
      insert into change_log (team_id, board_id, collection, record_id, op)
      select team_id, board_id, 'attribute', id, 'saved' from written`.execute(db);
  },
};
