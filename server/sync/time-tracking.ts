import type { FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import { sql } from 'kysely';
import { collections } from '../../schema/collections';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { parseBody, validation } from '../http/errors';
import { z } from 'zod';
import { readableNames } from './readable-names';
import { saveRecord } from './operations';
import type { WriteScope } from './scope';
import type { WireRecord } from './store';
import { readScope } from './read-scope';
import { runWrite } from './write';
import { teamIdParam } from './params';

/**
 * Time-tracking calls of workspace.md §7. Entries are ordinary synced records (collection
 * time_entry, route time-tracking); the start rules live in time-entries.ts and apply to every
 * save path. Entries come sorted by started_at, newest first.
 */

/** POST /api/{teamId}/time-tracking: a save whose body may omit the id (the server makes one). */
export async function saveTimeEntry(scope: WriteScope, payload: unknown): Promise<WireRecord> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw validation(['the body must be a time entry']);
  const body = { ...(payload as Record<string, unknown>) };
  const id = typeof body.id === 'string' && body.id ? body.id : nanoid();
  if (body.started_at === undefined) body.started_at = scope.now.toISOString();
  return saveRecord(scope, collections.time_entry, id, body);
}

/** The most entries one ranged answer holds (a year of a busy tracker). */
const MAX_RANGE_ENTRIES = 5000;

const isoQueryTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO date or time');
const myTimeQuery = z.object({ from: isoQueryTime.optional(), to: isoQueryTime.optional() });

const newestFirst = (a: WireRecord, b: WireRecord) => String(b.started_at).localeCompare(String(a.started_at));

export function timeTrackingRoutes(app: FastifyInstance, ctx: AppContext): void {
  /**
   * The signed-in user's own entries in every workspace, newest first, with the names of their
   * attributes (workspace.md §7) — and, for the "My time" screen, the names of their items and
   * boards the user may still read (readable-names.ts). `from` / `to` (ISO times; from inclusive,
   * to exclusive, by started_at) bound the range; without them the newest 500 come.
   */
  app.get('/api/me/time-tracking', async (request) => {
    const user = await requireUser(ctx.db, request);
    const range = parseBody(myTimeQuery, request.query ?? {});
    let query = ctx.db.selectFrom('records').select(['data', 'team_id']).where('collection', '=', 'time_entry').where('created_by', '=', user.id);
    if (range.from) query = query.where(sql<boolean>`(data->>'started_at')::timestamptz >= ${range.from}::timestamptz`);
    if (range.to) query = query.where(sql<boolean>`(data->>'started_at')::timestamptz < ${range.to}::timestamptz`);
    const rows = await query
      .orderBy(sql`(data->>'started_at')::timestamptz`, 'desc')
      .limit(range.from || range.to ? MAX_RANGE_ENTRIES : 500)
      .execute();
    const entries: WireRecord[] = rows.map((r) => ({ ...(r.data as WireRecord), team_id: r.team_id }));
    const attributeIds = [...new Set(entries.map((e) => e.attribute_id).filter((a): a is string => typeof a === 'string'))];
    const attributes = attributeIds.length
      ? await ctx.db.selectFrom('records').select(['id', sql<string>`data->>'name'`.as('name')]).where('collection', '=', 'attribute').where('id', 'in', attributeIds).execute()
      : [];
    const attributeNames = Object.fromEntries(attributes.map((a) => [a.id, a.name]));
    const names = await readableNames(ctx.db, user.id, entries.map((e) => ({ team_id: e.team_id as number, board_id: e.board_id, item_id: typeof e.item_id === 'string' ? e.item_id : null })));
    return { attributeNames, itemNames: Object.fromEntries(names.items), boardNames: Object.fromEntries(names.boards), entries };
  });

  /** One board's entries the user may see (all, or only their own when sharedEntries is off). */
  app.get<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/time-tracking/:boardId', async (request) => {
    const { view, boardId } = await readScope(ctx, request, teamIdParam(request.params.teamId), request.params.boardId);
    const rows = await ctx.db
      .selectFrom('records')
      .select(['data'])
      .where('team_id', '=', view.team.id)
      .where('board_id', '=', boardId)
      .where('collection', '=', 'time_entry')
      .execute();
    const entries = await view.filter(ctx.db, 'time_entry', rows.map((r) => r.data as WireRecord));
    return { data: entries.sort(newestFirst) };
  });

  app.post<{ Params: { teamId: string } }>('/api/:teamId/time-tracking', async (request, reply) =>
    runWrite(ctx, request, reply, teamIdParam(request.params.teamId), async (scope) => ({
      status: 200,
      body: { data: await saveTimeEntry(scope, request.body) },
    })),
  );
}
