/**
 * Where to put a floating element (menu, tooltip, preview card) next to its anchor, in viewport
 * pixels for `position: fixed`. Flips to the other side when it does not fit and stays inside the
 * viewport. `start`/`end` follow the writing direction, so RTL menus align to the anchor's right.
 */
export interface Rect { top: number; left: number; width: number; height: number }
export interface Size { width: number; height: number }
export type Side = 'top' | 'bottom';
export type Align = 'start' | 'center' | 'end';
export interface Placement { side: Side; align: Align }

export interface PositionInput {
  anchor: Rect;
  floating: Size;
  viewport: Size;
  placement: Placement;
  /** Gap between anchor and floating element (tooltips: 5). */
  distance?: number;
  rtl?: boolean;
  /** Minimum distance to the viewport edge. */
  margin?: number;
}

export interface Position { top: number; left: number; side: Side }

export function computePosition({ anchor, floating, viewport, placement, distance = 4, rtl = false, margin = 8 }: PositionInput): Position {
  const below = anchor.top + anchor.height + distance;
  const above = anchor.top - distance - floating.height;
  const fitsBelow = below + floating.height <= viewport.height - margin;
  const fitsAbove = above >= margin;
  let side = placement.side;
  if (side === 'bottom' && !fitsBelow && fitsAbove) side = 'top';
  else if (side === 'top' && !fitsAbove && fitsBelow) side = 'bottom';
  let top = side === 'bottom' ? below : above;

  // Physical alignment: "start" is the left edge in LTR and the right edge in RTL.
  const align = placement.align === 'center' ? 'center' : (placement.align === 'start') !== rtl ? 'left' : 'right';
  let left =
    align === 'center'
      ? anchor.left + anchor.width / 2 - floating.width / 2
      : align === 'left'
        ? anchor.left
        : anchor.left + anchor.width - floating.width;

  left = clamp(left, margin, viewport.width - margin - floating.width);
  top = clamp(top, margin, viewport.height - margin - floating.height);
  return { top: Math.round(top), left: Math.round(left), side };
}

function clamp(value: number, min: number, max: number): number {
  if (max < min) return min; // bigger than the viewport: pin to the start edge
  return Math.min(max, Math.max(min, value));
}

export function isRtl(element: Element | null): boolean {
  return !!element && getComputedStyle(element).direction === 'rtl';
}
