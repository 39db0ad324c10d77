import { describe, expect, it } from 'vitest';
import { moveSwipe, shouldDismiss, startSwipe, swipeOpacity } from '../../src/ui/toast-swipe';

describe('toast swipe', () => {
  it('dismisses only beyond 80 px, in either direction', () => {
    const start = startSwipe(100, 100);
    expect(shouldDismiss(moveSwipe(start, 180, 100))).toBe(false);
    expect(shouldDismiss(moveSwipe(start, 181, 100))).toBe(true);
    expect(shouldDismiss(moveSwipe(start, 19, 102))).toBe(true);
    expect(shouldDismiss(moveSwipe(start, 20, 102))).toBe(false);
  });

  it('a vertical drag is a scroll and cancels the swipe', () => {
    let state = startSwipe(100, 100);
    state = moveSwipe(state, 102, 140);
    expect(state.cancelled).toBe(true);
    state = moveSwipe(state, 300, 140);
    expect(state.offset).toBe(0);
    expect(shouldDismiss(state)).toBe(false);
  });

  it('fades as the drag nears the threshold', () => {
    expect(swipeOpacity(0)).toBe(1);
    expect(swipeOpacity(80)).toBeCloseTo(0.5);
    expect(swipeOpacity(-400)).toBe(0.2);
  });
});
