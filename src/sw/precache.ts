/**
 * What the service worker keeps for the app shell (pure, shared by the Vite plugin that writes
 * the list at build time and by the worker that reads it).
 */

/** Every precached file lives in one cache per build, so a new build never mixes with the old. */
export const SHELL_CACHE_PREFIX = 'cairn-shell-';

/** The app's document, served for every navigation when the network fails. */
export const INDEX_HTML = '/index.html';

/** The manifest the plugin writes into /sw.js: a changed build id is a changed sw.js (an update). */
export interface SwManifest {
  buildId: string;
  files: string[];
}

export function shellCacheName(buildId: string): string {
  return SHELL_CACHE_PREFIX + buildId;
}

/**
 * The files of a build to precache, as absolute paths: the hashed assets (JS, CSS, the locale
 * chunks, the sync worker, fonts and images) and index.html. Source maps are left out (only a
 * developer asks for them, and they are most of the bytes); so is the service worker itself.
 */
export function precacheList(fileNames: readonly string[]): string[] {
  const files = new Set<string>();
  for (const name of fileNames) {
    const path = '/' + name.replace(/^\/+/, '');
    if (path.endsWith('.map') || path === '/sw.js' || /\/\.[^/]*$/.test(path)) continue;
    files.add(path);
  }
  files.add(INDEX_HTML);
  return [...files].sort();
}

/** Shell caches of other builds: deleted once this build's worker takes over. */
export function staleShellCaches(cacheNames: readonly string[], buildId: string): string[] {
  const current = shellCacheName(buildId);
  return cacheNames.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== current);
}
