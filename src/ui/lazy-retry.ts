import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for chunks that may be asked for while the server is out of reach (a panel tab, the
 * palette, a view opened offline before the service worker has cached it). React.lazy keeps a
 * failed import for good, so the part would stay broken until a reload, and the error would go up
 * to the route's error boundary and blank the page. Here a failed load is tried again — at once
 * when the browser says it is online, else after a growing wait — and the Suspense fallback shows
 * meanwhile. The page around it keeps working.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
export function lazyRetry<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => loadWithRetry(load));
}

/** First wait after a failed load; it doubles up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 15_000;

export interface RetryEnv {
  /** Resolves after `ms`, or earlier when the browser comes back online. */
  wait(ms: number): Promise<void>;
}

const browserEnv: RetryEnv = {
  wait: (ms) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener('online', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      window.addEventListener('online', done);
    }),
};

/** Calls `load` until it succeeds, waiting between attempts (never gives up: the part is needed). */
export async function loadWithRetry<M>(load: () => Promise<M>, env: RetryEnv = browserEnv): Promise<M> {
  for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
    try {
      return await load();
    } catch {
      await env.wait(wait);
    }
  }
}

/**
 * One load shared by every caller (a part and whoever fetches it ahead), so a chunk fetched
 * ahead is the one the part renders from. A failed load is forgotten: the next caller asks again.
 */
export function sharedLoad<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}
