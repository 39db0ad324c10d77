import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { notFound, unauthenticated, unauthorized } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { allowed } from '../sync/access';
import { toEvent, type EventRowFromDb } from '../events/consumers';
import type { DomainEvent } from '../events/types';
import { parseActivityQuery, type ActivityQuery } from './query';
import { readableEvents } from './read-filter';
import { AUTOBOT_USER_ID } from '../../schema/automations';

/**
 * GET /api/{teamId}/activity — the activity log (issue #11.7, decision 0110): who changed what and
 * when, field by field, from the domain events, newest first.
 *   ?item_id=  one item and everything on it (values, comments, reactions, time entries): for
 *              anyone who may read the item.
 *   ?board_id= the whole board: VIEW_ACTIVITY_LOG on the board.
 *   &user_id= (who did it) &from= &to= (ISO times, from inclusive, to exclusive) &after= &limit=
 * → {data: ActivityEntry[], after, has_more, deleted_user_ids}; only events the reader may read
 * (server/sync/reads.ts); deleted_user_ids: actors of the page whose account no longer exists.
 */

type ActivityEntry = Omit<DomainEvent, 'team_id'>;

/** How many rows one page may look at before it answers short (a reader who sees little of a busy board). */
const MAX_SCANNED = 2000;

export function activityRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { teamId: string } }>('/api/:teamId/activity', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const query = parseActivityQuery(request.query);
    let boardId = query.board_id ?? null;
    let itemId: string | null = null;
    let item: { board_id: string; data: unknown } | undefined;
    if (query.item_id !== undefined) {
      // An item (trashed ones too); one removed for good is known by its last event.
      item = await ctx.db.selectFrom('records').select(['board_id', 'data']).where('collection', '=', 'item').where('id', '=', query.item_id).where('team_id', '=', teamId).executeTakeFirst();
      const itemBoard = item?.board_id ?? (await removedItemBoard(ctx, teamId, query.item_id));
      if (!itemBoard || (boardId !== null && boardId !== itemBoard)) throw notFound();
      boardId = itemBoard;
      itemId = query.item_id;
    }
    const { view, user } = await readScope(ctx, request, teamId, boardId);
    if (itemId !== null) {
      const folderId = (item?.data as { folder_id?: unknown } | undefined)?.folder_id;
      if (typeof folderId === 'string' && !view.canViewIn(folderId, boardId!)) throw user ? unauthorized() : unauthenticated();
    } else {
      const chain = view.chain(boardId!);
      if (!chain || !allowed(view.viewer, 'VIEW_ACTIVITY_LOG', chain)) throw user ? unauthorized() : unauthenticated();
    }
    return withUnknownPeople(ctx, await page(ctx, view, teamId, boardId!, itemId, query));
  });
}

/**
 * Names the actors of a page whose account the server does not find (W3.3, W8.4): the app shows
 * them as "Deleted Account", and an actor it knows who is no member as "Removed User".
 */
async function withUnknownPeople<P extends { data: ActivityEntry[] }>(ctx: AppContext, answer: P): Promise<P & { deleted_user_ids: number[] }> {
  const ids = [...new Set(answer.data.map((e) => e.actor_id).filter((id): id is number => typeof id === 'number' && id !== AUTOBOT_USER_ID))];
  if (ids.length === 0) return { ...answer, deleted_user_ids: [] };
  const found = new Set((await ctx.db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
  return { ...answer, deleted_user_ids: ids.filter((id) => !found.has(id)) };
}

async function removedItemBoard(ctx: AppContext, teamId: number, itemId: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('domain_events').select('board_id').where('team_id', '=', teamId).where('item_id', '=', itemId).where('collection', '=', 'item').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.board_id ?? null;
}

async function page(ctx: AppContext, view: Parameters<typeof readableEvents>[1], teamId: number, boardId: string, itemId: string | null, query: ActivityQuery) {
  const data: ActivityEntry[] = [];
  let cursor = query.after ?? null;
  let scanned = 0;
  // Keyset pages over the index, newest first. Events the reader may not read are skipped, so it
  // reads on until the page is full, the log ends, or enough rows were looked at (then the answer
  // is short but says has_more, with `after` below the last row looked at).
  while (scanned < MAX_SCANNED) {
    const want = query.limit - data.length + 1;
    let q = ctx.db.selectFrom('domain_events').selectAll().where('team_id', '=', teamId);
    q = itemId !== null ? q.where('item_id', '=', itemId) : q.where('board_id', '=', boardId);
    if (query.user_id !== undefined) q = q.where('actor_id', '=', query.user_id);
    if (query.from !== undefined) q = q.where('created_at', '>=', new Date(query.from));
    if (query.to !== undefined) q = q.where('created_at', '<', new Date(query.to));
    if (cursor !== null) q = q.where(sql<boolean>`id < ${cursor}::bigint`);
    const rows = await q.orderBy('id', 'desc').limit(want).execute();
    scanned += rows.length;
    const exhausted = rows.length < want;
    const events = rows.map((r) => toEvent(r as unknown as EventRowFromDb));
    const readable = new Set((await readableEvents(ctx.db, view, teamId, events)).map((e) => e.id));
    for (const [index, event] of events.entries()) {
      if (!readable.has(event.id)) continue;
      const { team_id: _team, ...entry } = event;
      data.push(entry);
      if (data.length === query.limit) {
        const more = index < events.length - 1 || !exhausted;
        return { data, after: more ? event.id : null, has_more: more };
      }
    }
    if (exhausted) return { data, after: null, has_more: false };
    cursor = events[events.length - 1]!.id;
  }
  return { data, after: cursor, has_more: true };
}
