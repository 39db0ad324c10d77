import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

/** Tables of the webhooks module (migration 0140_hooks). */
export interface HookTables {
  hooks: {
    id: string;
    team_id: number;
    user_id: number;
    url: string;
    events: Json<string[]>;
    active: Generated<boolean>;
    secret: string;
    failures_in_a_row: Generated<number>;
    deactivated_at: NullableTimestamp;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  hook_deliveries: {
    id: string;
    seq: Generated<string>;
    hook_id: string | null;
    url: string | null;
    secret: string | null;
    team_id: number;
    event_id: string | null;
    dedupe_key: string;
    lane: string | null;
    event: string;
    body: string;
    state: 'waiting' | 'queued' | 'done' | 'failed';
    attempts: Generated<number>;
    last_error: string | null;
    created_at: Timestamp;
    finished_at: NullableTimestamp;
  };
  hook_logs: {
    /** bigint: the driver reads it as a string. */
    id: Generated<string>;
    hook_id: string;
    delivery_id: string;
    event: string;
    attempt: number;
    status: 'success' | 'retrying' | 'failed';
    response_status: number | null;
    duration_ms: number;
    error: string | null;
    request_body: string | null;
    response_body: string | null;
    created_at: Timestamp;
  };
}
