import { defineConfig } from 'vitest/config';

// End-to-end suites: Debian chromium driven by playwright-core against the built app and a real
// server. One file at a time: each starts its own server and browser, and the machine has 2 cores.
// Every fresh server starts from one migrated PGlite cluster made by the global set-up (0325).
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 300_000, // a server start (migrations, demo data) on a loaded 2-core machine
    env: { NODE_ENV: 'test' },
  },
});
