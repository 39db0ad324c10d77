import type { ColumnType } from 'kysely';
import type { Json, Timestamp } from '../types';

/** Each user's conflicts as the server keeps them (migration 0346, decision 0346). */
export interface SyncConflictTables {
  sync_conflicts: {
    user_id: number;
    key: string;
    team_id: number;
    board_id: string;
    /** The ServerConflict as reported (schema/sync-conflicts.ts), without key and team_id. */
    body: Json<Record<string, unknown>>;
    created_at: Timestamp;
    resolved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    /** 'mine' | 'theirs' once resolved. */
    resolution: string | null;
  };
}
