import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
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

/**
 * SQL (a data-modifying CTE body) that claims the key for this request before any work: a row
 * with status 0, or the takeover of an expired row. A duplicate arriving while the first copy
 * still runs waits here on the key's unique index until that one commits (then finds its
 * response) or rolls back (then claims the key itself). Returns one row when claimed.
 * `after` is a CTE name whose evaluation must come first (the locks).
 */
export function claimKeySql(userId: number, key: string, request: string, now: Date, after: RawBuilder<unknown>) {
  return sql`
    insert into idempotency_keys (user_id, key, request, status, response, created_at)
    select ${userId}, ${key}, ${request}, 0, null, ${now} from ${after}
    on conflict (user_id, key) do update
      set request = excluded.request, status = 0, response = null, created_at = excluded.created_at
      where idempotency_keys.created_at <= ${cutoff(now)}
    returning 1`;
}

/** The committed response of a key someone else claimed first. A key reused for another request is refused. */
export async function storedResponse(trx: Transaction<Database>, userId: number, key: string, request: string): Promise<StoredResponse> {
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['request', 'status', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (row.request !== request) {
    const message = 'X-Idempotency-Key was already used for another request';
    throw new ApiError(422, `Validation Error: ${message}`, 'validation', [message]);
  }
  return { status: row.status, body: row.response };
}

/** SQL storing the response on the claimed key (run in the write's transaction, maybe with its writes). */
export function storeResponseSql(userId: number, key: string, response: StoredResponse) {
  return sql`update idempotency_keys set status = ${response.status}, response = ${JSON.stringify(response.body ?? null)}::jsonb where user_id = ${userId} and key = ${key}`;
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
