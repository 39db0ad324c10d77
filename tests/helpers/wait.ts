import { waitingFor } from './trail';

/**
 * The least time a `waitFor` gives its state to arrive, whatever the caller asked: a wait is an
 * outer limit for a state that normally comes in milliseconds, and a shared 2-core CI machine can
 * be many times slower than the one the limit was picked on. A state that never comes still fails.
 */
export const WAIT_FLOOR_MS = 20_000;

/**
 * Polls `check` every `everyMs` until it holds, or rejects after `timeoutMs` (at least
 * WAIT_FLOOR_MS) naming `what`; a test that times out meanwhile reports it was waiting for `what`.
 */
export function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition', everyMs = 10): Promise<void> {
  return waitingFor(what, poll(check, Math.max(timeoutMs, WAIT_FLOOR_MS), what, everyMs));
}

/**
 * Whether `check` holds within `ms`: a probe that may well fail (a message that may have been
 * lost, to be sent again), not a wait for state. Its time is exact.
 */
export function holdsWithin(check: () => boolean | Promise<boolean>, ms: number, everyMs = 10): Promise<boolean> {
  return poll(check, ms, 'a probe', everyMs).then(
    () => true,
    () => false,
  );
}

function poll(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = async () => {
      try {
        if (await check()) return resolve();
      } catch (error) {
        return reject(error);
      }
      if (Date.now() > deadline) return reject(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`));
      setTimeout(tick, everyMs);
    };
    void tick();
  });
}
