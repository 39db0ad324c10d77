import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { serviceWorkerPlugin } from './scripts/sw-build-plugin';

export default defineConfig({
  plugins: [
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    // /sw.js with the precache list of this build (src/sw/, decision 0080).
    serviceWorkerPlugin(),
  ],
  // Every import of zod in the browser gets zod with its eval probe switched off first
  // (schema/zod-jitless.ts): the app shell need not load zod at start to switch it off (decision 0275).
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./schema/zod-jitless.ts', import.meta.url)) }] },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // zod and the switch that turns its eval-compiled parsers off (schema/zod-jitless.ts) share
        // one chunk, loaded by the first screen that needs zod (the alias above makes every
        // importer of zod import the switch first, so it runs before any schema is built).
        advancedChunks: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|schema[\\/]zod-jitless/ }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/app': { target: 'ws://127.0.0.1:8080', ws: true } } },
});
