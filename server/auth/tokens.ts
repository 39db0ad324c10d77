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
