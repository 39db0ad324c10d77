import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectionList } from '../../schema/collections';
import type { AppContext } from '../context';
import { sql } from 'kysely';
import { unauthenticated, unauthorized, validation } from '../http/errors';
import { runBatch } from './batch';
import { acceptsGzip, changesAnswer, GZIP_FROM_CHARS } from './changes';
import { dispatchWrite } from './dispatch';
import { teamIdParam } from './params';
import { changesScope, readScope } from './read-scope';
import { type WireRecord } from './store';
import { indexLoad } from './index-load';
import { batchLockMode, requestLockMode } from './lock-plan';
import { runWrite } from './write';
import { timeTrackingRoutes } from './time-tracking';
import { commentRoutes } from './comments';
import { boardRoutes } from './boards';

/**
 * The sync module: the generic endpoints of every collection in the registry (DESIGN.md §3,
 * docs/sync-protocol.md), plus batch, delta, trash, time tracking, comments and board members.
 */

type TeamParams = { Params: { teamId: string; id: string }; Querystring: Record<string, string | undefined> };

function queryString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function syncRoutes(app: FastifyInstance, ctx: AppContext): void {
  const write = (request: FastifyRequest<TeamParams>, reply: FastifyReply, method: 'put' | 'delete' | 'post', route: string) =>
    runWrite(ctx, request, reply, teamIdParam(request.params.teamId), (scope) => dispatchWrite(scope, method, route, request.body), {
      lock: requestLockMode(method, route),
    });

  for (const def of collectionList) {
    const base = `/api/:teamId/${def.route}`;
    const search = (request: FastifyRequest<TeamParams>) => (request.query.permanent ? `?permanent=${encodeURIComponent(request.query.permanent)}` : '');
    app.get<TeamParams>(base, (request) => indexLoad(ctx, request, def));
    app.put<TeamParams>(base, (request, reply) => write(request, reply, 'put', def.route));
    app.put<TeamParams>(`${base}/:id`, (request, reply) => write(request, reply, 'put', `${def.route}/${encodeURIComponent(request.params.id)}`));
    app.delete<TeamParams>(`${base}/:id`, (request, reply) =>
      write(request, reply, 'delete', `${def.route}/${encodeURIComponent(request.params.id)}${search(request)}`),
    );
    if (def.trash) {
      app.post<TeamParams>(`${base}/:id/restore`, (request, reply) => write(request, reply, 'post', `${def.route}/${encodeURIComponent(request.params.id)}/restore`));
    }
  }

  app.post<TeamParams>('/api/:teamId/batch', (request, reply) =>
    runWrite(ctx, request, reply, teamIdParam(request.params.teamId), (scope) => runBatch(scope, request.body), { lock: batchLockMode(request.body) }),
  );

  app.get<TeamParams>('/api/:teamId/changes', async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const raw = request.query.after ?? '0';
    if (!/^\d{1,18}$/.test(raw)) throw validation(['after: must be a change cursor (a whole number)']);
    // format=2: the lean wire format (schema/changes-wire.ts, decision 0320); 1, the default, as before.
    const format = request.query.format ?? '1';
    if (format !== '1' && format !== '2') throw validation(['format: must be 1 or 2']);
    const boardId = queryString(request.query.board_id);
    const { view } = await changesScope(ctx, request, teamId, boardId);
    // The JSON text, made from changes serialised once per shared page, gzipped when the client
    // takes it and the answer is large (changes.ts, decision 0192).
    const answer = await changesAnswer(ctx.db, view, Number(raw), boardId, format === '2' ? 2 : 1);
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
    if (answer.json.length < GZIP_FROM_CHARS || !acceptsGzip(request.headers['accept-encoding'])) return reply.send(answer.json);
    return reply.header('content-encoding', 'gzip').send(await answer.gzipped());
  });

  /** Trashed records of a board; without board_id, the trashed boards the user may restore. */
  app.get<TeamParams>('/api/:teamId/trash', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = queryString(request.query.board_id);
    const { view, user } = await readScope(ctx, request, teamId, boardId);
    if (!user) throw unauthenticated();
    // The trash is the workspace's: visitors of a public board (guests) never see it (decision 0090).
    if (view.viewer.role === 'guest') throw unauthorized();
    let query = ctx.db
      .selectFrom('records')
      .select(['collection', 'id', 'data', 'created_by'])
      .where('team_id', '=', teamId)
      .where('deleted_at', 'is not', null)
      .orderBy('deleted_at', 'desc');
    query = boardId ? query.where('board_id', '=', boardId) : query.where('collection', '=', 'folder').where(sql<boolean>`board_id = id`);
    const rows = await query.execute();
    const mayManage = view.viewer.role === 'owner' || view.viewer.role === 'admin';
    // The one read rule, per collection: nothing of a folder (or board) the user may not see.
    const byCollection = new Map<string, WireRecord[]>();
    for (const row of rows) byCollection.set(row.collection, [...(byCollection.get(row.collection) ?? []), row.data as WireRecord]);
    const readable = new Set<string>();
    for (const [collection, records] of byCollection) {
      for (const record of await view.filter(ctx.db, collection, records)) readable.add(`${collection}:${record.id}`);
    }
    const data = rows
      .filter((r) => readable.has(`${r.collection}:${r.id}`))
      .filter((r) => boardId !== null || mayManage || r.created_by === user?.id)
      .map((r) => ({ collection: r.collection, id: r.id, record: r.data as WireRecord }));
    return { data };
  });

  timeTrackingRoutes(app, ctx);
  commentRoutes(app, ctx);
  boardRoutes(app, ctx);
}
