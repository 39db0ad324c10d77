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
  automation_usage: {
    team_id: number;
    month: string;
    runs: number;
  };
  automation_clock: {
    name: string;
    checked_until: Timestamp;
  };
}
