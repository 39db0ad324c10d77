import { memo } from 'react';
import { useDraggable } from '@dnd-kit/core';
import { useLingui } from '@lingui/react/macro';
import type { DragData } from '../../ui/drag/data';
import type { BarDrag } from './timeline';

export interface BarDragData extends DragData {
  itemId: string;
  drag: BarDrag;
}

interface GanttBarProps {
  itemId: string;
  name: string;
  offset: number;
  width: number;
  /** Dates as the user reads them, for the bar's tooltip and accessible name. */
  when: string;
  editable: boolean;
  resizable: boolean;
  dragging: boolean;
  onOpen(itemId: string): void;
}

/** One edge of a bar: dragging it moves that end only. Not a tab stop (the item panel edits dates by keyboard). */
function Edge({ itemId, name, edge, disabled }: { itemId: string; name: string; edge: 'start' | 'end'; disabled: boolean }) {
  const { t } = useLingui();
  const data: BarDragData = { type: 'gantt-bar', itemId, drag: edge, label: edge === 'start' ? t`Start of ${name}` : t`End of ${name}` };
  const { setNodeRef, listeners } = useDraggable({ id: `${itemId}:${edge}`, data, disabled });
  return <span ref={setNodeRef} className={`gantt-bar-edge is-${edge}`} aria-hidden="true" {...listeners} />;
}

/**
 * A bar on the timeline, placed from the inline start (so it mirrors in right to left): drag it
 * to move the item in time (mouse, finger, or Space + arrows + Space), drag an edge to resize.
 */
export const GanttBar = memo(function GanttBar({ itemId, name, offset, width, when, editable, resizable, dragging, onOpen }: GanttBarProps) {
  const data: BarDragData = { type: 'gantt-bar', itemId, drag: 'move', label: name };
  const { setNodeRef, listeners, attributes } = useDraggable({ id: `${itemId}:move`, data, disabled: !editable });
  return (
    <div
      ref={setNodeRef}
      className={`gantt-bar${dragging ? ' is-dragging' : ''}${editable ? ' is-editable' : ''}`}
      style={{ insetInlineStart: offset, inlineSize: Math.max(width, 6) }}
      title={`${name} · ${when}`}
      data-item-id={itemId}
      {...attributes}
      {...listeners}
      aria-label={`${name}, ${when}`}
      onDoubleClick={() => onOpen(itemId)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onOpen(itemId);
        listeners?.onKeyDown?.(event);
      }}
    >
      {resizable && editable && <Edge itemId={itemId} name={name} edge="start" disabled={!editable} />}
      <span className="gantt-bar-label">{name}</span>
      {resizable && editable && <Edge itemId={itemId} name={name} edge="end" disabled={!editable} />}
    </div>
  );
});
