import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectivity, PROBE_INTERVAL_MS } from '../../src/connectivity/connectivity';

/**
 * One owner of online/offline (issue #10 part 4): once the sync worker is attached, what the tab
 * sees itself (an answer, or none at all) is handed to the worker's connection machine, whose
 * verdict every tab follows; without a worker the tab decides alone, as before.
 */
describe('connectivity led by the worker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(probeAnswers = false) {
    const c = createConnectivity({ initialOnline: true, probe: async () => probeAnswers, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) });
    const told: boolean[] = [];
    const changes: boolean[] = [];
    c.subscribe((state) => changes.push(state.online));
    return { c, told, changes };
  }

  it('hands the worker an answer seen while offline, and shows both at once', () => {
    const { c, told, changes } = setup();
    const detach = c.attachEngine({ reachedServer: (reached) => told.push(reached) });
    c.serverAnswered(); // already online: nothing new to tell
    c.networkFailure(); // the worker notices a dead network by itself
    c.serverAnswered();
    expect(told).toEqual([true]);
    expect(changes).toEqual([false, true]);
    detach();
    c.networkFailure();
    c.serverAnswered();
    expect(told).toEqual([true]);
  });

  it('follows the worker\'s verdict, which wins over what the tab saw last', () => {
    const { c, told, changes } = setup();
    c.attachEngine({ reachedServer: (reached) => told.push(reached) });
    c.serverAnswered();
    c.engineStatus('disconnected');
    expect(c.get().online).toBe(false);
    c.engineStatus('connected');
    expect(changes).toEqual([false, true]);
  });

  it('tells the worker when its own probe finds the server again', async () => {
    const { c, told } = setup(true);
    c.attachEngine({ reachedServer: (reached) => told.push(reached) });
    c.networkFailure();
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    expect(c.get().online).toBe(true);
    expect(told).toEqual([true]);
  });
});
