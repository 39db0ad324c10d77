import type { FetchLike } from '../../sync-worker/http';

/**
 * The replay suites' network (DESIGN.md §7): real HTTP to the real server with injected faults on
 * writes — HTTP 500 before the server sees the request, a connection dropped before it, a
 * response lost after the server committed, duplicate delivery, timeouts that race the retry,
 * random delays — drawn from a seeded random source so a failing seed replays exactly.
 * Used by replay.test.ts (random offline queues) and replay-file.test.ts (exported files).
 */

export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Fault = 'none' | '500' | 'drop' | 'lost-after-commit' | 'duplicate' | 'timeout-race' | 'delay';

/** The network between one device and the server: real HTTP with injected faults. */
export function faultyNetwork(rand: () => number, log: Fault[]) {
  const state = { faulty: true };
  const pick = (): Fault => {
    if (!state.faulty) return 'none';
    const r = rand();
    if (r < 0.12) return '500';
    if (r < 0.22) return 'drop';
    if (r < 0.34) return 'lost-after-commit';
    if (r < 0.42) return 'duplicate';
    if (r < 0.48) return 'timeout-race';
    if (r < 0.68) return 'delay';
    return 'none';
  };
  const fetchImpl: FetchLike = async (input, init) => {
    // Reads stay clean so the final comparison sees the truth; writes get the faults.
    const fault = init.method === 'GET' ? 'none' : pick();
    log.push(fault);
    switch (fault) {
      case '500':
        return new Response(JSON.stringify({ message: 'Injected failure' }), { status: 500, headers: { 'content-type': 'application/json' } });
      case 'drop':
        throw new TypeError('fetch failed (connection reset before the request)');
      case 'lost-after-commit': {
        const res = await fetch(input, init);
        await res.text();
        throw new TypeError('fetch failed (response lost)');
      }
      case 'duplicate': {
        const first = await fetch(input, init);
        await first.text();
        return fetch(input, init);
      }
      case 'timeout-race': {
        // The request goes out; the client gives up before the answer and will retry meanwhile.
        const pending = fetch(input, init).then((r) => r.text()).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 2));
        void pending;
        throw new TypeError('fetch failed (timed out)');
      }
      case 'delay':
        await new Promise((r) => setTimeout(r, Math.floor(rand() * 25)));
        return fetch(input, init);
      default:
        return fetch(input, init);
    }
  };
  return { fetch: fetchImpl, state };
}

