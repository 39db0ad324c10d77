/**
 * A boolean kept in the URL as `?{key}=on` (shell.md §2: a context menu's open state can live in
 * the query), so the browser Back button closes what was opened and a reload reopens it.
 *
 * The adapter talks to a History-like object, so it works beside any router and tests can pass a
 * fake. Opening pushes a history entry; closing an entry we pushed goes back (so Back and the close
 * button leave the same history), otherwise the flag is removed in place.
 */
import { NAVIGATE_EVENT, QUERY_FLAG_EVENT } from './navigation-events';

export const QUERY_FLAG_ON = 'on';
/** Marker in history.state naming the flag that entry was pushed for. */
const PUSHED_FOR = 'cairnQueryFlag';

export interface QueryFlagAdapter {
  read(key: string): boolean;
  /**
   * Resolves once the URL shows the new state (closing a pushed entry waits for the browser's
   * `popstate`), so a menu can run a navigating action only after its own history entry is gone.
   */
  set(key: string, on: boolean): Promise<void>;
  /** Called whenever the URL may have changed; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface HistoryEnv {
  location: { href: string };
  history: {
    readonly state: unknown;
    pushState(state: unknown, unused: string, url: string): void;
    replaceState(state: unknown, unused: string, url: string): void;
    back(): void;
  };
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  dispatchEvent(event: Event): boolean;
}

function relative(url: URL): string {
  return url.pathname + url.search + url.hash;
}

/** Longest wait for the `popstate` of our own history.back() before going on regardless. */
export const BACK_SETTLE_MS = 400;

export function createHistoryQueryFlags(env: HistoryEnv, timers: { setTimeout(fn: () => void, ms: number): unknown } = globalThis): QueryFlagAdapter {
  const url = () => new URL(env.location.href);
  const notify = () => env.dispatchEvent(new Event(QUERY_FLAG_EVENT));
  const stateObject = (): Record<string, unknown> => {
    const state = env.history.state;
    return state && typeof state === 'object' ? { ...(state as Record<string, unknown>) } : {};
  };

  return {
    read: (key) => url().searchParams.get(key) === QUERY_FLAG_ON,
    set(key, on) {
      const next = url();
      const isOn = next.searchParams.get(key) === QUERY_FLAG_ON;
      if (on === isOn) return Promise.resolve();
      if (on) {
        next.searchParams.set(key, QUERY_FLAG_ON);
        env.history.pushState({ ...stateObject(), [PUSHED_FOR]: key }, '', relative(next));
        notify();
        return Promise.resolve();
      }
      if (stateObject()[PUSHED_FOR] === key) {
        // Going back keeps history as if the flag was never opened; popstate tells the subscribers.
        return new Promise<void>((resolve) => {
          const done = () => {
            env.removeEventListener('popstate', done);
            resolve();
          };
          env.addEventListener('popstate', done);
          timers.setTimeout(done, BACK_SETTLE_MS);
          env.history.back();
        });
      }
      next.searchParams.delete(key);
      const state = stateObject();
      delete state[PUSHED_FOR];
      env.history.replaceState(state, '', relative(next));
      notify();
      return Promise.resolve();
    },
    subscribe(listener) {
      env.addEventListener('popstate', listener);
      env.addEventListener(NAVIGATE_EVENT, listener);
      env.addEventListener(QUERY_FLAG_EVENT, listener);
      return () => {
        env.removeEventListener('popstate', listener);
        env.removeEventListener(NAVIGATE_EVENT, listener);
        env.removeEventListener(QUERY_FLAG_EVENT, listener);
      };
    },
  };
}

let browserAdapter: QueryFlagAdapter | null = null;
/** The adapter over the real window, created on first use. */
export function browserQueryFlags(): QueryFlagAdapter {
  browserAdapter ??= createHistoryQueryFlags(window as unknown as HistoryEnv);
  return browserAdapter;
}
