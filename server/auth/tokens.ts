import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import { endSubscriptions } from '../realtime/subscriptions';

/** Lifetimes of a session's tokens. The access token is short; the refresh token rotates on use. */
// CAIRN_ACCESS_TOKEN_TTL_S shortens it for tests that watch a session outlive its access token.
export const ACCESS_TOKEN_TTL_S = Number(process.env.CAIRN_ACCESS_TOKEN_TTL_S) || 60 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/** The absolute lifetime of a session from its sign-in; refreshing never extends it (SESSION_MAX_AGE_DAYS). */
export const SESSION_MAX_AGE_S = (Number(process.env.SESSION_MAX_AGE_DAYS) || 90) * 24 * 60 * 60;

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

/** How many tokens issued for the last-used refresh token a session keeps accepting (lost answers). */
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

/** What a refresh token bought: a new pair, a replay that ended its session, or nothing. */
export type Rotation =
  | { kind: 'rotated'; userId: number; sessionId: number; tokens: TokenRecord }
  | { kind: 'replayed'; userId: number; sessionId: number }
  | { kind: 'dead' };

/**
 * Rotates a session's tokens: a live refresh token buys a new access token and a new refresh token.
 * The session keeps its id (guards and realtime refer to it). Decision 0093 on top of 0010:
 *
 * - Lost answers: an answer can be lost after the server committed (a tab closed mid-request, a
 *   dropped connection), leaving the browser with the cookie it sent. So the token last used (U)
 *   keeps working, and so does every token issued for it since (U's successors, up to three):
 *   two tabs refreshing with one cookie both keep a session.
 * - Reuse: using one of U's successors proves the client received it; U and U's other successors
 *   are retired. A retired token presented again means two parties hold the session's tokens (a
 *   stolen copy), and the whole session is revoked: every token of it stops working.
 * - Absolute lifetime: nothing is issued past `created_at` + SESSION_MAX_AGE_S (the sign-in).
 *
 * The replaced access token works until its own expiry, so other tabs holding it carry on.
 */
export async function rotateTokens(db: Kysely<Database>, refreshToken: string, now = new Date(), maxAgeS = SESSION_MAX_AGE_S): Promise<Rotation> {
  const presented = hashToken(refreshToken);
  const rotation = await db.transaction().execute(async (trx): Promise<Rotation> => {
    // Locks the session row: a parallel refresh with the same token waits, then sees this rotation.
    const session = await trx
      .selectFrom('access_tokens')
      .select(['id', 'user_id', 'refresh_hash', 'previous_refresh_hashes', 'last_used_refresh_hash', 'created_at'])
      .where((eb) => eb.or([eb('refresh_hash', '=', presented), sql<boolean>`previous_refresh_hashes @> array[${presented}]::text[]`]))
      .where('revoked_at', 'is', null)
      .where('refresh_expires_at', '>', now)
      .forUpdate()
      .executeTakeFirst();
    if (!session) return endReplayedSession(trx, presented, now);
    const endsAt = session.created_at.getTime() + maxAgeS * 1000;
    if (endsAt <= now.getTime()) return { kind: 'dead' };

    const live = [session.refresh_hash, ...session.previous_refresh_hashes];
    const anchor = session.last_used_refresh_hash;
    // Re-using U (an answer was lost): U stays, its successors too. Using a successor: it becomes U.
    const successors = presented === anchor ? live.filter((hash) => hash !== anchor) : [];
    const keptSuccessors = successors.slice(0, PREVIOUS_REFRESH_TOKENS_KEPT);
    const stillLive = new Set([presented, ...keptSuccessors]);
    const retired = live.filter((hash) => !stillLive.has(hash));

    const access = newToken();
    const refresh = newToken();
    const accessExpires = Math.min(now.getTime() + ACCESS_TOKEN_TTL_S * 1000, endsAt);
    const refreshExpires = Math.min(now.getTime() + REFRESH_TOKEN_TTL_S * 1000, endsAt);
    await trx
      .updateTable('access_tokens')
      .set({
        access_hash: hashToken(access),
        previous_access_hash: sql<string>`access_hash`,
        previous_access_expires_at: sql<Date>`expires_at`,
        refresh_hash: hashToken(refresh),
        previous_refresh_hashes: [...keptSuccessors, presented],
        last_used_refresh_hash: presented,
        expires_at: new Date(accessExpires),
        refresh_expires_at: new Date(refreshExpires),
      })
      .where('id', '=', session.id)
      .execute();
    if (retired.length) {
      await trx
        .insertInto('retired_refresh_tokens')
        .values(retired.map((hash) => ({ refresh_hash: hash, session_id: session.id, retired_at: now })))
        .onConflict((oc) => oc.column('refresh_hash').doNothing())
        .execute();
    }
    const seconds = (at: number) => Math.max(0, Math.floor((at - now.getTime()) / 1000));
    return {
      kind: 'rotated',
      userId: session.user_id,
      sessionId: session.id,
      tokens: { access_token: access, refresh_token: refresh, expires_in: seconds(accessExpires), refresh_expires_in: seconds(refreshExpires), created_at: now.toISOString() },
    };
  });
  // A replay revoked the session: its realtime subscriptions end with it, once the revocation is committed.
  if (rotation.kind === 'replayed') endSubscriptions(db, { sessionId: rotation.sessionId });
  return rotation;
}

/** A presented token the session retired: revokes that session (once) and says whose it was. */
async function endReplayedSession(db: Kysely<Database>, presented: string, now: Date): Promise<Rotation> {
  const row = await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('revoked_at', 'is', null)
    .where('id', '=', (eb) => eb.selectFrom('retired_refresh_tokens').select('session_id').where('refresh_hash', '=', presented))
    .returning(['id', 'user_id'])
    .executeTakeFirst();
  return row ? { kind: 'replayed', userId: row.user_id, sessionId: row.id } : { kind: 'dead' };
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
  // Its realtime subscriptions end with it (decision 0090). `db` must not be an open transaction.
  endSubscriptions(db, { sessionId });
}

/** Ends every session of a user (after a password reset), optionally keeping the current one. */
export async function revokeAllSessions(db: Kysely<Database>, userId: number, now = new Date(), exceptSessionId?: number): Promise<void> {
  let query = db.updateTable('access_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
  endSubscriptions(db, exceptSessionId === undefined ? { userId } : { userId, exceptSessionId });
}

/** Deletes a user's dead sessions (revoked, or past their refresh lifetime) so the table stays small. */
export async function pruneSessions(db: Kysely<Database>, userId: number, now = new Date()): Promise<void> {
  await db
    .deleteFrom('access_tokens')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('refresh_expires_at', '<=', now)]))
    .execute();
}
