import path from 'node:path';

/** A year: the longest lifetime caches honour. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Vite's output name: the file's content hash (8 characters of base64url) before the extension. */
const HASHED = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.map)?$/;

/**
 * The cache policy of one built file, or null to leave the default (`max-age=0`: revalidated).
 * Files under `assets/` carry their content's hash in their names (a new build names new files),
 * so they are cached for a year and never revalidated. With the default every page load asked
 * the server again for each of the ~100 modules of the app's import graph, one level of imports
 * after another (each answered 304): 1.6 s before the app ran on a cold open under load (issue
 * #33, decision 0365). index.html, sw.js and the root files keep their names: never immutable.
 */
export function assetCacheControl(webDir: string, filePath: string): string | null {
  const relative = path.relative(webDir, filePath);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [top, ...rest] = relative.split(path.sep);
  if (top !== 'assets' || rest.length !== 1) return null;
  return HASHED.test(rest[0]!) ? IMMUTABLE_CACHE : null;
}
