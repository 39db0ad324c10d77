import type { Active, ClientRect, CollisionDetection, DroppableContainer, KeyboardCoordinateGetter, UniqueIdentifier } from '@dnd-kit/core';
import type { Coordinates } from '@dnd-kit/utilities';

/**
 * What every draggable and drop target of the app carries in its dnd-kit `data`: what kind of
 * thing it is, what it accepts, and the name a screen reader hears. Several kinds share one
 * drag area (a kanban board drags cards and columns), so targets say which kinds they take.
 */
export interface DragData {
  /** The kind of the dragged thing ('card', 'column', 'row', …); empty for a target that is not draggable. */
  type?: string;
  /** The kinds of dragged things this target takes. */
  accepts?: readonly string[];
  /** The name read out when this is picked up or passed over. */
  label: string;
}

type DataHolder = { data: { current?: Record<string, unknown> | null } };

export function dragData(holder: DataHolder | null | undefined): DragData | undefined {
  return (holder?.data.current ?? undefined) as DragData | undefined;
}

/** Whether `target` takes what `active` is (a target that names nothing it accepts takes nothing). */
export function accepts(active: Pick<Active, 'data'> | null, target: DataHolder): boolean {
  const type = dragData(active)?.type;
  return !!type && !!dragData(target)?.accepts?.includes(type);
}

/** A collision detection that only looks at the targets which take the dragged kind. */
export function onlyAccepting(detect: CollisionDetection): CollisionDetection {
  return (args) => detect({ ...args, droppableContainers: args.droppableContainers.filter((c) => accepts(args.active, c)) });
}

/**
 * A keyboard coordinate getter that moves between the targets which take the dragged kind (the
 * sortable getter would otherwise step onto a column header while moving a card).
 */
export function keyboardAccepting(getter: KeyboardCoordinateGetter): KeyboardCoordinateGetter {
  return (event, args) => {
    const { context } = args;
    const all = context.droppableContainers;
    const active = context.active;
    const view = {
      getEnabled: () => all.getEnabled().filter((c: DroppableContainer) => accepts(active, c)),
      get: (id: UniqueIdentifier | null | undefined) => all.get(id),
    };
    return getter(event, { ...args, context: { ...context, droppableContainers: view as typeof all } });
  };
}

/** The pointer's place now: where the press began plus how far the drag has gone (null for the keyboard). */
export function pointerNow(activatorEvent: Event | null, delta: Coordinates): Coordinates | null {
  if (!activatorEvent) return null;
  const start = startPoint(activatorEvent);
  return start ? { x: start.x + delta.x, y: start.y + delta.y } : null;
}

function startPoint(event: Event): Coordinates | null {
  if ('touches' in event) {
    const touch = (event as TouchEvent).touches[0] ?? (event as TouchEvent).changedTouches[0];
    return touch ? { x: touch.clientX, y: touch.clientY } : null;
  }
  if ('clientX' in event && !(typeof KeyboardEvent !== 'undefined' && event instanceof KeyboardEvent)) return { x: (event as MouseEvent).clientX, y: (event as MouseEvent).clientY };
  return null;
}

/** The middle of a rect (where a keyboard drag "points"). */
export function middleOf(rect: Pick<ClientRect, 'left' | 'top' | 'width' | 'height'>): Coordinates {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}
