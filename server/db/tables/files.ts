import type { NullableTimestamp, Timestamp } from '../types';

/** Tables of the files module (migration 0091_uploads). */
export interface FilesTables {
  /** Every stored upload: what it is, whom it counts against, and the sweep's mark. */
  uploads: {
    /** `{folder}/{name}` under `${DATA_DIR}/uploads` (the URL is `/api/files/` + path). */
    path: string;
    team_id: number | null;
    /** bigint: PostgreSQL hands it back as a string. */
    size: string | number;
    created_at: Timestamp;
    unreferenced_since: NullableTimestamp;
  };
  /** Bytes of uploads each workspace holds (raised on upload, lowered when a file is removed). */
  workspace_storage: {
    team_id: number;
    bytes_used: string | number;
  };
}
