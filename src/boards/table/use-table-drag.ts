import { useRef, useState, type RefObject } from 'react';
import { closestCenter, type CollisionDetection, type DragEndEvent, type DragMoveEvent, type DragStartEvent } from '@dnd-kit/core';
import { dragData, pointerNow } from '../../ui/drag/data';
import type { Item } from '../store/live';
import type { Group } from '../model/query';
import { rowDropTarget, type RowDropTarget, type RowSource } from './table-rows';
import type { ResizeData } from './TableHeader';
import { HEADER_HEIGHT } from './use-table-virtual';

/** A row being dragged: where the pointer is and where the row would land. */
export interface RowDragState {
  itemId: string;
  name: string;
  x: number;
  y: number;
  target: RowDropTarget | null;
}

/** Headers are sorted by the nearest header; rows and column edges need no target from the library. */
export const tableCollision: CollisionDetection = (args) => (dragData(args.active)?.type === 'column' ? closestCenter(args) : []);

export interface TableDragOptions {
  scrollRef: RefObject<HTMLDivElement | null>;
  rows: RowSource<Item>;
  groups: Group<Item>[];
  rtl: boolean;
  dropRow(itemId: string, target: RowDropTarget): void;
  moveColumn(id: string, overId: string): void;
  resize: { preview(id: string, start: number, delta: number): void; commit(id: string, start: number, delta: number): Promise<void>; cancel(id: string): void };
}

/**
 * The three drags of a table, in one drag area: rows between groups (the landing place follows
 * the pointer over the rows, table-rows.ts, since virtualised rows cannot all be drop targets),
 * headers to reorder columns, and header edges to resize them.
 */
export function useTableDrag(options: TableDragOptions) {
  const latest = useRef(options);
  latest.current = options;
  const [row, setRow] = useState<RowDragState | null>(null);
  const resizing = useRef<{ id: string; start: number } | null>(null);
  const dragging = useRef(false);

  // dnd-kit's delta counts the grid's own scrolling since the drag began, so the place over the
  // rows is the press plus the delta, measured against the scroll position at the start.
  const scrollAtStart = useRef(0);
  const rowTargetAt = (pointY: number) => {
    const grid = latest.current.scrollRef.current;
    if (!grid) return null;
    const y = pointY - grid.getBoundingClientRect().top + scrollAtStart.current - HEADER_HEIGHT;
    return rowDropTarget(latest.current.rows, latest.current.groups, y);
  };
  /** Where the ghost goes on screen: the pointer, without the scrolling the delta counts. */
  const onScreen = (point: { x: number; y: number }) => ({ x: point.x, y: point.y - ((latest.current.scrollRef.current?.scrollTop ?? 0) - scrollAtStart.current) });
  const resizeDelta = (x: number) => (latest.current.rtl ? -x : x); // the edge is on the inline end

  const onDragStart = ({ active }: DragStartEvent) => {
    dragging.current = true;
    const data = dragData(active);
    if (data?.type === 'resize') resizing.current = { id: (data as ResizeData).attributeId, start: (data as ResizeData).width };
    else if (data?.type === 'row') {
      scrollAtStart.current = latest.current.scrollRef.current?.scrollTop ?? 0;
      setRow({ itemId: String(active.id), name: data.label, x: 0, y: 0, target: null });
    }
  };

  const onDragMove = (event: DragMoveEvent) => {
    const type = dragData(event.active)?.type;
    if (type === 'resize' && resizing.current) latest.current.resize.preview(resizing.current.id, resizing.current.start, resizeDelta(event.delta.x));
    else if (type === 'row') {
      const point = pointerNow(event.activatorEvent, event.delta);
      if (point) setRow((r) => r && { ...r, ...onScreen(point), target: rowTargetAt(point.y) });
    }
  };

  const finish = () => {
    setRow(null);
    resizing.current = null;
    setTimeout(() => (dragging.current = false));
  };

  const onDragEnd = (event: DragEndEvent) => {
    const type = dragData(event.active)?.type;
    const size = resizing.current;
    const dropped = row;
    finish();
    if (type === 'resize' && size) void latest.current.resize.commit(size.id, size.start, resizeDelta(event.delta.x));
    else if (type === 'column' && event.over && event.over.id !== event.active.id) latest.current.moveColumn(String(event.active.id), String(event.over.id));
    else if (type === 'row') {
      const point = pointerNow(event.activatorEvent, event.delta);
      const target = point ? rowTargetAt(point.y) : dropped?.target;
      if (target) latest.current.dropRow(String(event.active.id), target);
    }
  };

  const onDragCancel = () => {
    if (resizing.current) latest.current.resize.cancel(resizing.current.id);
    finish();
  };

  // One function for the table's life: the header cells (memoised) do not render on every scroll frame.
  const [clickAllowed] = useState(() => () => !dragging.current);
  return { row, onDragStart, onDragMove, onDragEnd, onDragCancel, clickAllowed };
}
