/**
 * Vite plugin that writes /sw.js at build time (docs/decisions/0080-service-worker.md): once the
 * app's bundle is complete it lists the bundle's files (src/sw/precache.ts), derives a build id
 * from them, and bundles src/sw/service-worker.ts on its own (one classic script, no imports:
 * every browser runs it) with that manifest compiled in. A new build id makes a byte-different
 * sw.js, which is how the browser and the app see an update.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { build, type Plugin } from 'vite';
import { precacheList, type SwManifest } from '../src/sw/precache';

const ENTRY = path.resolve(import.meta.dirname, '../src/sw/service-worker.ts');

/** Build id: a hash of the precached names (hashed by content) and of index.html itself. */
export function buildIdOf(files: readonly string[], indexHtml: string): string {
  return crypto.createHash('sha256').update(files.join('\n')).update('\n').update(indexHtml).digest('hex').slice(0, 16);
}

export function serviceWorkerPlugin(): Plugin {
  return {
    name: 'cairn-service-worker',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const files = precacheList(Object.keys(bundle));
      const html = bundle['index.html'];
      const indexHtml = html && html.type === 'asset' ? String(html.source) : '';
      const manifest: SwManifest = { buildId: buildIdOf(files, indexHtml), files };
      const result = await build({
        configFile: false,
        logLevel: 'warn',
        define: { __SW_MANIFEST__: JSON.stringify(manifest) },
        build: {
          write: false,
          emptyOutDir: false,
          sourcemap: false,
          minify: true,
          target: 'es2022',
          lib: { entry: ENTRY, formats: ['iife'], name: 'cairnServiceWorker', fileName: () => 'sw.js' },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
      const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
      if (!chunk?.code) throw new Error('service worker bundle is empty');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: chunk.code });
    },
  };
}
