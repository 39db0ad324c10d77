import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser } from '../auth/guard';
import { notFound, unauthenticated, unauthorized } from '../http/errors';
import { loadTeam, roleIn } from './access';
import { ReadView } from './reads';
import { requireBoardPassword } from '../board-access/passwords';

/**
 * The reader of a read request: the signed-in user or an anonymous visitor (public boards are
 * readable without login), the team (404), and when a board is named, the right to view it
 * (401 for an anonymous visitor, 403 for a signed-in user).
 */
export async function readScope(ctx: AppContext, request: FastifyRequest, teamId: number, boardId?: string | null) {
  const db = ctx.db;
  const user = await optionalUser(ctx.db, request);
  const team = await loadTeam(db, teamId);
  if (!team) throw notFound();
  const role = await roleIn(ctx, team, user?.id ?? null);
  const view = await ReadView.open(db, team, { id: user?.id ?? null, role });
  if (boardId !== undefined && boardId !== null) {
    if (!view.boardExists(boardId)) {
      if (!user) throw unauthenticated();
      throw notFound();
    }
    if (!view.canViewFolder(boardId)) throw user ? unauthorized() : unauthenticated();
    await requireBoardPassword(ctx, request, role, boardId);
  } else {
    // Without a board: signed-in users only, and someone outside the workspace needs a board of it.
    if (!user) throw unauthenticated();
    if (role === 'guest' && !view.boardIds().some((id) => view.canViewFolder(id))) throw unauthorized();
  }
  return { user, team, role, view, boardId: boardId ?? null };
}
