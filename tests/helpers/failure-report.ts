/**
 * Set-up file of the vitest suites (vitest.config.ts, vitest.e2e.config.ts): a failed test prints
 * its seed, its noted inputs, what it was waiting for and the last log lines of its servers
 * (tests/helpers/trail.ts); a passing test prints nothing.
 */
import path from 'node:path';
import { beforeEach } from 'vitest';
import { failureReport, resetTrail } from './trail';

beforeEach((context) => {
  resetTrail();
  const file = context.task.file?.filepath ? path.relative(process.cwd(), context.task.file.filepath) : undefined;
  context.onTestFailed(() => {
    console.error(failureReport({ name: context.task.name, file }));
  });
});
