import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/types';
import { hashToken } from '../auth/tokens';
import { TOKEN_PREFIX } from '../../schema/api-abilities';
import { newSecret } from './api-tokens';

/** OAuth applications a developer registers (decision 0145): the client id is public, the secret shown once and stored hashed. */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI an app may register: absolute, no fragment (RFC 6749 §3.1.2), https, or http only
 * to this machine (native apps and development, RFC 8252 §7.3). Compared exactly when used.
 */
export const redirectUriField = z
  .string({ error: 'must be a URL' })
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.hash || value.includes('#')) return false;
      if (url.protocol === 'https:') return true;
      return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    } catch {
      return false;
    }
  }, 'must be an https URL (or http to localhost) without a fragment');

export const appBody = z
  .object({
    name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
    redirect_uris: z.array(redirectUriField, { error: 'must be a list of URLs' }).min(1, 'must name at least one URL').max(10, 'must be at most 10 URLs'),
  })
  .strict();

export interface AppView {
  id: number;
  name: string;
  client_id: string;
  redirect_uris: string[];
  created_at: string;
  updated_at: string;
}


const viewOf = (row: { id: number; name: string; client_id: string; redirect_uris: string[]; created_at: Date; updated_at: Date }): AppView => ({
  id: row.id,
  name: row.name,
  client_id: row.client_id,
  redirect_uris: row.redirect_uris,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const columns = ['id', 'name', 'client_id', 'redirect_uris', 'created_at', 'updated_at'] as const;

export async function listApps(db: Kysely<Database>, userId: number): Promise<AppView[]> {
  const rows = await db.selectFrom('oauth_clients').select(columns).where('user_id', '=', userId).orderBy('id', 'desc').execute();
  return rows.map(viewOf);
}

export async function registerApp(db: Kysely<Database>, userId: number, input: z.infer<typeof appBody>, now: Date) {
  const secret = newSecret(TOKEN_PREFIX.clientSecret);
  const row = await db
    .insertInto('oauth_clients')
    .values({ client_id: crypto.randomBytes(16).toString('hex'), secret_hash: hashToken(secret), user_id: userId, name: input.name, redirect_uris: input.redirect_uris, created_at: now, updated_at: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { ...viewOf(row), client_secret: secret };
}

export async function updateApp(db: Kysely<Database>, userId: number, id: number, input: z.infer<typeof appBody>, now: Date): Promise<AppView | null> {
  const row = await db
    .updateTable('oauth_clients')
    .set({ name: input.name, redirect_uris: input.redirect_uris, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(columns)
    .executeTakeFirst();
  return row ? viewOf(row) : null;
}

/** A new secret (the old one stops working); shown this once. */
export async function rotateAppSecret(db: Kysely<Database>, userId: number, id: number, now: Date) {
  const secret = newSecret(TOKEN_PREFIX.clientSecret);
  const row = await db
    .updateTable('oauth_clients')
    .set({ secret_hash: hashToken(secret), updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(columns)
    .executeTakeFirst();
  return row ? { ...viewOf(row), client_secret: secret } : null;
}

/** Deletes the app; its codes and every token issued to it go with it (foreign keys cascade). */
export async function deleteApp(db: Kysely<Database>, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('oauth_clients').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The app by its public client id. */
export async function findClient(db: Kysely<Database>, clientId: string) {
  return db.selectFrom('oauth_clients').select(['id', 'client_id', 'secret_hash', 'name', 'redirect_uris']).where('client_id', '=', clientId).executeTakeFirst();
}

/** Compares a presented secret with the stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && crypto.timingSafeEqual(presented, stored);
}

