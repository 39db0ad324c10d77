import { useLayoutEffect, useRef } from 'react';

/**
 * Measures a drag's "local edit → visible in the same tab" (DESIGN.md §8, p95 ≤ 16 ms; issue #12
 * "drag → saved locally") for the Calendar and Gantt: from the pointer's release (the input
 * event's own time stamp, so the library's drop handling counts) until the view has rendered the
 * item with its new value (BoardActions lays the edit over the replica in this tab at once:
 * store/pending.ts) and the frame that draws it starts. Marked as `cairn:view-drag-visible` for
 * bench/views-calendar-gantt.ts, and `cairn:view-drag-in-page` when the page holds it (the commit,
 * before waiting for the frame: how the Table's edit → visible figure is taken); costs one
 * comparison per render of the view.
 */
let lastRelease = Number.NEGATIVE_INFINITY;
if (typeof window !== 'undefined') {
  const note = (event: Event) => {
    lastRelease = event.timeStamp;
  };
  window.addEventListener('pointerup', note, { capture: true, passive: true });
  window.addEventListener('mouseup', note, { capture: true, passive: true });
}

/** When the drop being handled began: the pointer's release if it was just now, else now (the keyboard). */
export function dropStart(): number {
  const now = performance.now();
  return now - lastRelease < 1000 ? Math.min(lastRelease, now) : now;
}

type Reader = (itemId: string, attributeId: string) => unknown;

/**
 * Call `expectChange(itemId, attributeIds)` right before saving a dropped item: the first render
 * of the view whose reader answers another value for one of them marks the drop as visible.
 */
export function useDragVisible(get: Reader): (itemId: string, attributeIds: readonly string[]) => void {
  const waiting = useRef<{ itemId: string; attributeIds: readonly string[]; before: unknown[]; start: number } | null>(null);
  useLayoutEffect(() => {
    const w = waiting.current;
    if (!w || w.attributeIds.every((id, i) => get(w.itemId, id) === w.before[i])) return;
    waiting.current = null;
    performance.measure('cairn:view-drag-in-page', { start: w.start });
    requestAnimationFrame(() => performance.measure('cairn:view-drag-visible', { start: w.start }));
  });
  const latest = useRef(get);
  latest.current = get;
  return useRef((itemId: string, attributeIds: readonly string[]) => {
    waiting.current = { itemId, attributeIds, before: attributeIds.map((id) => latest.current(itemId, id)), start: dropStart() };
  }).current;
}
