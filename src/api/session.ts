import { useSyncExternalStore } from 'react';
import { Accounts, type Profile } from './endpoints';
import { ApiRequestError, currentToken, lastRefreshOutcome, markRefreshDue, OFFLINE_STATUS, onSessionChange, refreshSession, restoreSession, setToken } from './client';
import { readToken } from './token';
import { connectivity } from '../connectivity/instance';
import { store } from '../storage/local-store';

/**
 * The signed-in profile is remembered locally (removed on sign-out; logout clears every key), so
 * the app can start offline: see `restore()` and docs/decisions/0080-service-worker.md.
 */
const PROFILE_KEY = 'sessionProfile';

/** Answers whether the sync worker still holds this user's session (set by worker-session.ts). */
let workerHoldsUser: ((userId: number) => Promise<boolean>) | null = null;
/** Started offline: the session is confirmed (or ended) by a refresh once the server answers. */
let confirmWhenOnline = false;

/**
 * Who is signed in. `loading` until the refresh cookie has been tried on page load, then
 * `signedIn` with the profile, or `signedOut`.
 */
export type SessionState = { status: 'loading'; user: null } | { status: 'signedIn'; user: Profile } | { status: 'signedOut'; user: null };

let state: SessionState = { status: 'loading', user: null };
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  if (next.status === 'signedIn') store.set(PROFILE_KEY, next.user);
  else if (next.status === 'signedOut') {
    store.remove(PROFILE_KEY);
    confirmWhenOnline = false;
  }
  for (const listener of listeners) listener();
}

export const session = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  setUser(user: Profile) {
    set({ status: 'signedIn', user });
  },
  signedOut() {
    setToken(null);
    set({ status: 'signedOut', user: null });
  },
  /** Takes the token record of a login or register answer and loads the profile. */
  async start(tokenRecord: unknown) {
    setToken(readToken(tokenRecord));
    set({ status: 'signedIn', user: await Accounts.me() });
  },
  /** worker-session.ts tells us how to ask the sync worker who it holds (for offline starts). */
  useWorkerCheck(check: (userId: number) => Promise<boolean>) {
    workerHoldsUser = check;
  },
  /**
   * On page load: restore from the refresh cookie, then fetch the profile.
   *
   * Offline (no answer, or a 5xx from a proxy in front of a stopped server) the refresh says
   * nothing about the session, so it does not sign out: when the sync worker still holds the
   * remembered user's session (it resumes it from IndexedDB by itself), the app starts signed in
   * as that user, without a token, on local data. The refresh runs again once the server answers:
   * a new token signs the worker in again; a refusal (401) signs out everywhere.
   */
  async restore() {
    try {
      if (await restoreSession()) {
        set({ status: 'signedIn', user: await Accounts.me() });
        return;
      }
    } catch (error) {
      // Refreshed, then the network went: the remembered profile is this session's user.
      const remembered = rememberedProfile();
      if (error instanceof ApiRequestError && error.status === OFFLINE_STATUS && remembered) {
        set({ status: 'signedIn', user: remembered });
        return;
      }
    }
    if (lastRefreshOutcome() === 'unreachable' && (await restoreOffline())) return;
    set({ status: 'signedOut', user: null });
  },
};

function rememberedProfile(): Profile | null {
  const profile = store.get<Profile | null>(PROFILE_KEY, null);
  return profile && typeof profile.id === 'number' ? profile : null;
}

async function restoreOffline(): Promise<boolean> {
  const remembered = rememberedProfile();
  if (!remembered || !workerHoldsUser) return false;
  const held = await workerHoldsUser(remembered.id).catch(() => false);
  if (!held) return false;
  confirmWhenOnline = true;
  markRefreshDue();
  set({ status: 'signedIn', user: remembered });
  return true;
}

let confirming = false;
/** Back online after an offline start: refresh; a new token confirms the session, a refusal ends it. */
async function confirmSession() {
  if (confirming || !confirmWhenOnline || currentToken()) return;
  confirming = true;
  try {
    if (await refreshSession()) {
      confirmWhenOnline = false;
      const user = await Accounts.me().catch(() => null);
      if (user && state.status === 'signedIn') set({ status: 'signedIn', user });
    } else if (lastRefreshOutcome() === 'refused') {
      session.signedOut();
    }
  } finally {
    confirming = false;
  }
}

connectivity.subscribe((now) => {
  if (now.online) void confirmSession();
});

// A refresh that ends with 401 ends the session everywhere in the app.
onSessionChange((signedIn) => {
  if (!signedIn && state.status === 'signedIn') set({ status: 'signedOut', user: null });
});

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
