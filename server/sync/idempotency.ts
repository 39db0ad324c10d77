import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import { IDEMPOTENCY_TTL_MS } from '../../schema/constants';
import { ApiError } from '../http/errors';

/**
 * X-Idempotency-Key (DESIGN.md §3): the response of a committed write is stored per user and
 * key for IDEMPOTENCY_TTL_MS, in the same transaction as the write, so a retry gets that
 * response and the write is not applied twice, even when the first response was lost.
 * Failed requests applied nothing and are not stored: their retry is evaluated afresh (an item
 * saved before its board existed succeeds once the board is there).
 */

export interface StoredResponse {
  status: number;
  body: unknown;
}

export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
const MAX_KEY_LENGTH = 200;

/** The key of a request, or null; a malformed one is a 422 rather than silently ignored. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > MAX_KEY_LENGTH) {
    throw new ApiError(422, `Validation Error: X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, 'validation', [`X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`]);
  }
  return key;
}

function cutoff(now: Date): Date {
  return new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
}

/** The stored response for this key, if any and not expired. A key reused for another request is refused. */
export async function findStoredResponse(trx: Transaction<Database>, userId: number, key: string, request: string, now: Date): Promise<StoredResponse | null> {
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['request', 'status', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('created_at', '>', cutoff(now))
    .executeTakeFirst();
  if (!row) return null;
  if (row.request !== request) {
    const message = 'X-Idempotency-Key was already used for another request';
    throw new ApiError(422, `Validation Error: ${message}`, 'validation', [message]);
  }
  return { status: row.status, body: row.response };
}

/** Stores the response in the write's transaction (an expired row with the same key is replaced). */
export async function storeResponse(trx: Transaction<Database>, userId: number, key: string, request: string, response: StoredResponse, now: Date): Promise<void> {
  await trx
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, request, status: response.status, response: JSON.stringify(response.body ?? null), created_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'key']).doUpdateSet({ request, status: response.status, response: JSON.stringify(response.body ?? null), created_at: now }),
    )
    .execute();
}

const lastPurge = new WeakMap<object, number>();
const PURGE_EVERY_MS = 60_000;

/** Deletes expired keys, at most once a minute per database (lazily, from the write path). */
export async function purgeExpiredKeys(db: Kysely<Database>, now: Date): Promise<void> {
  const last = lastPurge.get(db) ?? -Infinity;
  if (now.getTime() - last < PURGE_EVERY_MS) return;
  lastPurge.set(db, now.getTime());
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff(now)).execute();
}
