import { sql, type Transaction } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import type { PermissionEntries, RoleOrGuest } from '../../schema/permissions';
import { requireUserId } from '../auth/guard';
import { notFound, unauthorized } from '../http/errors';
import type { TeamRow } from './access';
import { registerFloor, teamLock } from './cursor';
import { claimKeySql, idempotencyKeyOf, purgeExpiredKeys, storedResponse, storeResponseSql, type StoredResponse } from './idempotency';
import { DeferredWritesOvertaken, WriteScope, type LockMode, type PendingEvent } from './scope';
import { RollbackWith } from './batch';
import { proViewsAllowed } from '../billing/pro-views';
import { readOnlyError, readOnlyStateOf } from '../billing/read-only';

/**
 * Runs one write request: signed-in user, team, one DB transaction holding the team lock in the
 * planned mode (lock-plan.ts), the idempotency key claimed and answered inside it, and the
 * realtime events published only after commit (never for a replayed response).
 */
export async function runWrite(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  teamId: number,
  work: (scope: WriteScope) => Promise<StoredResponse>,
  opts: { lock?: LockMode } = {},
): Promise<unknown> {
  const userId = await requireUserId(ctx.db, request);
  const key = idempotencyKeyOf(request.headers);
  const mode = opts.lock ?? 'exclusive';
  const now = ctx.now();
  const signature = `${request.method} ${request.url}`;

  let replayed = false;
  let events: PendingEvent[] = [];
  const attempt = (mayDefer: boolean) => ctx.db
    .transaction()
    .execute(async (trx) => {
      const opened = await openWrite(trx, { teamId, userId, mode, now, key: key ? { key, signature } : null });
      if (!opened.team) throw notFound();
      if (key && !opened.claimed) {
        // The key was used before: its committed response answers (a duplicate that arrived
        // while the first copy ran waited for it inside openWrite).
        replayed = true;
        return storedResponse(trx, userId, key, signature);
      }
      const scope = new WriteScope(trx, opened.team, { id: userId, role: opened.role, teamId }, now, { locked: mode, mayDefer });
      scope.proViews = () => proViewsAllowed(ctx, trx, teamId, now);
      scope.tokenAbilities = request.apiToken?.abilities ?? null;
      // An ended subscription leaves the workspace read-only (decision 0360): each save is refused
      // in dispatchWrite, so a batch answers every request. Only members learn why.
      const readOnly = ctx.config.billing && opened.subscription ? readOnlyStateOf(opened.subscription, now) : null;
      if (readOnly) scope.refusal = opened.role === 'guest' ? unauthorized() : readOnlyError(readOnly);
      // Plain saves write at the end, together with the key's response: one round trip.
      scope.deferWrites();
      const result = await work(scope);
      await scope.finish();
      const store = key ? storeResponseSql(userId, key, result) : undefined;
      if (!(await scope.flushWrites(store)) && store) await store.execute(trx);
      events = scope.events;
      return result;
    });
  const response = await attempt(true)
    // Another transaction overtook some deferred saves: run it again, writing each save at once
    // so each overtaken one answers its own 409.
    .catch((error: unknown) => (error instanceof DeferredWritesOvertaken ? attempt(false) : Promise.reject(error)))
    .catch((error: unknown) => {
      // A transaction batch that failed: nothing applied, nothing stored, answer with its outcome.
      if (error instanceof RollbackWith) return error.response;
      throw error;
    });

  if (replayed) reply.header('x-idempotent-replay', 'true');
  else {
    // The write's domain events are committed: wake this server's runner for its consumers.
    ctx.jobs.kick();
    await publishAll(ctx, request, events);
  }
  if (key) void purgeExpiredKeys(ctx.db, now).catch((error) => request.log.warn({ err: error }, 'idempotency purge failed'));
  return reply.status(response.status).send(response.body);
}

interface Opened {
  team: TeamRow | null;
  role: RoleOrGuest;
  claimed: boolean;
  /** The end dates of the team's subscription (read in the same statement), for the read-only rule. */
  subscription: { trial_ends_at: Date | null; ends_at: Date | null } | null;
}

/**
 * The write transaction's first statement, one round trip: the team lock and the change floor
 * (cursor.ts), then the idempotency key's claim (after the locks, so two copies of one request
 * queue in the same order on both), and the team with the user's role (same rule as memberRole
 * in server/workspaces/access.ts: the owner is owner, a verified member has their role, anyone
 * else is a guest).
 */
async function openWrite(
  trx: Transaction<Database>,
  args: { teamId: number; userId: number; mode: LockMode; now: Date; key: { key: string; signature: string } | null },
): Promise<Opened> {
  const { teamId, userId, mode, now, key } = args;
  const claim = key ? sql`, claim as (${claimKeySql(userId, key.key, key.signature, now, sql`locks`)})` : sql``;
  const claimed = key ? sql`(select count(*) from claim)` : sql`0`;
  const { rows } = await sql<{
    id: number | null;
    owner_id: number | null;
    permissions: unknown;
    role: RoleOrGuest | null;
    verified_at: Date | null;
    locked: string;
    claimed: string;
    trial_ends_at: Date | null;
    ends_at: Date | null;
  }>`
    with locks as materialized (select ${teamLock(teamId, mode)} as team_lock, ${registerFloor} as floor)${claim}
    select t.id, t.owner_id, t.permissions, m.role, m.verified_at, (select count(*) from locks) as locked, ${claimed} as claimed,
      s.trial_ends_at, s.ends_at
    from (select 1) as one
    left join teams t on t.id = ${teamId}
    left join team_members m on m.team_id = t.id and m.user_id = ${userId}
    left join subscriptions s on s.id = t.subscription_id`.execute(trx);
  const row = rows[0]!;
  if (row.id === null || row.owner_id === null) return { team: null, role: 'guest', claimed: false, subscription: null };
  const team: TeamRow = { id: row.id, owner_id: row.owner_id, permissions: (row.permissions ?? {}) as PermissionEntries };
  const role: RoleOrGuest = row.owner_id === userId ? 'owner' : row.role && row.verified_at ? row.role : 'guest';
  return { team, role, claimed: Number(row.claimed) > 0, subscription: { trial_ends_at: row.trial_ends_at, ends_at: row.ends_at } };
}

/** Publishes after commit; a realtime failure is logged, the write stands (clients catch up via /changes). */
async function publishAll(ctx: AppContext, request: FastifyRequest, events: PendingEvent[]): Promise<void> {
  const socket = request.headers['x-socket-id'];
  const excludeSocketId = typeof socket === 'string' && socket ? socket : undefined;
  if (ctx.broadcaster.publishMany && events.length > 0) {
    // Together: the realtime module judges who may read each record once per write (decision 0090).
    try {
      await ctx.broadcaster.publishMany(events, excludeSocketId ? { excludeSocketId } : undefined);
    } catch (error) {
      request.log.warn({ err: error }, 'broadcast failed');
    }
    return;
  }
  for (const event of events) {
    try {
      await ctx.broadcaster.publish(event.channel, event.event, event.data, excludeSocketId ? { excludeSocketId } : undefined);
    } catch (error) {
      request.log.warn({ err: error, channel: event.channel }, 'broadcast failed');
    }
  }
}
