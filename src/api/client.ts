import { nanoid } from 'nanoid';
import { CLIENT_VERSION } from '../../schema/constants';
import { Messages } from '../../schema/messages';
import type { ApiErrorBody } from '../../schema/api-error';
import { connectivity } from '../connectivity/instance';
import { canRefresh, isExpired, readToken, type AccessToken } from './token';
import { CHALLENGE_FAILED, isChallenge, obtainClearance } from '../navigation/challenge';
import { previewMode } from '../navigation/preview-instance';
import { sendsInPreview } from '../navigation/preview';

/**
 * HTTP client for the calls that are not synced data (accounts, workspaces, members, profile).
 * Synced records go through the sync worker, never through here.
 *
 * The access token lives in this module's memory. On load the app calls `restoreSession()`, which
 * asks POST /api/auth/refresh; the refresh token travels only in the httpOnly cookie.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message || `HTTP ${status}`);
  }
  get type() {
    return this.body?.type;
  }
}

/** Status 0 marks "no answer": the network or the server is unreachable. */
export const OFFLINE_STATUS = 0;

let token: AccessToken | null = null;
let refreshing: Promise<boolean> | null = null;
const sessionListeners = new Set<(signedIn: boolean) => void>();
const tokenListeners = new Set<(token: AccessToken | null) => void>();
const headerListeners = new Set<(headers: Headers) => void>();
/** This tab's X-SW-UUID (shell.md §7: lets the service worker match what a client asked for). */
const swUuid = nanoid();
/** How the last refresh ended: `unreachable` is no answer or a 5xx (the session may still be fine). */
let lastRefresh: 'ok' | 'refused' | 'unreachable' | null = null;
/** Set after an offline start: the session has no token yet, so the next call refreshes first. */
let refreshDue = false;

export function currentToken(): AccessToken | null {
  return token;
}

/**
 * A refresh rotates the session's tokens on the server, so the access token another tab of this
 * browser holds stops working. Tabs therefore share each new token (memory to memory, never through
 * storage) over a BroadcastChannel.
 */
const channel: BroadcastChannel | null = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('cairn-session');

function apply(next: AccessToken | null) {
  const was = token !== null;
  token = next;
  if (next) refreshDue = false;
  if (was !== (next !== null)) for (const listener of sessionListeners) listener(next !== null);
  for (const listener of tokenListeners) listener(next);
}

export function setToken(next: AccessToken | null) {
  apply(next);
  channel?.postMessage({ token: next });
}

channel?.addEventListener('message', (event: MessageEvent<{ token?: AccessToken | null }>) => {
  const next = event.data?.token;
  if (next === undefined) return;
  // Another tab signed in or refreshed: adopt its token; it signed out: so do we.
  if (next === null || (typeof next.access_token === 'string' && next.access_token)) apply(next);
});

/** Told about every new token (sign-in, refresh here or in another tab) and its end (null). */
export function onTokenChange(listener: (token: AccessToken | null) => void): () => void {
  tokenListeners.add(listener);
  return () => void tokenListeners.delete(listener);
}

/** Told about the headers of every answer (the update rules read x-update-required from them). */
export function onResponseHeaders(listener: (headers: Headers) => void): () => void {
  headerListeners.add(listener);
  return () => void headerListeners.delete(listener);
}

/** How the last refresh ended; `unreachable` means it says nothing about the session. */
export function lastRefreshOutcome(): 'ok' | 'refused' | 'unreachable' | null {
  return lastRefresh;
}

/** After an offline start: refresh before the next authenticated call (see session.ts). */
export function markRefreshDue() {
  refreshDue = true;
}

/** Told when the session starts or ends (login, logout, a refresh that failed with 401). */
export function onSessionChange(listener: (signedIn: boolean) => void): () => void {
  sessionListeners.add(listener);
  return () => void sessionListeners.delete(listener);
}

async function send(method: string, path: string, body: unknown, auth: boolean): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Client-Version': CLIENT_VERSION,
    'X-Idempotency-Key': nanoid(),
    'X-SW-UUID': swUuid,
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (auth && token) headers.Authorization = `Bearer ${token.access_token}`;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    connectivity.networkFailure();
    throw new ApiRequestError(OFFLINE_STATUS, { message: Messages.offlineAction, type: 'offline' });
  }
  connectivity.serverAnswered();
  for (const listener of headerListeners) listener(response.headers);
  // A proxy's human check (shell.md §4): the overlay, then the same request again.
  if (isChallenge(response.headers)) {
    if (await obtainClearance(path)) return send(method, path, body, auth);
    throw new ApiRequestError(response.status, { message: CHALLENGE_FAILED, type: 'challenge' });
  }
  return response;
}

async function parse(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** Asks for a new access token with the refresh cookie. False when there is no session. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const before = token;
    try {
      const response = await send('POST', '/api/auth/refresh', {}, false);
      lastRefresh = response.ok ? 'ok' : response.status >= 500 ? 'unreachable' : 'refused';
      if (!response.ok) {
        // Two tabs of a live session refreshing at once: one wins and shares its token; give it a
        // moment to arrive. (A tab that is just opening has nothing to wait for.)
        if (before && channel) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          if (token && token !== before) return true;
        }
        // Otherwise the session is over here (shell.md §4: a session-expired event). Other tabs
        // find out on their own next call, so a lost race never signs them out.
        if (response.status === 401 || response.status === 403) apply(null);
        return false;
      }
      setToken(readToken(await parse(response)));
      return true;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === OFFLINE_STATUS) lastRefresh = 'unreachable';
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export function isSessionRefreshing(): boolean {
  return refreshing !== null;
}

/** Restores the session on page load from the httpOnly refresh cookie. */
export const restoreSession = refreshSession;

/** A JSON request to our API; throws ApiRequestError with the server's error body on failure. */
export async function request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', path: string, body?: unknown, opts: { auth?: boolean } = {}): Promise<T> {
  if (!connectivity.get().online && method !== 'GET') {
    // Actions fail at once while offline; the screens say so (shell.md §8).
    throw new ApiRequestError(OFFLINE_STATUS, { message: Messages.offlineAction, type: 'offline' });
  }
  if (previewMode.on && !sendsInPreview(method, path)) {
    // Preview (pretend) mode never changes anything on the server (shell.md §4, §8).
    throw new ApiRequestError(403, { message: Messages.previewMode, type: 'preview' });
  }
  const auth = opts.auth ?? true;
  if (auth && !token && refreshDue) await refreshSession();
  if (auth && token && isExpired(token, Date.now())) {
    if (canRefresh(token, Date.now())) await refreshSession();
    else setToken(null);
  }
  let response = await send(method, path, body, auth);
  if (response.status === 401 && auth && token) {
    const data = (await parse(response.clone())) as ApiErrorBody | null;
    // An expired token is renewed once; a reauth answer is for the caller to handle.
    if (data?.type !== 'reauth' && (await refreshSession())) response = await send(method, path, body, auth);
  }
  const data = await parse(response);
  if (!response.ok) throw new ApiRequestError(response.status, (data as ApiErrorBody) ?? null);
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
