import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { collections } from '../../schema/collections';
import { allowedPermissions, permissionFor } from '../../schema/permissions';
import type { FolderRecord } from '../../schema/records';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { notFound, parseBody, unauthenticated, unauthorized, validation } from '../http/errors';
import { registerAccessResolver, type AccessResolver } from '../workspaces/permission-routes';
import { folderLevel } from './access';
import { saveRecord } from './operations';
import { teamIdParam } from './params';
import { readScope } from './read-scope';
import { runWrite } from './write';

/** Board members (PUT /api/users) and a board's permission records (GET …/permissions/boards/{boardId}). */

const boardMembersBody = z.object({
  board_id: z.string().min(1),
  user_ids: z.array(z.number().int().positive()).max(10_000),
});

/**
 * GET /api/{teamId}/permissions/access for a board or a folder (W7.32, S6.6): the caller's allowed
 * permission names on it, read like any read of its board (401/403/404, board passwords). An id of
 * the other kind is a 422 naming resource_id; a resource the caller cannot see is refused.
 */
function folderAccess(type: 'board' | 'folder'): AccessResolver {
  const factory = permissionFor(type);
  return async ({ ctx, request, team, resourceId }) => {
    if (!resourceId) throw validation(['resource_id: is required']);
    const row = await ctx.db
      .selectFrom('records')
      .select(['data'])
      .where('team_id', '=', team.id)
      .where('collection', '=', 'folder')
      .where('id', '=', resourceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound();
    const folder = row.data as unknown as FolderRecord;
    const { view, user } = await readScope(ctx, request, team.id, folder.board_id);
    if (!view.canViewFolder(resourceId)) throw user ? unauthorized() : unauthenticated();
    if ((folder.parent_id === null) !== (type === 'board')) throw validation([`resource_id: is not a ${type}`]);
    const chain = view.chain(resourceId)!;
    if (factory.viewPermission && !factory.can({ permission: factory.viewPermission, user: view.viewer, chain })) throw unauthorized();
    return allowedPermissions({ user: view.viewer, chain });
  };
}

export function boardRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerAccessResolver('board', folderAccess('board'));
  registerAccessResolver('folder', folderAccess('folder'));

  /**
   * Sets a board's members: a normal save of the board (version + 1, logged, broadcast); needs
   * MANAGE_BOARD_MEMBERS. The permission is checked before anything else is looked at: an unknown
   * board and a board of someone else's workspace are the same 403, and only a board's managers
   * learn that a user id does not exist (no oracle for board or user ids).
   */
  app.put('/api/users', async (request, reply) => {
    await requireUser(ctx.db, request);
    const body = parseBody(boardMembersBody, request.body);
    // Only to know which workspace's lock and roles to use; the board itself is read under the lock.
    const located = await ctx.db.selectFrom('records').select(['team_id']).where('collection', '=', 'folder').where('id', '=', body.board_id).executeTakeFirst();
    if (!located) throw unauthorized();
    return runWrite(ctx, request, reply, located.team_id, async (scope) => {
      const stored = await scope.record('folder', body.board_id);
      if (!stored || stored.team_id !== scope.team.id || stored.data.parent_id !== null) throw unauthorized();
      const board = stored.data as unknown as FolderRecord;
      scope.require('MANAGE_BOARD_MEMBERS', [...scope.workspaceChain(), folderLevel(board)], stored.created_by);
      if (stored.deleted_at) throw notFound();
      const userIds = [...new Set(body.user_ids)];
      if (userIds.length) {
        const known = await scope.trx.selectFrom('users').select('id').where('id', 'in', userIds).execute();
        const missing = userIds.filter((id) => !known.some((k) => k.id === id));
        if (missing.length) throw validation(missing.map((id) => `user_ids: there is no user ${id}`));
      }
      const next = { ...stored.data, user_ids: userIds, row_version: stored.row_version + 1 };
      return { status: 200, body: { data: await saveRecord(scope, collections.folder, body.board_id, next) } };
    });
  });

  /**
   * The permission records of a board and its folders (workspace.md §3 "Permission record"),
   * with the permissions the caller holds on the board, for the client to grey out actions.
   */
  app.get<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/permissions/boards/:boardId', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const { view, boardId } = await readScope(ctx, request, teamId, request.params.boardId);
    const rows = await ctx.db
      .selectFrom('records')
      .select(['id', 'data', 'row_version'])
      .where('team_id', '=', teamId)
      .where('board_id', '=', boardId!)
      .where('collection', '=', 'folder')
      .where('deleted_at', 'is', null)
      .execute();
    const data = rows
      .filter((r) => view.canViewFolder(r.id))
      .map((r) => {
        const folder = r.data as unknown as FolderRecord;
        return {
          id: r.id,
          resource_type: folder.parent_id === null ? 'board' : 'folder',
          resource_id: r.id,
          permissions: folder.permissions ?? {},
          final_permissions: folder.final_permissions ?? [],
          row_version: r.row_version,
          team_id: teamId,
        };
      })
      .sort((a, b) => (a.resource_type === b.resource_type ? 0 : a.resource_type === 'board' ? -1 : 1)); // the board first
    const chain = view.chain(boardId!)!;
    return { data, allowed: allowedPermissions({ user: view.viewer, chain }) };
  });
}
