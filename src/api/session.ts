import { useSyncExternalStore } from 'react';
import { Accounts, type Profile } from './endpoints';
import { onSessionChange, restoreSession, setToken } from './client';
import { readToken } from './token';

/**
 * Who is signed in. `loading` until the refresh cookie has been tried on page load, then
 * `signedIn` with the profile, or `signedOut`.
 */
export type SessionState = { status: 'loading'; user: null } | { status: 'signedIn'; user: Profile } | { status: 'signedOut'; user: null };

let state: SessionState = { status: 'loading', user: null };
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
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
  /** On page load: restore from the refresh cookie, then fetch the profile. */
  async restore() {
    try {
      if (await restoreSession()) {
        set({ status: 'signedIn', user: await Accounts.me() });
        return;
      }
    } catch {
      /* fall through: signed out */
    }
    set({ status: 'signedOut', user: null });
  },
};

// A refresh that ends with 401 ends the session everywhere in the app.
onSessionChange((signedIn) => {
  if (!signedIn && state.status === 'signedIn') set({ status: 'signedOut', user: null });
});

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
