import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';
import { computePosition, isRtl, type Placement, type Position } from './position';
import { zIndexAbove } from './stacking';

/** Where a floating element goes, and the z-index it needs above its anchor's layer (stacking.ts). */
export type FloatingPosition = Position & { zIndex?: number };

/**
 * Keeps a fixed-position floating element next to its anchor while open (re-measured on scroll,
 * resize and when its own size changes). `anchorPoint` places it at a point instead (context menus at the pointer).
 */
export function useFloating(
  open: boolean,
  anchor: RefObject<HTMLElement | null>,
  floating: RefObject<HTMLElement | null>,
  placement: Placement,
  options: { distance?: number; anchorPoint?: { x: number; y: number } | null } = {},
): FloatingPosition | null {
  const [position, setPosition] = useState<FloatingPosition | null>(null);
  const { distance, anchorPoint } = options;
  const pointX = anchorPoint?.x;
  const pointY = anchorPoint?.y;

  useLayoutEffect(() => {
    if (!open) {
      setPosition(null);
      return;
    }
    const update = () => {
      const el = floating.current;
      const anchorEl = anchor.current;
      if (!el || (!anchorEl && pointX === undefined)) return;
      const rect =
        pointX !== undefined && pointY !== undefined
          ? { top: pointY, left: pointX, width: 0, height: 0 }
          : anchorEl!.getBoundingClientRect();
      const zIndex = zIndexAbove(anchorEl, el);
      setPosition({
        ...computePosition({
          anchor: rect,
          floating: { width: el.offsetWidth, height: el.offsetHeight },
          viewport: { width: window.innerWidth, height: window.innerHeight },
          placement,
          distance,
          rtl: isRtl(anchorEl ?? el),
        }),
        ...(zIndex === undefined ? {} : { zIndex }),
      });
    };
    update();
    window.addEventListener('resize', update);
    window.addEventListener('scroll', update, true);
    // Placed again when its content changes its size (a popover's form gains a row and grows
    // wider): measured only on open, it would hang past the screen's edge.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    if (floating.current) observer?.observe(floating.current);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('scroll', update, true);
      observer?.disconnect();
    };
  }, [open, anchor, floating, placement.side, placement.align, distance, pointX, pointY]);

  return position;
}

/**
 * Style for the floating element: at its position once measured; before that transparent (not
 * `visibility: hidden`, which would stop the first item from taking focus on open).
 */
export function floatingStyle(position: FloatingPosition | null): CSSProperties {
  return position ? { top: position.top, left: position.left, zIndex: position.zIndex } : { top: 0, left: 0, opacity: 0, pointerEvents: 'none' };
}
