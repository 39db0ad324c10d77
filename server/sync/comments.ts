import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { validation } from '../http/errors';
import { teamIdParam } from './params';
import { readScope } from './read-scope';
import type { WireRecord } from './store';

/**
 * GET /api/{workspaceId}/comments/multiple?item_ids=a,b (or item_ids[]=a&item_ids[]=b, or
 * board_id=…): the comments of several items, with their reactions. Saving comments and
 * reactions is the generic registry path (PUT …/comments/{newId}, PUT …/comment-reaction/{newId});
 * their rules (sanitised html, author-only edits, own reactions) are in rules.ts.
 */
const MAX_ITEMS = 500;

function itemIdsOf(query: Record<string, unknown>): string[] {
  const raw = query['item_ids'] ?? query['item_ids[]'];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  return [...new Set(list.map(String).map((s) => s.trim()).filter(Boolean))];
}

export function commentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { teamId: string }; Querystring: Record<string, unknown> }>('/api/:teamId/comments/multiple', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const itemIds = itemIdsOf(request.query);
    const boardId = typeof request.query.board_id === 'string' && request.query.board_id ? request.query.board_id : null;
    if (itemIds.length === 0 && !boardId) throw validation(['item_ids: name at least one item (or a board_id)']);
    if (itemIds.length > MAX_ITEMS) throw validation([`item_ids: at most ${MAX_ITEMS} items at once`]);
    const { view } = await readScope(ctx, request, teamId, boardId);

    let query = ctx.db.selectFrom('records').select(['data']).where('team_id', '=', teamId).where('collection', '=', 'comment');
    if (boardId) query = query.where('board_id', '=', boardId);
    if (itemIds.length) query = query.where(sql<string>`data->>'item_id'`, 'in', itemIds);
    const comments = await view.filter(ctx.db, 'comment', (await query.execute()).map((r) => r.data as WireRecord));
    comments.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));

    const commentIds = comments.map((c) => c.id);
    const reactions = commentIds.length
      ? (
          await ctx.db
            .selectFrom('records')
            .select(['data'])
            .where('team_id', '=', teamId)
            .where('collection', '=', 'comment_reaction')
            .where(sql<string>`data->>'comment_id'`, 'in', commentIds)
            .execute()
        ).map((r) => r.data as WireRecord)
      : [];
    return { data: comments, reactions };
  });
}
