import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser } from '../auth/guard';
import { notFound, unauthenticated, unauthorized } from '../http/errors';
import { loadTeam, loadTeamAndRole } from './access';
import { loadTeamFolders, ReadView } from './reads';
import { checkBoardPassword, headerPassword, teamBoardPasswords } from '../board-access/passwords';

/**
 * The reader of a read request: the signed-in user or an anonymous visitor (public boards are
 * readable without login), the team (404), and when a board is named, the right to view it
 * (401 for an anonymous visitor, 403 for a signed-in user).
 *
 * Someone outside the workspace (role guest: anonymous, or signed in without membership) reads
 * only boards they may view, and a password-protected one only with its password: every other
 * protected board of the team is locked out of the view, so no read answers its records.
 */
export async function readScope(ctx: AppContext, request: FastifyRequest, teamId: number, boardId?: string | null) {
  const db = ctx.db;
  const user = await optionalUser(ctx.db, request);
  // The team and the reader's role in one query (the same rule as roleIn), beside the team's folders:
  // every read and every /changes page of a herd after a deploy starts here.
  const [access, folders] = await Promise.all([user ? loadTeamAndRole(db, teamId, user.id) : loadTeam(db, teamId).then((team) => team && { team, role: 'guest' as const }), loadTeamFolders(db, teamId)]);
  if (!access) throw notFound();
  const { team, role } = access;
  const view = new ReadView(team, { id: user?.id ?? null, role }, folders);
  const named = boardId !== undefined && boardId !== null;
  // Without a board: signed-in users only, and someone outside the workspace needs a board of it.
  if (!named && !user) throw unauthenticated();
  // A guest's locks and the named board's password come from one read of the team's passwords.
  const passwords = role === 'guest' ? await teamBoardPasswords(ctx, teamId) : null;
  if (named) {
    if (!view.boardExists(boardId)) {
      if (!user) throw unauthenticated();
      throw notFound();
    }
    if (!view.canViewFolder(boardId)) throw user ? unauthorized() : unauthenticated();
    const hash = passwords?.get(boardId);
    if (hash) await checkBoardPassword(ctx, request, boardId, hash, headerPassword(request));
  }
  if (passwords) view.lock([...passwords.keys()].filter((id) => !named || id !== boardId));
  if (!named && role === 'guest' && !view.boardIds().some((id) => view.canViewFolder(id))) throw unauthorized();
  return { user, team, role, view, boardId: boardId ?? null };
}

/**
 * The scope of GET /changes. Members may ask the whole workspace's feed; anyone else catches up
 * per board (`board_id`, checked as any read of that board): a workspace-wide cursor cannot
 * stand for a reader who sees only some boards, each unlocked by its own password.
 */
export async function changesScope(ctx: AppContext, request: FastifyRequest, teamId: number, boardId: string | null) {
  const scope = await readScope(ctx, request, teamId, boardId);
  if (boardId === null && scope.role === 'guest') throw scope.user ? unauthorized() : unauthenticated();
  return scope;
}
