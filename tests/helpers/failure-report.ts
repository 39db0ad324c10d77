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
    // Counted on the test so a pass on a retry (vitest.e2e.config.ts) is reported as one, never
    // as a plain pass: scripts/test-all.mjs lists such tests under the summary (decision 0378).
    const meta = context.task.meta as { failedAttempts?: number };
    meta.failedAttempts = (meta.failedAttempts ?? 0) + 1;
    console.error(failureReport({ name: context.task.name, file }));
    // Vitest prints the error of a test that failed for good, not of an attempt a retry made good:
    // printed here, so a test that passed only on a retry says why its attempt failed.
    const error = context.task.result?.errors?.at(-1);
    // The message comes first and apart from the stack: a timeout's stack is the one vitest took
    // where the test was declared, whose first line reads "Error: STACK_TRACE_ERROR".
    if (error) console.error(`attempt ${meta.failedAttempts} failed: ${error.name ?? 'Error'}: ${error.message}\n${(error.stack ?? '').split('\n').slice(1).join('\n')}`);
  });
});
