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
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // zod and the switch that turns its eval-compiled parsers off (schema/zod-jitless.ts) share
        // one chunk, so the switch runs as soon as zod does: when zod got a chunk of its own, other
        // chunks built their schemas before the entry's body turned it off, and the CSP refused
        // zod's eval probe.
        advancedChunks: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|schema[\\/]zod-jitless/ }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/app': { target: 'ws://127.0.0.1:8080', ws: true } } },
});
