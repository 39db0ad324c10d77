import { describe, expect, it } from 'vitest';
import { initialPull, pullEnd, pullMove, pullProgress, pullStart, PULL_READY_PX } from '../../src/ui/pull-to-refresh-state';

describe('pull to refresh', () => {
  it('is ready once pulled past half of the 250 px maximum', () => {
    expect(PULL_READY_PX).toBe(125);
    const started = pullStart(initialPull, 10, 0);
    expect(started.phase).toBe('pulling');
    expect(pullMove(started, 135).phase).toBe('pulling'); // exactly 125 px: not past
    expect(pullMove(started, 136).phase).toBe('ready');
  });

  it('releasing while ready refreshes; releasing earlier does not', () => {
    const started = pullStart(initialPull, 0, 0);
    const early = pullEnd(pullMove(started, 100));
    expect(early.refresh).toBe(false);
    expect(early.state).toEqual(initialPull);
    const ready = pullEnd(pullMove(started, 200));
    expect(ready.refresh).toBe(true);
    expect(ready.state.phase).toBe('refreshing');
  });

  it('pulling back up after ready cancels the refresh', () => {
    let state = pullMove(pullStart(initialPull, 0, 0), 200);
    expect(state.phase).toBe('ready');
    state = pullMove(state, 50);
    expect(state.phase).toBe('pulling');
    expect(pullEnd(state).refresh).toBe(false);
  });

  it('caps the distance at 250 px and ignores upward movement', () => {
    const started = pullStart(initialPull, 0, 0);
    expect(pullMove(started, 900).distance).toBe(250);
    expect(pullMove(started, -50).distance).toBe(0);
    expect(pullProgress(pullMove(started, 900))).toBe(1);
    expect(pullProgress(pullMove(started, 62.5))).toBeCloseTo(0.5);
  });

  it('does not start when the content is scrolled, nor while refreshing', () => {
    expect(pullStart(initialPull, 0, 30)).toBe(initialPull);
    expect(pullMove(initialPull, 300)).toBe(initialPull);
    const refreshing = pullEnd(pullMove(pullStart(initialPull, 0, 0), 200)).state;
    expect(pullStart(refreshing, 0, 0)).toBe(refreshing);
    expect(pullEnd(refreshing)).toEqual({ state: refreshing, refresh: false });
  });
});
