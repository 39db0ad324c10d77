import { KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type KeyboardCoordinateGetter, type MouseSensorOptions, type TouchSensorOptions } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import type { MouseEvent as ReactMouseEvent, TouchEvent as ReactTouchEvent } from 'react';
import { DRAG_DELAY_MS, DRAG_THRESHOLD, TOUCH_TAP_TOLERANCE_PX } from '../../../schema/constants';
import { keyboardAccepting } from './data';

/**
 * The sensors every drag area of the app uses (shell.md / workspace.md: drag delay 200 ms,
 * threshold 2): a mouse press becomes a drag after moving DRAG_THRESHOLD px, so a press that does
 * not move stays a click; a finger must rest DRAG_DELAY_MS first, so a swipe still scrolls; the
 * keyboard picks up with Space, moves with the arrows, drops with Space or Enter, cancels with
 * Escape. Presses on controls inside a draggable (inputs, buttons, editors) never drag.
 */

// Links are not here: a folder row is mostly its link, and a press on a link that does not move is still a click.
const INTERACTIVE = 'input, button, textarea, select, [contenteditable], [data-no-drag]';

/** Whether a press on `target` belongs to a control inside the draggable rather than to the drag. */
export function isInteractive(target: EventTarget | null, draggable: Element | null): boolean {
  const element = target as Element | null;
  if (!element || typeof element.closest !== 'function') return false;
  const control = element.closest(INTERACTIVE);
  // A control marked data-drag-through (a header's sort button) is a click when still, a drag when moved.
  if (control?.hasAttribute('data-drag-through')) return false;
  // The draggable itself may be a button (a kanban card): only controls inside it are excluded.
  return !!control && control !== draggable && (!draggable || draggable.contains(control));
}

class AppMouseSensor extends MouseSensor {
  static activators = [
    {
      eventName: 'onMouseDown' as const,
      handler: ({ nativeEvent, currentTarget }: ReactMouseEvent, { onActivation }: MouseSensorOptions) => {
        if (nativeEvent.button !== 0 || isInteractive(nativeEvent.target, currentTarget as Element)) return false;
        onActivation?.({ event: nativeEvent });
        return true;
      },
    },
  ];
}

class AppTouchSensor extends TouchSensor {
  static activators = [
    {
      eventName: 'onTouchStart' as const,
      handler: ({ nativeEvent, currentTarget }: ReactTouchEvent, { onActivation }: TouchSensorOptions) => {
        if (nativeEvent.touches.length > 1 || isInteractive(nativeEvent.target, currentTarget as Element)) return false;
        onActivation?.({ event: nativeEvent });
        return true;
      },
    },
  ];
}

export const KEYBOARD_CODES = { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] };

export function useDragSensors(coordinateGetter: KeyboardCoordinateGetter = sortableKeyboardCoordinates) {
  return useSensors(
    useSensor(AppMouseSensor, { activationConstraint: { distance: DRAG_THRESHOLD } }),
    useSensor(AppTouchSensor, { activationConstraint: { delay: DRAG_DELAY_MS, tolerance: TOUCH_TAP_TOLERANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardAccepting(coordinateGetter), keyboardCodes: KEYBOARD_CODES }),
  );
}
