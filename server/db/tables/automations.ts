import type { Generated, Timestamp } from '../types';

/** Automations (migration 0150, server/automations). */
export interface AutomationTables {
  automation_runs: {
    id: Generated<string>;
    team_id: number;
    board_id: string;
    automation_id: string;
    item_id: string | null;
    cause: string;
    trigger: string;
    result: string;
    error: string | null;
    counted: boolean;
    month: string;
    created_at: Timestamp;
  };
  /** The month's count is the sum of its shards (migration 0200). */
  automation_usage: {
    team_id: number;
    month: string;
    shard: Generated<number>;
    runs: number;
  };
  automation_clock: {
    name: string;
    checked_until: Timestamp;
  };
}
