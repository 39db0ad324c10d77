import { useCallback, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { DRAG_THRESHOLD } from '../../../schema/constants';
import type { Item } from '../store/live';
import type { RowDropTarget } from './table-rows';

/** A row being dragged: where the pointer is and where the row would land. */
export interface RowDragState {
  itemId: string;
  name: string;
  x: number;
  y: number;
  target: RowDropTarget | null;
}

interface Options {
  enabled: boolean;
  scrollRef: RefObject<HTMLDivElement | null>;
  headerHeight: number;
  /** The drop target at `y` pixels from the top of the rows. */
  target(y: number): RowDropTarget | null;
  canDrag(item: Item): boolean;
  onDrop(item: Item, target: RowDropTarget): void;
}

/**
 * Pointer dragging of table rows (mouse, pen and touch alike, like the Column view's cards): a
 * press that moves past DRAG_THRESHOLD becomes a drag; releasing drops the row on the target.
 * A press that does not move stays a click, so selecting and editing cells work as before.
 */
export function useRowDrag(options: Options): { state: RowDragState | null; start(event: ReactPointerEvent, item: Item): void } {
  const [state, setState] = useState<RowDragState | null>(null);
  const latest = useRef(options);
  latest.current = options;

  const start = useCallback((event: ReactPointerEvent, item: Item) => {
    const o = latest.current;
    if (!o.enabled || event.button !== 0 || !o.canDrag(item)) return;
    if ((event.target as HTMLElement).closest('input, button, a, textarea, select, [contenteditable]')) return;
    const startX = event.clientX;
    const startY = event.clientY;
    let current: RowDragState | null = null;
    const targetAt = (y: number) => {
      const grid = latest.current.scrollRef.current;
      if (!grid) return null;
      return latest.current.target(y - grid.getBoundingClientRect().top + grid.scrollTop - latest.current.headerHeight);
    };
    const onMove = (e: PointerEvent) => {
      if (!current && Math.abs(e.clientX - startX) + Math.abs(e.clientY - startY) <= DRAG_THRESHOLD) return;
      if (!current) window.getSelection()?.removeAllRanges();
      current = { itemId: item.id, name: String(item.name ?? ''), x: e.clientX, y: e.clientY, target: targetAt(e.clientY) };
      setState(current);
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      setState(null);
      if (current?.target) latest.current.onDrop(item, current.target);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  }, []);

  return useMemo(() => ({ state, start }), [state, start]);
}
