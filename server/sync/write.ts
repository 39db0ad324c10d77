import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { notFound } from '../http/errors';
import { loadTeamAndRole } from './access';
import { findStoredResponse, idempotencyKeyOf, purgeExpiredKeys, storeResponse, type StoredResponse } from './idempotency';
import { WriteScope, type PendingEvent } from './scope';
import { RollbackWith } from './batch';

/**
 * Runs one write request: signed-in user, team, one DB transaction holding the team's write
 * lock, the idempotency key checked and stored inside it, and the realtime events published
 * only after commit (never for a replayed response).
 */
export async function runWrite(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  teamId: number,
  work: (scope: WriteScope) => Promise<StoredResponse>,
): Promise<unknown> {
  const user = await requireUser(ctx.db, request);
  const key = idempotencyKeyOf(request.headers);
  const found = await loadTeamAndRole(ctx.db, teamId, user.id);
  if (!found) throw notFound();
  const { team, role } = found;
  const now = ctx.now();
  const signature = `${request.method} ${request.url}`;

  let replayed = false;
  let events: PendingEvent[] = [];
  const response = await ctx.db
    .transaction()
    .execute(async (trx) => {
    const scope = new WriteScope(trx, team, { id: user.id, role, teamId }, now);
    // The lock comes first, so a duplicate delivered while the first copy is still running
    // waits for it and then finds its stored response.
    await scope.lock();
    if (key) {
      const stored = await findStoredResponse(trx, user.id, key, signature, now);
      if (stored) {
        replayed = true;
        return stored;
      }
    }
    const result = await work(scope);
    if (key) await storeResponse(trx, user.id, key, signature, result, now);
    events = scope.events;
    return result;
  })
    .catch((error: unknown) => {
      // A transaction batch that failed: nothing applied, nothing stored, answer with its outcome.
      if (error instanceof RollbackWith) return error.response;
      throw error;
    });

  if (replayed) reply.header('x-idempotent-replay', 'true');
  else await publishAll(ctx, request, events);
  if (key) void purgeExpiredKeys(ctx.db, now).catch((error) => request.log.warn({ err: error }, 'idempotency purge failed'));
  return reply.status(response.status).send(response.body);
}

/** Publishes after commit; a realtime failure is logged, the write stands (clients catch up via /changes). */
async function publishAll(ctx: AppContext, request: FastifyRequest, events: PendingEvent[]): Promise<void> {
  const socket = request.headers['x-socket-id'];
  const excludeSocketId = typeof socket === 'string' && socket ? socket : undefined;
  for (const event of events) {
    try {
      await ctx.broadcaster.publish(event.channel, event.event, event.data, excludeSocketId ? { excludeSocketId } : undefined);
    } catch (error) {
      request.log.warn({ err: error, channel: event.channel }, 'broadcast failed');
    }
  }
}
