import type { ColumnType } from 'kysely';
import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

/** Tables of domain events and jobs (migration 0100_events_jobs, decision 0110). */
export interface EventsTables {
  domain_events: {
    /** bigint: the driver reads it as a string. */
    id: Generated<string>;
    team_id: number;
    board_id: string | null;
    type: string;
    collection: string | null;
    record_id: string | null;
    item_id: string | null;
    actor_id: number | null;
    before: Json<Record<string, unknown> | null> | null;
    after: Json<Record<string, unknown> | null> | null;
    created_at: Timestamp;
    /** Set on events an automation caused: {automation_id, automation_name, chain} (migration 0150). */
    via: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  };
  event_consumers: {
    name: string;
    position: string;
    attempts: Generated<number>;
    last_error: string | null;
    retry_at: NullableTimestamp;
    updated_at: Timestamp;
  };
  jobs: {
    id: Generated<string>;
    name: string;
    payload: Json<unknown>;
    key: string | null;
    state: Generated<'queued' | 'running' | 'done' | 'failed'>;
    attempts: Generated<number>;
    max_attempts: Generated<number>;
    run_at: Timestamp;
    locked_at: NullableTimestamp;
    locked_by: string | null;
    last_error: string | null;
    created_at: Timestamp;
    finished_at: NullableTimestamp;
  };
}
