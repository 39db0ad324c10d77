import { describe, expect, it } from 'vitest';
import { loadWithRetry, RETRY_FIRST_MS, RETRY_MAX_MS, sharedLoad } from '../../src/ui/lazy-retry';

describe('loadWithRetry', () => {
  it('tries a failed chunk again, waiting longer each time up to the cap, and answers its module', async () => {
    let calls = 0;
    const waits: number[] = [];
    const module = await loadWithRetry(
      async () => {
        calls += 1;
        if (calls < 7) throw new TypeError('Failed to fetch dynamically imported module');
        return { default: 'the part' };
      },
      { wait: async (ms) => void waits.push(ms) },
    );
    expect(module).toEqual({ default: 'the part' });
    expect(calls).toBe(7);
    expect(waits).toEqual([RETRY_FIRST_MS, 2_000, 4_000, 8_000, RETRY_MAX_MS, RETRY_MAX_MS]);
  });

  it('loads once and waits never when the first load works', async () => {
    const waits: number[] = [];
    let calls = 0;
    await loadWithRetry(async () => ++calls, { wait: async (ms) => void waits.push(ms) });
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('sharedLoad', () => {
  it('loads once for every caller, and asks again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const load = sharedLoad(async () => {
      calls++;
      if (fail) throw new Error('offline');
      return { default: calls };
    });
    await expect(load()).rejects.toThrow('offline');
    expect(calls).toBe(1);
    fail = false;
    const [a, b] = await Promise.all([load(), load()]);
    expect(calls).toBe(2);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(calls).toBe(2);
  });
});
