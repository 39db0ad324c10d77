import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { madeOnce, pruneOld } from './made-once';

/**
 * The server as one ES module for the e2e suites (decision 0379). The suites start some sixty
 * servers; through tsx each start resolved and transformed ~400 modules through a loader thread,
 * 3 s of the ~13 s of CPU a start cost on this machine. esbuild bundles server/main.ts once per
 * state of the sources (a hash of server/, schema/ and the lockfile), packages left outside so
 * node_modules stays the one copy.
 *
 * A module that finds a file next to itself (`new URL('./page/x', import.meta.url)`: locales, the
 * API docs page, the worker-thread scripts) must still find it beside its source, not beside the
 * bundle: each file's `import.meta.url` and `import.meta.dirname` are written in as the source
 * file's own before it is bundled.
 */
export async function serverBundle(): Promise<string> {
  const dir = path.resolve('.cache', `e2e-server-${serverSourceHash()}`);
  await madeOnce(dir, async (partial) => {
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [path.resolve('server/main.ts')],
      outfile: path.join(partial, 'main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
      plugins: [
        {
          name: 'own-location',
          setup(build) {
            build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
              const source = await fs.promises.readFile(args.path, 'utf8');
              const contents = source.includes('import.meta')
                ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)).replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
                : source;
              return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
            });
          },
        },
      ],
    });
  });
  pruneOld('e2e-server-', dir);
  return path.join(dir, 'main.mjs');
}

let sourceHash: string | null = null;

/**
 * A hash of everything the bundle is made of: the server's and schema's files and the lockfile.
 * Read once per test process: each server start asks for it twice (bundle, seeded data dir).
 */
export function serverSourceHash(): string {
  sourceHash ??= hashSources();
  return sourceHash;
}

function hashSources(): string {
  const hash = createHash('sha256');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of [...files(path.resolve('server')), ...files(path.resolve('schema')), path.resolve('package-lock.json')].sort()) {
    hash.update(path.relative(path.resolve('.'), file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
