import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

/** Tables of the sync engine (migration 0030_sync). */
export interface SyncTables {
  /** Every synced record; `data` is the record as the client sees it (validated by the registry). */
  records: {
    collection: string;
    id: string;
    team_id: number;
    board_id: string;
    row_version: number;
    data: Json<Record<string, unknown>>;
    created_by: number | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    /** Set while the record is in the trash. */
    deleted_at: NullableTimestamp;
  };
  /** One row per accepted write, in commit order within a team (see server/sync/changes.ts). */
  change_log: {
    seq: Generated<string>;
    team_id: number;
    board_id: string;
    collection: string;
    record_id: string;
    op: 'saved' | 'deleted' | 'trashed' | 'restored';
    at: Timestamp;
  };
  /**
   * Per board, the highest change number of a removal for good that compaction dropped (migration
   * 0351, server/sync/compaction.ts): a /changes cursor below it must load the board again.
   */
  change_log_horizons: {
    team_id: number;
    board_id: string;
    horizon: string;
  };
  /** Responses of write requests by X-Idempotency-Key, per user, kept IDEMPOTENCY_TTL_MS. */
  idempotency_keys: {
    user_id: number;
    key: string;
    /** "METHOD path" of the first request, so a key reused for another request is refused. */
    request: string;
    status: number;
    response: Json<unknown> | null;
    created_at: Timestamp;
  };
}
