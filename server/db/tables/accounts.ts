import type { ColumnType } from 'kysely';
import type { Generated, Json, NullableTimestamp, Timestamp } from '../types';

export interface UserPreferences {
  workspaceSortOrder?: number[];
  api_dev_helper?: boolean;
  usedCancelCoupon?: boolean;
  [key: string]: unknown;
}

export interface AccountTables {
  users: {
    id: Generated<number>;
    email: string;
    name: string;
    password_hash: string | null;
    photo_url: string | null;
    locale: string;
    timezone: string | null;
    start_of_week: number | null;
    theme: number;
    preferences: Json<UserPreferences>;
    source: string | null;
    email_verified_at: NullableTimestamp;
    totp_secret: string | null;
    totp_enabled_at: NullableTimestamp;
    /** The last TOTP time step accepted, so a code cannot be used twice. */
    totp_last_step: number | null;
    recovery_codes: Json<string[]>;
    reauthenticated_at: NullableTimestamp;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  /** One row per signed-in session; tokens are stored only as SHA-256 hashes. */
  access_tokens: {
    id: Generated<number>;
    user_id: number;
    access_hash: string;
    refresh_hash: string;
    expires_at: Timestamp;
    refresh_expires_at: Timestamp;
    created_at: Timestamp;
    revoked_at: NullableTimestamp;
    /** The access token the last refresh replaced; it works until its own expiry (0011). */
    previous_access_hash: ColumnType<string | null, string | null | undefined, string | null>;
    previous_access_expires_at: NullableTimestamp;
    /** The other refresh tokens the session still accepts (lost answers, decision 0093), newest first. */
    previous_refresh_hashes: ColumnType<string[], string[] | undefined, string[]>;
    /** The refresh token the session was last refreshed with (reuse detection, 0090). */
    last_used_refresh_hash: ColumnType<string | null, string | null | undefined, string | null>;
  };
  /** Single-use mailed tokens (password reset, email verification); only hashes are stored. */
  account_tokens: {
    id: Generated<number>;
    kind: AccountTokenKind;
    user_id: number;
    /** The address the mail went to: a verification confirms exactly this address. */
    email: string;
    token_hash: string;
    expires_at: Timestamp;
    used_at: NullableTimestamp;
    created_at: Timestamp;
  };
  /** Attempt counters shared by every API process (migration 0090, server/accounts/rate-limit.ts). */
  throttle_hits: {
    key: string;
    /** Epoch milliseconds of the attempts still inside the window (bigint: the driver reads strings). */
    hits: ColumnType<Array<string | number>, string, string>;
    /** Whether the last attempt was counted (false: it was refused with a 429). */
    allowed: boolean;
    expires_at: Timestamp;
  };
  /** Refresh tokens a session no longer accepts because a newer one was used (reuse detection, 0090). */
  retired_refresh_tokens: {
    refresh_hash: string;
    session_id: number;
    retired_at: Timestamp;
  };
}

export type AccountTokenKind = 'password_reset' | 'verify_email';
