/**
 * How the service worker answers one request (pure, unit-tested):
 * - `shell-document`: a navigation; network first (so a deploy is seen at once), the cached
 *   index.html when the network fails (the router then renders the route from local data);
 * - `precached`: a file of this build; cache first (hashed names never change content);
 * - `runtime-file`: uploaded images (/api/files/…: profile and workspace photos, folder images);
 *   a new upload gets a new name, so cache first in `runtime-api-v1`;
 * - `network`: everything else goes to the network untouched (the worker's sync calls, writes,
 *   the realtime socket), so the service worker never answers for synced data.
 *
 * GET /api/app-vars is deliberately NOT answered from a cache: an answer, even a cached one, tells
 * the app's HTTP client and the sync worker that the server is reachable (connectivity), and the
 * app already remembers app-vars in local storage (src/app-vars.ts). See decision 0080.
 */
export type Strategy = 'shell-document' | 'precached' | 'runtime-file' | 'network';

export interface RequestFacts {
  method: string;
  url: string;
  /** Request.mode: 'navigate' for a page load. */
  mode: string;
  /** Request.cache: 'no-store' asks for the network only (the connectivity probe). */
  cache: string;
}

const RUNTIME_FILE = /^\/api\/files\/[a-z0-9-]+\/[A-Za-z0-9_-]+\.(png|jpg|gif|webp)$/;

const SERVER_ONLY = /^\/(api|app|apps)(\/|$)/;

export function strategyFor(request: RequestFacts, origin: string, precached: ReadonlySet<string>): Strategy {
  if (request.method !== 'GET') return 'network';
  const url = new URL(request.url);
  if (url.origin !== origin) return 'network';
  const path = url.pathname;
  if (SERVER_ONLY.test(path)) {
    // A probe that asks for no-store wants to know whether the server answers, not a copy.
    if (request.cache === 'no-store') return 'network';
    if (RUNTIME_FILE.test(path)) return 'runtime-file';
    return 'network';
  }
  if (request.mode === 'navigate') return path === '/sw.js' ? 'network' : 'shell-document';
  if (precached.has(path)) return 'precached';
  return 'network';
}
