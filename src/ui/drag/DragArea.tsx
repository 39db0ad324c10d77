import { DndContext, type CollisionDetection, type DragCancelEvent, type DragEndEvent, type DragMoveEvent, type DragOverEvent, type DragStartEvent, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { useState, type ReactNode } from 'react';
import { DRAG_SCROLL_SPEED } from '../../../schema/constants';
import { useDragAccessibility } from './announcements';
import { onlyAccepting } from './data';
import { useDragSensors } from './sensors';
import { edgeThreshold, scrollContainerSize } from './scroll-edge';

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
 * touch, keyboard), translated announcements, and scrolling within 20 px of an edge at the spec's speed.
 */
export function DragArea({ children, collision, keyboard, ...handlers }: DragAreaProps) {
  const sensors = useDragSensors(keyboard);
  const accessibility = useDragAccessibility();
  // The scroll edge is 20 px of the container the drag starts in (shell.md §9), as dnd-kit's share.
  const [threshold, setThreshold] = useState(() => edgeThreshold({ width: window.innerWidth, height: window.innerHeight }));
  const onDragStart = (event: DragStartEvent) => {
    const target = event.activatorEvent?.target;
    setThreshold(edgeThreshold(scrollContainerSize(target instanceof Element ? target : null)));
    handlers.onDragStart?.(event);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={onlyAccepting(collision)}
      accessibility={accessibility}
      autoScroll={{ acceleration: DRAG_SCROLL_SPEED, threshold }}
      {...handlers}
      onDragStart={onDragStart}
    >
      {children}
    </DndContext>
  );
}
