import { describe, expect, it } from 'vitest';
import { LoopWatch, pgliteYield } from '../../server/db/pglite-pool';

/** Keeps the thread busy without letting the event loop turn. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

describe('PGlite loop watch (issue #28: one per database)', () => {
  it('says the loop is starved only after it has not turned for afterMs', async () => {
    const watch = new LoopWatch();
    expect(watch.starved()).toBe(false);
    busy(pgliteYield.afterMs + 5);
    expect(watch.starved()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(watch.starved()).toBe(false);
  });

  it('two databases in one process keep separate watches', () => {
    const first = new LoopWatch();
    const second = new LoopWatch();
    expect(first.starved()).toBe(false);
    busy(pgliteYield.afterMs + 5);
    expect(first.starved()).toBe(true);
    // The second database has not been asked before: its first sighting starts its own watch.
    expect(second.starved()).toBe(false);
  });
});
