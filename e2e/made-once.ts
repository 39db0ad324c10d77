import fs from 'node:fs';
import path from 'node:path';

/**
 * `dir` as `make` fills it, made beside and renamed: a half-made one is never taken for a whole
 * one, and when another run made it first, theirs is as good. The e2e caches under .cache/ (PGlite
 * clusters, the server bundle) are made this way.
 */
export async function madeOnce(dir: string, make: (partial: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  // .cache/ exists when `npm test` made it, not in a fresh clone running one e2e file.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await make(partial);
  try {
    fs.renameSync(partial, dir);
  } catch (error) {
    if (!fs.existsSync(dir)) throw error;
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Removes the caches named `${prefix}*` other than `keep` that are more than a day old: each change
 * of the sources makes a new one, and a checkout worked on for weeks would pile them up. A day
 * leaves alone what a run beside this one (another checkout state) may be using.
 */
export function pruneOld(prefix: string, keep: string): void {
  const parent = path.dirname(keep);
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    const full = path.join(parent, name);
    if (!name.startsWith(prefix) || full === keep) continue;
    try {
      if (fs.statSync(full).mtimeMs < dayAgo) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Gone already (another run pruned it): nothing to do.
    }
  }
}
