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
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/app': { target: 'ws://127.0.0.1:8080', ws: true } } },
});
