import type { Timestamp } from '../types';

/** Tables of the shell module (migration 0230_shell_settings). */
export interface ShellTables {
  /** Operator settings of the app shell, one row per key (server/shell/settings.ts). */
  shell_settings: {
    key: string;
    value: unknown;
    updated_at: Timestamp;
  };
}
