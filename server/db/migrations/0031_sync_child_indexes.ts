import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * 0030's item index was partial (`where data ? 'item_id'`), which the planner cannot use for
 * `data->>'item_id' in (…)`. Children are looked up by item (values, comments, time entries), by
 * comment (reactions) and by attribute (values): plain expression indexes serve all three.
 */
export const m0031_sync_child_indexes: Migration = {
  name: '0031_sync_child_indexes',
  async up(db) {
    await sql`drop index if exists records_item`.execute(db);
    await sql`create index records_item on records (collection, (data->>'item_id'))`.execute(db);
    await sql`create index records_comment on records (collection, (data->>'comment_id')) where collection = 'comment_reaction'`.execute(db);
    await sql`create index records_attribute on records (collection, (data->>'attribute_id')) where collection = 'value'`.execute(db);
  },
};
