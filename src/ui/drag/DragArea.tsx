import { DndContext, type CollisionDetection, type DragCancelEvent, type DragEndEvent, type DragMoveEvent, type DragOverEvent, type DragStartEvent, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import type { ReactNode } from 'react';
import { DRAG_SCROLL_SPEED } from '../../../schema/constants';
import { useDragAccessibility } from './announcements';
import { onlyAccepting } from './data';
import { useDragSensors } from './sensors';

export interface DragAreaProps {
  children: ReactNode;
  /** How the target under the drag is chosen among the targets that take the dragged kind. */
  collision: CollisionDetection;
  /** How the arrow keys move a keyboard drag (default: to the next target in that direction). */
  keyboard?: KeyboardCoordinateGetter;
  onDragStart?(event: DragStartEvent): void;
  onDragMove?(event: DragMoveEvent): void;
  onDragOver?(event: DragOverEvent): void;
  onDragEnd(event: DragEndEvent): void;
  onDragCancel?(event: DragCancelEvent): void;
}

/**
 * The one drag-and-drop setup of the app (decision 0104): dnd-kit with the app's sensors (mouse,
 * touch, keyboard), translated announcements, and scrolling at the edges at the spec's speed.
 */
export function DragArea({ children, collision, keyboard, ...handlers }: DragAreaProps) {
  const sensors = useDragSensors(keyboard);
  const accessibility = useDragAccessibility();
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={onlyAccepting(collision)}
      accessibility={accessibility}
      autoScroll={{ acceleration: DRAG_SCROLL_SPEED }}
      {...handlers}
    >
      {children}
    </DndContext>
  );
}
