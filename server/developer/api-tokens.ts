import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { hashToken } from '../auth/tokens';
import { TOKEN_PREFIX, type ApiAbility } from '../../schema/api-abilities';

/**
 * API tokens: personal access tokens and the access tokens OAuth apps receive (decision 0145).
 * Each is a prefix plus 256 random bits; only its SHA-256 is stored, so a database leak yields no
 * usable token, and a lookup by hash stays one indexed read.
 */

export const newSecret = (prefix: string) => prefix + crypto.randomBytes(32).toString('base64url');

/** True for a bearer token that is an API token rather than a session's access token. */
export const isApiToken = (token: string) => token.startsWith(TOKEN_PREFIX.personal) || token.startsWith(TOKEN_PREFIX.oauth);

/** How often `last_used_at` is written at most: one write per token per minute, not per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A live API token as the guard sees it. */
export interface ApiTokenGrant {
  tokenId: number;
  userId: number;
  kind: 'personal' | 'oauth';
  abilities: ApiAbility[];
}

/** The live token behind a bearer value, or null (unknown, revoked or expired). Notes its use. */
export async function resolveApiToken(db: Kysely<Database>, token: string, now: Date): Promise<ApiTokenGrant | null> {
  const row = await db
    .selectFrom('api_tokens')
    .select(['id', 'user_id', 'kind', 'abilities', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at) return null;
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  return { tokenId: row.id, userId: row.user_id, kind: row.kind, abilities: row.abilities as ApiAbility[] };
}

/** A personal access token as listed: never its value. */
export interface PersonalTokenView {
  id: number;
  name: string;
  abilities: string[];
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function createPersonalToken(db: Kysely<Database>, userId: number, input: { name: string; abilities: ApiAbility[]; expiresAt: Date | null }, now: Date) {
  const token = newSecret(TOKEN_PREFIX.personal);
  const row = await db
    .insertInto('api_tokens')
    .values({ user_id: userId, kind: 'personal', name: input.name, token_hash: hashToken(token), abilities: input.abilities, expires_at: input.expiresAt, created_at: now })
    .returning(['id', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, token, created_at: row.created_at.toISOString() };
}

/** The user's personal tokens that still work, newest first. */
export async function listPersonalTokens(db: Kysely<Database>, userId: number, now: Date): Promise<PersonalTokenView[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'abilities', 'last_used_at', 'expires_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, abilities: row.abilities, last_used_at: iso(row.last_used_at), expires_at: iso(row.expires_at), created_at: row.created_at.toISOString() }));
}

/** Revokes one of the user's personal tokens; false when it is not theirs or already gone. */
export async function revokePersonalToken(db: Kysely<Database>, userId: number, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
