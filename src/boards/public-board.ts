import { ApiRequestError, request } from '../api/client';

/**
 * Public board links (docs/boards.md "Public links"): the board → workspace lookup, the password
 * check before opening, and the password of this browser session, which both board backends
 * send as X-Authorization-Password (shell.md §8). Not synced data: plain API calls.
 */

export interface PublicBoardInfo {
  board_id: string;
  team_id: number;
  name: string | null;
  password_required: boolean;
}

/** The workspace of a public board; null when the board is not public (or not there, or we are offline). */
export async function lookupPublicBoard(boardId: string): Promise<PublicBoardInfo | null> {
  try {
    const answer = await request<{ data: PublicBoardInfo }>('GET', `/api/boards/${encodeURIComponent(boardId)}/public`, undefined, { auth: false });
    return answer.data;
  } catch {
    return null;
  }
}

export type UnlockOutcome = 'ok' | 'wrong' | 'limited' | 'failed';

/** Asks the server whether the password opens the board (so the form can answer at once). */
export async function unlockBoard(boardId: string, password: string): Promise<UnlockOutcome> {
  try {
    await request('POST', `/api/boards/${encodeURIComponent(boardId)}/unlock`, { password }, { auth: false });
    return 'ok';
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return 'wrong';
    if (error instanceof ApiRequestError && error.status === 429) return 'limited';
    return 'failed';
  }
}

/** Server answers that mean "the board wants its password" (server/board-access/passwords.ts). */
export const PASSWORD_ERROR_TYPES = ['board_password_required', 'board_password_wrong'];
const PASSWORD_ERROR_TEXTS = ['This board is protected by a password.', 'The password is not correct.'];
export function isBoardPasswordError(error: unknown): boolean {
  const e = error as { body?: { type?: string } | null; message?: string } | null;
  return Boolean(e && (PASSWORD_ERROR_TYPES.includes(e.body?.type ?? '') || PASSWORD_ERROR_TEXTS.includes(e.message ?? '')));
}

// ── the session's board password ───────────────────────────────────────────────────────────────
const STORAGE_KEY = 'cairn.boardPassword';
type Stored = { boardId: string; password: string };
const listeners = new Set<(header: string | null) => void>();

function read(): Stored | null {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null;
  } catch {
    return null;
  }
}

/** The header value: percent-encoded, since HTTP headers carry only Latin-1 and passwords may not. */
const headerOf = (stored: Stored | null) => (stored ? encodeURIComponent(stored.password) : null);

export function hasBoardPassword(boardId: string): boolean {
  return read()?.boardId === boardId;
}

/** Remembers the password for this tab's session (one at a time: the header carries one). */
export function rememberBoardPassword(boardId: string, password: string | null): void {
  const next = password === null ? null : { boardId, password };
  if (next) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener(headerOf(next));
}

/** Calls `listener` with the header value now and whenever it changes (the backends' hook). */
export function onBoardPasswordHeader(listener: (header: string | null) => void): () => void {
  listeners.add(listener);
  listener(headerOf(read()));
  return () => listeners.delete(listener);
}
