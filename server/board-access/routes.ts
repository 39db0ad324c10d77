import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { notFound, parseBody, unauthorized } from '../http/errors';
import { memberRole } from '../workspaces/access';
import { loadTeam } from '../sync/access';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { ReadView } from '../sync/reads';
import { boardPasswordHash, checkBoardPassword, setBoardPassword } from './passwords';

/**
 * Public board links (docs/api/board-access.md): the board → workspace lookup a shared link needs
 * (the board route carries no workspace), unlocking a password-protected board, and setting or
 * clearing that password.
 */

type BoardParams = { Params: { boardId: string } };
type TeamBoardParams = { Params: { teamId: string; boardId: string } };

const passwordBody = z.object({ password: z.string().min(1).max(255).nullable() });
const unlockBody = z.object({ password: z.string().max(255) });

/** The live board with this id, as a public visitor may see it; null for anything else (private, trashed, unknown). */
async function publicBoard(ctx: AppContext, boardId: string) {
  const row = await ctx.db
    .selectFrom('records')
    .select(['team_id', 'data'])
    .where('collection', '=', 'folder')
    .where('id', '=', boardId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || (row.data as { parent_id?: unknown }).parent_id !== null) return null;
  const team = await loadTeam(ctx.db, row.team_id);
  if (!team) return null;
  // The same rule the index load applies to an anonymous visitor (workspace and board entries).
  const view = await ReadView.open(ctx.db, team, { id: null, role: 'guest' });
  if (!view.boardExists(boardId) || !view.canViewFolder(boardId)) return null;
  return { teamId: team.id, name: String((row.data as { name?: unknown }).name ?? '') };
}

export function boardAccessRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** Which workspace a public board is in, and whether it asks for a password. 404 for every non-public board. */
  app.get<BoardParams>('/api/boards/:boardId/public', async (request) => {
    const board = await publicBoard(ctx, request.params.boardId);
    if (!board) throw notFound();
    const passwordRequired = (await boardPasswordHash(ctx, request.params.boardId)) !== null;
    return { data: { board_id: request.params.boardId, team_id: board.teamId, name: passwordRequired ? null : board.name, password_required: passwordRequired } };
  });

  /** Checks a password before the board is opened, so the form can say "wrong password" at once. */
  app.post<BoardParams>('/api/boards/:boardId/unlock', async (request) => {
    const board = await publicBoard(ctx, request.params.boardId);
    if (!board) throw notFound();
    const hash = await boardPasswordHash(ctx, request.params.boardId);
    const { password } = parseBody(unlockBody, request.body);
    if (hash) await checkBoardPassword(ctx, request, request.params.boardId, hash, password);
    return { data: { board_id: request.params.boardId, team_id: board.teamId } };
  });

  /** Whether the board has a password (any reader of the board; members use it on edit-board). */
  app.get<TeamBoardParams>('/api/:teamId/boards/:boardId/password', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    await readScope(ctx, request, teamId, request.params.boardId);
    return { data: { password_required: (await boardPasswordHash(ctx, request.params.boardId)) !== null } };
  });

  /** Sets (a string) or clears (null) the password: the workspace owner and admins. */
  app.put<TeamBoardParams>('/api/:teamId/boards/:boardId/password', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    const body = parseBody(passwordBody, request.body);
    await readScope(ctx, request, teamId, request.params.boardId); // 404 / 403 as for reading it
    const role = await memberRole(ctx, user.id, teamId);
    if (role !== 'owner' && role !== 'admin') throw unauthorized();
    const board = await ctx.db
      .selectFrom('records')
      .select(['data'])
      .where('collection', '=', 'folder')
      .where('id', '=', request.params.boardId)
      .where('team_id', '=', teamId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!board || (board.data as { parent_id?: unknown }).parent_id !== null) throw notFound();
    await setBoardPassword(ctx, teamId, request.params.boardId, body.password, user.id);
    return { data: { password_required: body.password !== null } };
  });
}
