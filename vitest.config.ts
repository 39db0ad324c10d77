import { defineConfig } from 'vitest/config';

// Unit, engine and server suites. e2e has its own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    // A failed test prints its seed, inputs, what it waited for and its server's last log lines.
    setupFiles: ['tests/helpers/failure-report.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000, // an outer limit for a loaded 2-core CI machine, never a speed check (issue 32)
    hookTimeout: 180_000, // a fresh database and server per file, on a loaded machine (issue 32)
    env: { NODE_ENV: 'test' },
    projects: [
      // Each server file builds its own server, database and clock from a context object, and
      // loading the whole server again for each of ~110 files cost ~6 s a file, a fifth of the
      // lane's CPU: its files share the loaded modules of their worker (decision 0381).
      { extends: true, test: { name: 'server', include: ['tests/server/**/*.test.{ts,tsx}', 'tests/scale/**/*.test.{ts,tsx}'], isolate: false } },
      // Unit and engine files stub timers, globals and modules: each keeps a fresh module graph.
      { extends: true, test: { name: 'unit+engine', include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/engine/**/*.test.{ts,tsx}'] } },
    ],
  },
});
