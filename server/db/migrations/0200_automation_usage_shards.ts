import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * The month's run count of a workspace in shards (decision 0200): one row per (team, month, shard)
 * instead of one per (team, month), so runs of one workspace count side by side instead of
 * queueing on one row lock until each commits. The count is the sum of the shards; existing rows
 * become shard 0.
 */
export const m0200_automation_usage_shards: Migration = {
  name: '0200_automation_usage_shards',
  async up(db) {
    await sql`alter table automation_usage add column shard smallint not null default 0`.execute(db);
    await sql`alter table automation_usage drop constraint automation_usage_pkey`.execute(db);
    await sql`alter table automation_usage add primary key (team_id, month, shard)`.execute(db);
  },
};
