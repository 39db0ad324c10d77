import { sql } from 'kysely';
import { RECORD_ID_PATTERN } from '../../schema/records';
import { z } from 'zod';
import type { BatchResult } from '../../schema/collections';
import { ApiError, parseBody } from '../http/errors';
import { Messages } from '../../schema/messages';
import { dispatchWrite } from './dispatch';
import { collectionByRoute } from '../../schema/collections';
import { requestLockMode } from './lock-plan';
import type { StoredResponse } from './idempotency';
import type { WriteScope } from './scope';

/**
 * POST /api/{teamId}/batch — the queued requests of the worker (DESIGN.md §3):
 *   {transaction: batchIdOrNull, requests: [{method, route, payload}]} → [{status, data}]
 * With a transaction id the requests apply together or not at all; without, each applies on its
 * own (a savepoint each), and the answer lists every outcome. Either way the whole batch is one
 * DB transaction, so its idempotency key is stored with its writes.
 */

export const MAX_BATCH_REQUESTS = 1000;

export const batchBody = z.object({
  transaction: z.union([z.string().min(1).max(200), z.number()]).nullable().default(null),
  requests: z
    .array(
      z.object({
        method: z.string().transform((m) => m.toLowerCase()).pipe(z.enum(['put', 'delete', 'post'])),
        route: z.string().min(1).max(500),
        payload: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(MAX_BATCH_REQUESTS),
});

/** Thrown inside the write transaction to roll it back and still answer with this response. */
export class RollbackWith extends Error {
  constructor(readonly response: StoredResponse) {
    super('rolled back');
  }
}

function failure(error: unknown): BatchResult {
  if (error instanceof ApiError) return { status: error.status, data: error.body() };
  throw error; // not a request problem: the whole batch fails with a 500
}

const NOT_APPLIED = { message: 'Not applied: another request of the same transaction failed.', type: 'transaction_rolled_back' };

type BatchRequest = z.infer<typeof batchBody>['requests'][number];

/**
 * Reads what the batch's saves will look at (their records, what they point at, their boards'
 * folders) in one query up front, instead of one per request. Best effort from the raw payloads:
 * anything missed is read by the save itself.
 */
async function prefetchAll(scope: WriteScope, requests: BatchRequest[]): Promise<void> {
  const keys: { collection: string; id: string }[] = [];
  const boards = new Set<string>();
  for (const r of requests) {
    if (r.method !== 'put') continue;
    const parts = r.route.replace(/^\/+/, '').split('?', 1)[0]!.split('/');
    const def = parts.length === 2 ? collectionByRoute(parts[0]!) : undefined;
    const payload = r.payload as Record<string, unknown> | null | undefined;
    if (!def || !payload || typeof payload !== 'object') continue;
    let id: string;
    try {
      id = decodeURIComponent(parts[1]!);
    } catch {
      continue;
    }
    // Not a client id (a decoded %00 among them): the request itself answers 404 (dispatch.ts).
    if (!RECORD_ID_PATTERN.test(id)) continue;
    keys.push({ collection: def.name, id });
    for (const ref of def.references) {
      const value = payload[ref.field];
      if (ref.collection !== 'folder' && typeof value === 'string') keys.push({ collection: ref.collection, id: value });
    }
    if (typeof payload.board_id === 'string') boards.add(payload.board_id);
  }
  if (keys.length || boards.size) await scope.prefetch(keys, [...boards]);
}

/**
 * Whether a failure of this request can leave writes behind. A single-record save of a plain
 * collection writes one statement at its very end (a refused one writes nothing), so it needs no
 * savepoint of its own; anything else gets one.
 */
const needsSavepoint = (r: BatchRequest) => requestLockMode(r.method, r.route) !== 'shared';

export async function runBatch(scope: WriteScope, rawBody: unknown): Promise<StoredResponse> {
  const body = parseBody(batchBody, rawBody);
  const results: BatchResult[] = [];
  await prefetchAll(scope, body.requests);

  if (body.transaction !== null) {
    for (const [index, request] of body.requests.entries()) {
      try {
        const response = await dispatchWrite(scope, request.method, request.route, request.payload);
        results.push({ status: response.status, data: (response.body as { data: unknown }).data });
      } catch (error) {
        const failed = failure(error);
        const answer: BatchResult[] = body.requests.map((_, i) => (i === index ? failed : { status: 424, data: NOT_APPLIED }));
        const message = (failed.data as { message?: string }).message ?? Messages.somethingWentWrong;
        throw new RollbackWith({ status: failed.status, body: { message, type: 'transaction_failed', data: answer } });
      }
    }
    return { status: 200, body: results };
  }

  for (const [index, request] of body.requests.entries()) {
    const mark = scope.mark();
    const savepoint = needsSavepoint(request) ? sql.raw(`batch_${index}`) : null;
    if (savepoint) await sql`savepoint ${savepoint}`.execute(scope.trx);
    try {
      const response = await dispatchWrite(scope, request.method, request.route, request.payload);
      if (savepoint) await sql`release savepoint ${savepoint}`.execute(scope.trx);
      results.push({ status: response.status, data: (response.body as { data: unknown }).data });
    } catch (error) {
      if (savepoint) await sql`rollback to savepoint ${savepoint}`.execute(scope.trx);
      scope.rollbackTo(mark);
      results.push(failure(error));
    }
  }
  return { status: 200, body: results };
}
