import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AutomationRun } from '../../schema/automations';
import type { AppContext } from '../context';
import { parseBody, unauthenticated, unauthorized } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { usageOf } from './usage';

/**
 * GET /api/{teamId}/automations/runs?board_id=[&automation_id=][&after=][&limit=] — the run log,
 *   newest first: {data: AutomationRun[], after, has_more}.
 * GET /api/{teamId}/automations/usage?board_id= — this month's runs against the plan's limit
 *   (AutomationUsage; the board names where the figure is shown, the count is the workspace's).
 * Both for the workspace's members who may view the board (docs/api/automations.md).
 */

const runsQuery = z.strictObject({
  board_id: z.string().min(1).max(64),
  automation_id: z.string().min(1).max(64).optional(),
  after: z.string().regex(/^\d{1,19}$/, 'a run id').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
const usageQuery = z.strictObject({ board_id: z.string().min(1).max(64) });

type TeamParams = { Params: { teamId: string } };

async function memberOfBoard(ctx: AppContext, request: Parameters<typeof readScope>[1], teamId: number, boardId: string) {
  const scope = await readScope(ctx, request, teamId, boardId);
  if (scope.role === 'guest') throw scope.user ? unauthorized() : unauthenticated();
  return scope;
}

export function automationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const runsDocs = { summary: 'The run log of a board’s automations, newest first', tag: 'automations', query: runsQuery, description: 'Each run: automation, item, trigger, result (done, skipped, failed, limit) and the reason it was skipped or failed. Pages with `after`.' };
  app.get<TeamParams>('/api/:teamId/automations/runs', { config: { docs: runsDocs } }, async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const query = parseBody(runsQuery, request.query);
    await memberOfBoard(ctx, request, teamId, query.board_id);
    let q = ctx.db.selectFrom('automation_runs').selectAll().where('team_id', '=', teamId).where('board_id', '=', query.board_id).where('result', '!=', 'running');
    if (query.automation_id) q = q.where('automation_id', '=', query.automation_id);
    if (query.after) q = q.where('id', '<', query.after);
    const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
    const more = rows.length > query.limit;
    const data: AutomationRun[] = rows.slice(0, query.limit).map((r) => ({
      id: String(r.id),
      automation_id: r.automation_id,
      board_id: r.board_id,
      item_id: r.item_id,
      trigger: r.trigger as AutomationRun['trigger'],
      result: r.result as AutomationRun['result'],
      error: r.error,
      created_at: new Date(r.created_at).toISOString(),
    }));
    return { data, after: more ? data[data.length - 1]!.id : null, has_more: more };
  });

  const usageDocs = { summary: 'This month’s automation runs against the plan’s AutomationRunsLimit', tag: 'automations', query: usageQuery, description: 'The workspace’s runs this calendar month (UTC), its limit, the rate and state (ok, warning at 80 %, exceeded at 100 %: every automation stops until the 1st) and runs per board.' };
  app.get<TeamParams>('/api/:teamId/automations/usage', { config: { docs: usageDocs } }, async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const query = parseBody(usageQuery, request.query);
    await memberOfBoard(ctx, request, teamId, query.board_id);
    return usageOf(ctx.db, teamId, ctx.now(), ctx);
  });
}
