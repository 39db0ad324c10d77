import { describe, expect, it } from 'vitest';
import { CatchUpPulls } from '../../sync-worker/worker-realtime';

/** `changed` pings (external cluster, decision 0090): one pull at a time per board, then one follow-up. */
describe('catch-up pulls after changed pings', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('runs one pull per board at a time, one more for pings that came meanwhile, and a follow-up after the burst', async () => {
    const started: string[] = [];
    let release: (() => void) | null = null;
    const pulls = new CatchUpPulls((teamId, boardId) => {
      started.push(`${teamId}:${boardId}`);
      return new Promise<void>((resolve) => (release = resolve));
    }, 50);
    for (let i = 0; i < 5; i++) pulls.request(1, 'b');
    expect(started).toEqual(['1:b']);
    release!();
    await sleep(5);
    // The four pings during the first pull made exactly one more.
    expect(started).toEqual(['1:b', '1:b']);
    release!();
    await sleep(80);
    // The follow-up after the burst.
    expect(started).toEqual(['1:b', '1:b', '1:b']);
    release!();
    pulls.stop();
  });

  it('keeps boards apart and stops for good', async () => {
    const started: string[] = [];
    const pulls = new CatchUpPulls(async (teamId, boardId) => void started.push(`${teamId}:${boardId}`), 20);
    pulls.request(1, 'a');
    pulls.request(1, 'b');
    expect(started).toEqual(['1:a', '1:b']);
    pulls.stop();
    await sleep(40);
    pulls.request(1, 'a');
    expect(started).toEqual(['1:a', '1:b']);
  });
});
