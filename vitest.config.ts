import { defineConfig } from 'vitest/config';

// Unit, engine and server suites. e2e has its own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    // A failed test prints its seed, inputs, what it waited for and its server's last log lines.
    setupFiles: ['tests/helpers/failure-report.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000, // an outer limit for a loaded 2-core CI machine, never a speed check (issue 32)
    hookTimeout: 180_000, // a fresh database and server per file, on a loaded machine (issue 32)
    env: { NODE_ENV: 'test' },
  },
});
