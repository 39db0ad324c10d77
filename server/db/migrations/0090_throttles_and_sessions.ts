import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Throttles and sessions that hold (decision 0093).
 * - throttle_hits: one row per throttled key (e.g. "loginPerIp:203.0.113.5"); `hits` are the epoch
 *   milliseconds of the attempts still in the window. In the database so every API process counts
 *   into the same window, and updated by one INSERT … ON CONFLICT so parallel attempts serialise.
 *   Rows whose window has passed (`expires_at`) are deleted by a periodic sweep.
 * - access_tokens.last_used_refresh_hash: the refresh token the session was last refreshed with.
 *   The session accepts it and the tokens issued for it since (lost answers); using one of those
 *   retires every other.
 * - retired_refresh_tokens: refresh tokens a session stopped accepting because a newer one was
 *   used. Presenting one again is a replay (a stolen copy, or the real client after a thief
 *   refreshed first), and ends the whole session.
 */
export const m0090_throttles_and_sessions: Migration = {
  name: '0090_throttles_and_sessions',
  async up(db) {
    await sql`
      create table throttle_hits (
        key text primary key,
        hits bigint[] not null,
        allowed boolean not null,
        expires_at timestamptz not null
      )`.execute(db);
    await sql`create index throttle_hits_expires on throttle_hits (expires_at)`.execute(db);
    await sql`alter table access_tokens add column last_used_refresh_hash text`.execute(db);
    await sql`
      create table retired_refresh_tokens (
        refresh_hash text primary key,
        session_id integer not null references access_tokens(id) on delete cascade,
        retired_at timestamptz not null
      )`.execute(db);
    await sql`create index retired_refresh_tokens_session on retired_refresh_tokens (session_id)`.execute(db);
  },
};
