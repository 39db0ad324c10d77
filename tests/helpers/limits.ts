/**
 * Outer limits of tests that start processes or boot databases (CLIs, tests/scale, server starts):
 * generous, because a shared 2-core CI machine can be several times slower than an idle one. A
 * limit is a backstop, never a speed check (speed belongs in bench/). Waits inside such tests use
 * `waitingFor` (tests/helpers/trail.ts) so a timeout says what it was waiting for.
 */
export const HEAVY_TEST_TIMEOUT_MS = 240_000;

/** How long a started child process (a server) may take to say it is ready, below HEAVY_TEST_TIMEOUT_MS. */
export const PROCESS_START_TIMEOUT_MS = 180_000;
