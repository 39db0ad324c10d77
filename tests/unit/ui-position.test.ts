import { describe, expect, it } from 'vitest';
import { computePosition } from '../../src/ui/position';

const viewport = { width: 1000, height: 800 };
const floating = { width: 200, height: 100 };

describe('floating position', () => {
  it('places below the anchor at the start edge, the given distance away', () => {
    const anchor = { top: 100, left: 300, width: 40, height: 30 };
    expect(computePosition({ anchor, floating, viewport, placement: { side: 'bottom', align: 'start' }, distance: 5 })).toEqual({
      top: 135,
      left: 300,
      side: 'bottom',
    });
  });

  it('aligns the start edge to the right in RTL', () => {
    const anchor = { top: 100, left: 300, width: 40, height: 30 };
    const pos = computePosition({ anchor, floating, viewport, placement: { side: 'bottom', align: 'start' }, rtl: true });
    expect(pos.left).toBe(140);
    const end = computePosition({ anchor, floating, viewport, placement: { side: 'bottom', align: 'end' }, rtl: true });
    expect(end.left).toBe(300);
  });

  it('flips above when there is no room below', () => {
    const anchor = { top: 740, left: 300, width: 40, height: 30 };
    const pos = computePosition({ anchor, floating, viewport, placement: { side: 'bottom', align: 'start' }, distance: 5 });
    expect(pos).toEqual({ top: 635, left: 300, side: 'top' });
  });

  it('centres tooltips and keeps them inside the viewport', () => {
    const anchor = { top: 300, left: 0, width: 20, height: 20 };
    const pos = computePosition({ anchor, floating, viewport, placement: { side: 'top', align: 'center' }, distance: 5 });
    expect(pos).toEqual({ top: 195, left: 8, side: 'top' });
  });

  it('stays on the requested side when neither side fits', () => {
    const pos = computePosition({ anchor: { top: 50, left: 10, width: 10, height: 10 }, floating: { width: 100, height: 900 }, viewport, placement: { side: 'bottom', align: 'start' } });
    expect(pos.side).toBe('bottom');
    expect(pos.top).toBe(8);
  });
});
