import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';

/** Lifetimes of a session's tokens. The access token is short; the refresh token rotates on use. */
// CAIRN_ACCESS_TOKEN_TTL_S shortens it for tests that watch a session outlive its access token.
export const ACCESS_TOKEN_TTL_S = Number(process.env.CAIRN_ACCESS_TOKEN_TTL_S) || 60 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;

/** The token record of shell.md §3, as login and refresh answer it. */
export interface TokenRecord {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
  created_at: string;
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const newToken = () => crypto.randomBytes(32).toString('base64url');

/** Creates a session for the user; only hashes are stored. */
export async function issueTokens(db: Kysely<Database>, userId: number, now = new Date()): Promise<TokenRecord> {
  const access = newToken();
  const refresh = newToken();
  await db
    .insertInto('access_tokens')
    .values({
      user_id: userId,
      access_hash: hashToken(access),
      refresh_hash: hashToken(refresh),
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
      refresh_expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
      created_at: now,
    })
    .execute();
  return {
    access_token: access,
    refresh_token: refresh,
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_expires_in: REFRESH_TOKEN_TTL_S,
    created_at: now.toISOString(),
  };
}

/** How many replaced refresh tokens a session keeps accepting while none newer has been used. */
export const PREVIOUS_REFRESH_TOKENS_KEPT = 3;

/**
 * The user id behind a live access token, or null. The token the last refresh replaced still
 * counts until its own expiry: another tab may hold it, and the refresh's answer may have been lost.
 */
export async function userIdForAccessToken(db: Kysely<Database>, token: string, now = new Date()): Promise<{ userId: number; sessionId: number } | null> {
  const hash = hashToken(token);
  const row = await db
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'access_hash', 'expires_at', 'previous_access_expires_at', 'revoked_at'])
    .where((eb) => eb.or([eb('access_hash', '=', hash), eb('previous_access_hash', '=', hash)]))
    .executeTakeFirst();
  if (!row || row.revoked_at) return null;
  const expiresAt = row.access_hash === hash ? row.expires_at : row.previous_access_expires_at;
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) return null;
  return { userId: row.user_id, sessionId: row.id };
}

/**
 * Rotates a session's tokens: a live refresh token buys a new access token and a new refresh token.
 * Null when the refresh token is unknown, retired, revoked or past its lifetime. The session keeps
 * its id (guards and realtime refer to it).
 *
 * An answer can be lost after the server committed (a tab closed mid-request, a dropped
 * connection), leaving the browser with the cookie it sent. So a replaced refresh token stays
 * usable until the client shows it got a newer one by using the newest: using the current token
 * retires every older one; using an older one rotates again and keeps it (up to three are kept).
 * The replaced access token works until its own expiry, so other tabs holding it carry on.
 */
export async function rotateTokens(db: Kysely<Database>, refreshToken: string, now = new Date()): Promise<{ userId: number; sessionId: number; tokens: TokenRecord } | null> {
  const access = newToken();
  const refresh = newToken();
  const presented = hashToken(refreshToken);
  // One conditional update (Postgres evaluates every SET against the old row): two concurrent
  // refreshes with the same token both end with a working pair instead of one losing its session.
  const row = await db
    .updateTable('access_tokens')
    .set({
      access_hash: hashToken(access),
      previous_access_hash: sql<string>`access_hash`,
      previous_access_expires_at: sql<Date>`expires_at`,
      refresh_hash: hashToken(refresh),
      previous_refresh_hashes: sql<string[]>`case when refresh_hash = ${presented} then array[refresh_hash]
        else (array[refresh_hash] || previous_refresh_hashes)[1:${sql.lit(PREVIOUS_REFRESH_TOKENS_KEPT)}] end`,
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
      refresh_expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    })
    .where((eb) => eb.or([eb('refresh_hash', '=', presented), sql<boolean>`previous_refresh_hashes @> array[${presented}]::text[]`]))
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', now)
    .returning(['id', 'user_id'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    sessionId: row.id,
    tokens: { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_TTL_S, refresh_expires_in: REFRESH_TOKEN_TTL_S, created_at: now.toISOString() },
  };
}

/** The live session a refresh token belongs to (logout by cookie), or null. */
export async function sessionForRefreshToken(db: Kysely<Database>, refreshToken: string, now = new Date()): Promise<{ userId: number; sessionId: number } | null> {
  const row = await db
    .selectFrom('access_tokens')
    .select(['id', 'user_id'])
    .where((eb) => eb.or([eb('refresh_hash', '=', hashToken(refreshToken)), sql<boolean>`previous_refresh_hashes @> array[${hashToken(refreshToken)}]::text[]`]))
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, sessionId: row.id } : null;
}

/** Ends one session: neither its access nor its refresh token works afterwards. */
export async function revokeSession(db: Kysely<Database>, sessionId: number, now = new Date()): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user (after a password reset), optionally keeping the current one. */
export async function revokeAllSessions(db: Kysely<Database>, userId: number, now = new Date(), exceptSessionId?: number): Promise<void> {
  let query = db.updateTable('access_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

/** Deletes a user's dead sessions (revoked, or past their refresh lifetime) so the table stays small. */
export async function pruneSessions(db: Kysely<Database>, userId: number, now = new Date()): Promise<void> {
  await db
    .deleteFrom('access_tokens')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('refresh_expires_at', '<=', now)]))
    .execute();
}
