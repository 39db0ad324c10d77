import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * How much a one-row toolbar has to fold to fit its width (decision 0276), measured rather than
 * guessed from breakpoints: labels differ by language (German, Arabic…) and by state ("Sort (2)").
 *
 *   0  everything shown
 *   1  the item count hidden
 *   2  also the view controls' labels (Sort, Filter, Group, Attributes, More): icons only
 *   3  also "New item"'s label
 *
 * When the labels or the step change, and on every resize of the row or its parts: when the row
 * overflows, fold one step more (React renders again before the browser paints, so no overflowing
 * frame is seen) and remember the width that step needed; when the row got wider than a lighter
 * step needed, unfold. `contentKey` changes when the labels change (language, counts): the
 * remembered widths are measured again.
 */
export type ToolbarFit = 0 | 1 | 2 | 3;

export function useToolbarFit(ref: RefObject<HTMLElement | null>, contentKey: string): ToolbarFit {
  const [fit, setFit] = useState<ToolbarFit>(0);
  const current = useRef<ToolbarFit>(0);
  current.current = fit;
  // The row's width needed at each step (0: not measured, i.e. it fitted the last time it was tried).
  const needed = useRef<number[]>([0, 0, 0, 0]);
  const key = useRef(contentKey);
  if (key.current !== contentKey) {
    key.current = contentKey;
    needed.current = [0, 0, 0, 0];
  }
  const check = useRef(() => {});
  check.current = () => {
    const el = ref.current;
    if (!el) return;
    const width = el.clientWidth;
    const level = current.current;
    let next: number = level;
    if (el.scrollWidth > width + 1) {
      needed.current[level] = el.scrollWidth;
      if (level < 3) next = level + 1;
    } else if (level > 0) {
      const lighter = needed.current[level - 1]!;
      if (lighter === 0 || lighter <= width) next = level - 1;
    }
    if (next !== level) setFit(next as ToolbarFit);
  };
  // Measured when the labels or the step change, not on every render: the pane renders on every
  // drag and edit, and a forced layout in each of those renders showed in the drag profiles.
  useLayoutEffect(() => check.current(), [contentKey, fit]);
  // Width changes of the row, and size changes of its parts (a label that grew without the key
  // changing), come through the observer.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => check.current());
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [ref, contentKey, fit]);
  return fit;
}
