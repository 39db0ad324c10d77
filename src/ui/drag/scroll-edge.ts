import { SCROLL_EDGE_PX } from '../../../schema/constants';

/**
 * dnd-kit scrolls a container when the drag comes within a *share* of its size of an edge; the
 * spec gives the edge in pixels (shell.md §9: 20 px). This turns the pixels into the share for the
 * container a drag starts in (DragArea sets it at drag start).
 */
export function edgeThreshold(size: { width: number; height: number }, edgePx = SCROLL_EDGE_PX): { x: number; y: number } {
  const share = (length: number) => (length > edgePx * 2 ? edgePx / length : 0.5);
  return { x: share(size.width), y: share(size.height) };
}

/** The size of the nearest scrolling ancestor of an element, else of the window. */
export function scrollContainerSize(from: Element | null): { width: number; height: number } {
  for (let el = from; el && el !== document.documentElement; el = el.parentElement) {
    const style = getComputedStyle(el);
    const scrolls = /(auto|scroll)/.test(style.overflowX + style.overflowY) && (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    if (scrolls) return { width: el.clientWidth, height: el.clientHeight };
  }
  return { width: window.innerWidth, height: window.innerHeight };
}
