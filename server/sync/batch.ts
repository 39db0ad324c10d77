import { sql } from 'kysely';
import { z } from 'zod';
import type { BatchResult } from '../../schema/collections';
import { ApiError, parseBody } from '../http/errors';
import { Messages } from '../../schema/messages';
import { dispatchWrite } from './dispatch';
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

const batchBody = z.object({
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

export async function runBatch(scope: WriteScope, rawBody: unknown): Promise<StoredResponse> {
  const body = parseBody(batchBody, rawBody);
  const results: BatchResult[] = [];

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
    const savepoint = sql.raw(`batch_${index}`);
    await sql`savepoint ${savepoint}`.execute(scope.trx);
    try {
      const response = await dispatchWrite(scope, request.method, request.route, request.payload);
      await sql`release savepoint ${savepoint}`.execute(scope.trx);
      results.push({ status: response.status, data: (response.body as { data: unknown }).data });
    } catch (error) {
      await sql`rollback to savepoint ${savepoint}`.execute(scope.trx);
      scope.rollbackTo(mark);
      results.push(failure(error));
    }
  }
  return { status: 200, body: results };
}
