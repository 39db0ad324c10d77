/**
 * Arrow keys are physical: in a right-to-left page the column to the right of a card is the one
 * before it in reading order. Keyboard moves that step through a logical list (groups, columns,
 * tree levels) turn the arrow into a step with this.
 */

/** Whether `element` is laid out right to left (the page's dir, or a dir set closer). */
export function isRtl(element: Element | null | undefined): boolean {
  if (!element || typeof getComputedStyle !== 'function') return typeof document !== 'undefined' && document.documentElement.dir === 'rtl';
  return getComputedStyle(element).direction === 'rtl';
}

/** The logical step of a horizontal arrow: +1 is "next in reading order", -1 "previous"; 0 for other keys. */
export function inlineStep(key: string, rtl: boolean): -1 | 0 | 1 {
  if (key === 'ArrowRight') return rtl ? -1 : 1;
  if (key === 'ArrowLeft') return rtl ? 1 : -1;
  return 0;
}

/** Whether the page is right to left (the <html dir> the locale sets); cheap enough for every render. */
export function pageIsRtl(): boolean {
  return typeof document !== 'undefined' && document.documentElement.dir === 'rtl';
}
