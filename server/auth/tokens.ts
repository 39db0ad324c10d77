import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

/** Lifetimes of a session's tokens. The access token is short; the refresh token rotates on use. */
export const ACCESS_TOKEN_TTL_S = 60 * 60;
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

/** The user id behind a live access token, or null. */
export async function userIdForAccessToken(db: Kysely<Database>, token: string, now = new Date()): Promise<{ userId: number; sessionId: number } | null> {
  const row = await db
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('access_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at || row.expires_at.getTime() <= now.getTime()) return null;
  return { userId: row.user_id, sessionId: row.id };
}

/**
 * Rotates a session's tokens: a live refresh token buys a new access token and a new refresh token,
 * and the old pair stops working at once. Null when the refresh token is unknown, used, revoked or
 * past its lifetime. The session keeps its id (guards and realtime refer to it).
 */
export async function rotateTokens(db: Kysely<Database>, refreshToken: string, now = new Date()): Promise<{ userId: number; sessionId: number; tokens: TokenRecord } | null> {
  const access = newToken();
  const refresh = newToken();
  // One conditional update: two concurrent refreshes with the same token cannot both win.
  const row = await db
    .updateTable('access_tokens')
    .set({
      access_hash: hashToken(access),
      refresh_hash: hashToken(refresh),
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
      refresh_expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    })
    .where('refresh_hash', '=', hashToken(refreshToken))
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
    .where('refresh_hash', '=', hashToken(refreshToken))
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
