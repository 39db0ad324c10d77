import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { subscriptionState } from './limits';
import { optionalUser } from '../auth/guard';
import { collectionList } from '../../schema/collections';

/**
 * Read-only workspaces (workspace.md §4: "cancelled but running to its end date (then
 * read-only)", "trial expired"; issue #27 W4.3, decision 0360). A workspace whose subscription
 * has ended (trial_expired or expired) keeps every read and export, and refuses every write with
 * the spec's words, until its owner buys a plan on that subscription (which clears its end date).
 * With BILLING=off nothing is ever read-only.
 */
export type ReadOnlyReason = 'trial_expired' | 'expired';

type Db = Kysely<Database> | Transaction<Database>;

/** The read-only reason of a subscription's end dates now (no subscription: never). */
export function readOnlyStateOf(sub: { trial_ends_at: Date | string | null; ends_at: Date | string | null }, now: Date): ReadOnlyReason | null {
  const state = subscriptionState(sub, now);
  return state === 'trial_expired' || state === 'expired' ? state : null;
}

/** Why the workspace is read-only now, or null when it may be written. */
export async function readOnlyReason(ctx: Pick<AppContext, 'config'>, db: Db, teamId: number, now: Date): Promise<ReadOnlyReason | null> {
  if (!ctx.config.billing) return null;
  const row = await db
    .selectFrom('teams')
    .innerJoin('subscriptions', 'subscriptions.id', 'teams.subscription_id')
    .select(['subscriptions.trial_ends_at', 'subscriptions.ends_at'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
  return row ? readOnlyStateOf(row, now) : null;
}

export const READ_ONLY_TYPE = 'workspace_read_only';

/** The refusal: 403 with the spec's words ("trial expired, buy a plan"; an expired subscription). */
export function readOnlyError(reason: ReadOnlyReason): ApiError {
  return new ApiError(403, reason === 'trial_expired' ? Messages.trialExpired : Messages.subscriptionExpired, READ_ONLY_TYPE, { reason });
}

/**
 * Changes a read-only workspace still takes: deleting or leaving it, exports (a POST only because
 * they start a job), and reporting the user's own conflicts (their unsynced work, kept safe).
 * Sync writes (`/batch` and each collection route) are judged per request in dispatchWrite, so a
 * batch answers every request's refusal instead of one for the whole call.
 */
const ALLOWED = new Set([
  'DELETE /api/teams/:id',
  'DELETE /api/teams/:id/leave',
  'POST /api/:teamId/boards/:boardId/exports/pdf',
  'POST /api/:teamId/conflicts',
  'POST /api/:teamId/batch',
]);

/** The workspace a write route names in its path, or null (routes of the account, billing, public ones). */
export function teamOfRoute(url: string, params: Record<string, string>): number | null {
  const raw = url.startsWith('/api/:teamId/') ? params.teamId : url.startsWith('/api/teams/:id') || url.startsWith('/api/teams/whitelabel/:id') ? params.id : undefined;
  // Not a workspace id the database can hold (an int4): the handler answers it with its own 4xx.
  if (raw === undefined || !/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) return null;
  return Number(raw);
}

/** The sync routes (one per collection): judged inside their write transaction, see above. */
const SYNC_ROUTES = new Set(
  collectionList.flatMap((def) => [`/api/:teamId/${def.route}`, `/api/:teamId/${def.route}/:id`, `/api/:teamId/${def.route}/:id/restore`]),
);

/**
 * Refuses writes to read-only workspaces on every route registered after it, before the handler
 * runs. Only a signed-in member is told why; anyone else goes on to the handler, which answers
 * them as it always does (401, 403 or 404), so the refusal says nothing to outsiders.
 */
export function installReadOnlyGuard(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS' || !ctx.config.billing) return;
    const url = request.routeOptions.url;
    if (!url || ALLOWED.has(`${request.method} ${url}`) || SYNC_ROUTES.has(url)) return;
    const teamId = teamOfRoute(url, (request.params ?? {}) as Record<string, string>);
    if (teamId === null) return;
    const user = await optionalUser(ctx.db, request).catch(() => null);
    if (!user) return;
    const row = await ctx.db
      .selectFrom('teams')
      .innerJoin('subscriptions', 'subscriptions.id', 'teams.subscription_id')
      .innerJoin('team_members', (join) => join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', user.id))
      .select(['subscriptions.trial_ends_at', 'subscriptions.ends_at'])
      .where('teams.id', '=', teamId)
      .where((eb) => eb.or([eb('team_members.verified_at', 'is not', null), eb('teams.owner_id', '=', user.id)]))
      .executeTakeFirst();
    const reason = row ? readOnlyStateOf(row, ctx.now()) : null;
    if (reason) throw readOnlyError(reason);
  });
}
