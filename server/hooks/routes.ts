import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { requireUser } from '../auth/guard';
import { ApiError, notFound, parseBody, validation } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { requireTeamPermission } from '../workspaces/access';
import { Messages } from '../../schema/messages';
import { Permission } from '../../schema/permission-names';
import { HOOK_ID, HOOK_LOG_DAYS, hookSaveBody, type Hook, type HookLog } from '../../schema/hooks';
import { deliverToUrl } from './send';
import { checkTargetUrl, outboundRule, TargetRefused } from '../outbound';

/**
 * The webhooks API (issue #14, docs/api/hooks.md). Managing a workspace's hooks takes
 * MANAGE_WEBHOOKS on the workspace (owners and admins by default). Nothing here delivers events:
 * the consumer and the deliver job do (consumer.ts, deliveries.ts); "Send test" is the one
 * request made while the caller waits.
 */

type HookRow = Selectable<Database['hooks']>;

/** A secret of 48 URL-safe characters (36 random bytes). */
const newSecret = () => randomBytes(36).toString('base64url');

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toHook(row: HookRow, teamName: string, secret?: string): Hook {
  return {
    id: row.id,
    team_id: row.team_id,
    team_name: teamName,
    url: row.url,
    events: row.events as Hook['events'],
    active: row.active,
    failures_in_a_row: row.failures_in_a_row,
    deactivated_at: iso(row.deactivated_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    ...(secret ? { secret } : {}),
  };
}

function hookIdParam(value: string): string {
  if (!HOOK_ID.test(value)) throw hookMissing();
  return value;
}

const hookMissing = () => new ApiError(404, Messages.hookMissing, 'not_found');

export function hookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const targetOptions = () => outboundRule(ctx.config, 'webhooks');

  /** The caller may manage the workspace's hooks; the hook of the path in that workspace, if any. */
  async function managed(request: { params: { teamId: string; hookId: string } } & Parameters<typeof requireUser>[1]) {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    const { team } = await requireTeamPermission(ctx, user, teamId, Permission.MANAGE_WEBHOOKS);
    const hookId = hookIdParam(request.params.hookId);
    const hook = await ctx.db.selectFrom('hooks').selectAll().where('id', '=', hookId).where('team_id', '=', teamId).executeTakeFirst();
    return { user, team, hookId, hook };
  }

  app.put<{ Params: { teamId: string; hookId: string } }>('/api/:teamId/hooks/:hookId', async (request) => {
    const { user, team, hookId, hook } = await managed(request);
    const body = parseBody(hookSaveBody, request.body);
    if (!hook) {
      // A new hook needs a target and events; an id taken in another workspace is not this one's to reuse.
      const problems = [...(body.url === undefined ? ['url: Required'] : []), ...(body.events === undefined ? ['events: Required'] : [])];
      if (problems.length) throw validation(problems);
      const taken = await ctx.db.selectFrom('hooks').select('id').where('id', '=', hookId).executeTakeFirst();
      if (taken) throw validation(['id: already in use']);
    }
    let url: string | undefined;
    if (body.url !== undefined) {
      try {
        url = (await checkTargetUrl(body.url, targetOptions())).toString();
      } catch (error) {
        if (error instanceof TargetRefused) throw validation([`url: ${error.message}`]);
        throw error;
      }
    }
    const now = ctx.now();
    const events = body.events ? JSON.stringify([...new Set(body.events)]) : undefined;
    if (!hook) {
      const secret = newSecret();
      const row = await ctx.db
        .insertInto('hooks')
        .values({ id: hookId, team_id: team.id, user_id: user.id, url: url!, events: events!, active: body.active ?? true, secret, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw validation(['id: already in use']);
      return { data: toHook(row, team.name, secret) };
    }
    const secret = body.rotate_secret ? newSecret() : undefined;
    // Switching a hook back on starts its failure count afresh.
    const reactivated = body.active === true && !hook.active;
    const row = await ctx.db
      .updateTable('hooks')
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
        ...(reactivated ? { failures_in_a_row: 0, deactivated_at: null } : {}),
        ...(secret ? { secret } : {}),
        updated_at: now,
      })
      .where('id', '=', hook.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { data: toHook(row, team.name, secret) };
  });

  app.delete<{ Params: { teamId: string; hookId: string } }>('/api/:teamId/hooks/:hookId', async (request) => {
    const { hook } = await managed(request);
    // Its deliveries and logs go with it (foreign keys); a queued job finds nothing and ends.
    if (hook) await ctx.db.deleteFrom('hooks').where('id', '=', hook.id).execute();
    return { message: 'Deleted.' };
  });

  app.get('/api/me/hooks', async (request) => {
    const user = await requireUser(ctx.db, request);
    const rows = await ctx.db
      .selectFrom('hooks')
      .innerJoin('teams', 'teams.id', 'hooks.team_id')
      .selectAll('hooks')
      .select('teams.name as team_name')
      .where('hooks.user_id', '=', user.id)
      .orderBy('hooks.created_at', 'desc')
      .orderBy('hooks.id')
      .execute();
    return { data: rows.map(({ team_name, ...row }) => toHook(row, team_name)) };
  });

  app.get<{ Params: { teamId: string; hookId: string }; Querystring: { limit?: string } }>('/api/:teamId/hooks/:hookId/logs', async (request) => {
    const { hook } = await managed(request);
    if (!hook) throw hookMissing();
    const limit = Math.min(200, Math.max(1, Number.parseInt(String(request.query.limit ?? '50'), 10) || 50));
    const since = new Date(ctx.now().getTime() - HOOK_LOG_DAYS * 24 * 3600_000);
    const rows = await ctx.db
      .selectFrom('hook_logs')
      .select(['id', 'delivery_id', 'event', 'attempt', 'status', 'response_status', 'duration_ms', 'error', 'request_body', 'response_body', 'created_at'])
      .where('hook_id', '=', hook.id)
      .where('created_at', '>=', since)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const data: HookLog[] = rows.map((r) => ({ ...r, id: String(r.id), created_at: iso(r.created_at)! }));
    return { data };
  });

  app.post<{ Params: { teamId: string; hookId: string } }>('/api/:teamId/hooks/:hookId/test', async (request) => {
    const { team, hook } = await managed(request);
    if (!hook) throw hookMissing();
    const now = ctx.now();
    const body = { id: randomUUID(), event: 'hook.test', team_id: team.id, board_id: null, data: { hook_id: hook.id, message: 'A test delivery from Cairn.' }, created_at: now.toISOString() };
    const result = await deliverToUrl({ url: hook.url, secret: hook.secret }, body, targetOptions());
    await ctx.db
      .insertInto('hook_logs')
      .values({ hook_id: hook.id, delivery_id: body.id, event: body.event, attempt: 1, status: result.ok ? 'success' : 'failed', response_status: result.status, duration_ms: result.duration_ms, error: result.error, request_body: JSON.stringify(body), response_body: result.response_body, created_at: now })
      .execute();
    if (!result.ok) throw new ApiError(422, result.error ?? Messages.somethingWentWrong, 'hook_test_failed', { response_status: result.status, duration_ms: result.duration_ms });
    return { message: Messages.hookTestOk };
  });
}
