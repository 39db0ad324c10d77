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

/**
 * One edge of a bar: dragging it moves that end only. A tab stop of its own beside the bar (not
 * inside it: no control nests in another), so the keyboard resizes as it moves: Space picks the
 * edge up, ←/→ move it a day, Space drops it (Escape puts it back).
 */
function Edge({ itemId, name, when, edge }: { itemId: string; name: string; when: string; edge: 'start' | 'end' }) {
  const { t } = useLingui();
  const label = edge === 'start' ? t`Start of ${name}` : t`End of ${name}`;
  const data: BarDragData = { type: 'gantt-bar', itemId, drag: edge, label };
  const { setNodeRef, listeners, attributes } = useDraggable({ id: `${itemId}:${edge}`, data });
  return <span ref={setNodeRef} className={`gantt-bar-edge is-${edge}`} {...attributes} {...listeners} aria-label={`${label}, ${when}`} data-edge={edge} />;
}

/**
 * A bar on the timeline, placed from the inline start (so it mirrors in right to left): drag it
 * to move the item in time (mouse, finger, or Space + arrows + Space), drag an edge to resize.
 */
export const GanttBar = memo(function GanttBar({ itemId, name, offset, width, when, editable, resizable, dragging, onOpen }: GanttBarProps) {
  const data: BarDragData = { type: 'gantt-bar', itemId, drag: 'move', label: name };
  const { setNodeRef, listeners, attributes } = useDraggable({ id: `${itemId}:move`, data, disabled: !editable });
  return (
    <div className="gantt-bar-slot" style={{ insetInlineStart: offset, inlineSize: Math.max(width, 6) }}>
      <div
        ref={setNodeRef}
        className={`gantt-bar${dragging ? ' is-dragging' : ''}${editable ? ' is-editable' : ''}`}
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
        <span className="gantt-bar-label">{name}</span>
      </div>
      {resizable && editable && <Edge itemId={itemId} name={name} when={when} edge="start" />}
      {resizable && editable && <Edge itemId={itemId} name={name} when={when} edge="end" />}
    </div>
  );
});
