import type { Generated, NullableTimestamp, Timestamp } from '../types';

/** Board jobs (migration 0160, server/board-jobs, decision 0160). */
export interface BoardJobTables {
  board_jobs: {
    id: string;
    team_id: number;
    board_id: string;
    user_id: number;
    kind: string;
    state: Generated<string>;
    phase: Generated<string>;
    done: Generated<number>;
    total: Generated<number>;
    errors: Generated<unknown>;
    error_count: Generated<number>;
    error: string | null;
    input: Generated<unknown>;
    payload: string | null;
    state_data: Generated<unknown>;
    result: unknown;
    created_at: Timestamp;
    updated_at: Timestamp;
    finished_at: NullableTimestamp;
  };
  /** A file a job made for its user (migration 0225: the PDF export). */
  board_job_files: {
    job_id: string;
    file_name: string;
    content_type: string;
    data: Buffer;
    created_at: Timestamp;
  };
}
