import type { Timestamp } from '../types';

/** Tables of the board-access module (migration 0070_board_passwords). */
export interface BoardAccessTables {
  /**
   * The optional password of a public board (workspace.md §1). Kept out of the synced folder
   * record on purpose: that record reaches every visitor, and a hash there could be guessed offline.
   */
  board_passwords: {
    board_id: string;
    team_id: number;
    /** scrypt hash (server/accounts/password.ts); the password itself is never stored. */
    password_hash: string;
    updated_by: number;
    updated_at: Timestamp;
  };
}
