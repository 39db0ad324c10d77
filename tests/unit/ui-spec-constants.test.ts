import { describe, expect, it } from 'vitest';
import { classifyGesture } from '../../src/ui/gesture';
import { moveSwipe, shouldDismiss, startSwipe } from '../../src/ui/toast-swipe';
import { edgeThreshold } from '../../src/ui/drag/scroll-edge';
import { tooltipTiming } from '../../src/ui/Tooltip';

/** S9.7–S9.9: the spec's gesture, scroll-edge and tooltip constants are the ones the UI applies. */
describe('the spec’s UI constants in use', () => {
  it('tells a tap (≤ 250 ms) from a press (≥ 251 ms) within the 20 px tolerance, and a swipe by 0.3 px/ms', () => {
    expect(classifyGesture({ dx: 5, dy: 5, ms: 250 })).toBe('tap');
    expect(classifyGesture({ dx: 5, dy: 5, ms: 251 })).toBe('press');
    expect(classifyGesture({ dx: 21, dy: 0, ms: 1000 })).toBe('pan');
    expect(classifyGesture({ dx: 60, dy: 0, ms: 200 })).toBe('swipe'); // 0.3 px/ms exactly
    expect(classifyGesture({ dx: 60, dy: 0, ms: 201 })).toBe('pan');
  });

  it('dismisses a toast on a quick flick shorter than 80 px, not on a slow drag', () => {
    const flick = moveSwipe(startSwipe(100, 100), 160, 100);
    expect(shouldDismiss(flick)).toBe(false);
    expect(shouldDismiss(flick, undefined, 150)).toBe(true);
    expect(shouldDismiss(flick, undefined, 800)).toBe(false);
  });

  it('scrolls within 20 px of a container’s edge, whatever its size', () => {
    expect(edgeThreshold({ width: 1000, height: 400 })).toEqual({ x: 0.02, y: 0.05 });
    expect(edgeThreshold({ width: 30, height: 30 })).toEqual({ x: 0.5, y: 0.5 });
  });

  it('times tooltips: 200/150 ms by default, the custom theme 0/200 ms', () => {
    expect(tooltipTiming()).toEqual({ show: 200, hide: 150 });
    expect(tooltipTiming('custom')).toEqual({ show: 0, hide: 200 });
  });
});
