import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { hashPassword, verifyPassword } from '../accounts/password';
import { DatabaseThrottle, type Throttle } from '../accounts/rate-limit';
import { ApiError } from '../http/errors';
import { recheckSubscriptions } from '../realtime/recheck';

/**
 * Board passwords (workspace.md §1 "public … optionally password-protected"). Members never need
 * one; guests (anonymous or signed in outside the workspace) send it as X-Authorization-Password
 * (shell.md §8) with every read of the board.
 */

export const PASSWORD_HEADER = 'x-authorization-password';
export const BoardPasswordMessages = {
  required: 'This board is protected by a password.',
  wrong: 'The password is not correct.',
  tooMany: 'Too many wrong passwords. Please try again later.',
} as const;

/** Failed guesses per client address and board: 10 per 15 minutes, then 429 (counters in the database). */
const GUESS_RULE = { max: 10, windowMs: 15 * 60_000 };

interface State {
  throttle: Throttle;
  /** Verified (hash, password) pairs: scrypt costs ~50–100 ms and guests send the header on every read. */
  verified: Map<string, true>;
}
const states = new WeakMap<AppContext, State>();
function stateOf(ctx: AppContext): State {
  let state = states.get(ctx);
  if (!state) {
    state = { throttle: new DatabaseThrottle(ctx.db, () => ctx.now()), verified: new Map() };
    states.set(ctx, state);
  }
  return state;
}

export async function boardPasswordHash(ctx: AppContext, boardId: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('board_passwords').select('password_hash').where('board_id', '=', boardId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function setBoardPassword(ctx: AppContext, teamId: number, boardId: string, password: string | null, userId: number): Promise<void> {
  if (password === null) {
    await ctx.db.deleteFrom('board_passwords').where('board_id', '=', boardId).execute();
    return;
  }
  const hash = await hashPassword(password);
  await ctx.db
    .insertInto('board_passwords')
    .values({ board_id: boardId, team_id: teamId, password_hash: hash, updated_by: userId, updated_at: ctx.now() })
    .onConflict((oc) => oc.column('board_id').doUpdateSet({ password_hash: hash, team_id: teamId, updated_by: userId, updated_at: ctx.now() }))
    .execute();
  // Visitors who followed the board without a password lose it now (decision 0090).
  await recheckSubscriptions(ctx, { teamId, boardId });
}

const unlockError = (type: 'board_password_required' | 'board_password_wrong') =>
  new ApiError(401, type === 'board_password_required' ? BoardPasswordMessages.required : BoardPasswordMessages.wrong, type);

/** Checks a password against the board's hash; throws 401 (missing or wrong) or 429 (too many guesses). */
export async function checkBoardPassword(ctx: AppContext, request: FastifyRequest, boardId: string, hash: string, given: string | null): Promise<void> {
  if (!given) throw unlockError('board_password_required');
  const state = stateOf(ctx);
  const cacheKey = crypto.createHash('sha256').update(hash).update('\0').update(given).digest('base64url');
  if (state.verified.has(cacheKey)) return;
  // The guess is counted before scrypt runs, so parallel guesses cannot all pass the limit; a
  // right password gives its slot back.
  const slot = await state.throttle.take(`boardPassword:${request.ip}:${boardId}`, GUESS_RULE);
  if (!slot.allowed) throw new ApiError(429, BoardPasswordMessages.tooMany, 'rate_limited');
  if (!(await verifyPassword(given, hash))) throw unlockError('board_password_wrong');
  await state.throttle.giveBack(slot);
  if (state.verified.size > 10_000) state.verified.clear();
  state.verified.set(cacheKey, true);
}

/** The header's password (decoded: the client percent-encodes it so any character survives HTTP). */
export function headerPassword(request: FastifyRequest): string | null {
  const raw = request.headers[PASSWORD_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The team's password-protected boards, board id → hash (a guest's reads lock the others out). */
export async function teamBoardPasswords(ctx: AppContext, teamId: number): Promise<Map<string, string>> {
  const rows = await ctx.db.selectFrom('board_passwords').select(['board_id', 'password_hash']).where('team_id', '=', teamId).execute();
  return new Map(rows.map((r) => [r.board_id, r.password_hash]));
}
