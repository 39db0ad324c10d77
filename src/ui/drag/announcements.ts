import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { dragData } from './data';

/**
 * What a screen reader hears while something is dragged (dnd-kit reads these into a live region),
 * translated like every other string. Names come from each draggable's and target's `label`.
 */
export function useDragAccessibility(): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const { t } = useLingui();
  return useMemo(() => {
    const nameOf = (holder: Parameters<typeof dragData>[0]) => dragData(holder)?.label ?? '';
    return {
      screenReaderInstructions: {
        draggable: t`To pick this up, press Space. While dragging, the arrow keys move it, Space drops it and Escape cancels.`,
      },
      announcements: {
        onDragStart: ({ active }) => {
          const name = nameOf(active);
          return t`Picked up ${name}.`;
        },
        onDragOver: ({ active, over }) => {
          const name = nameOf(active);
          if (!over) return t`${name} is no longer over a drop place.`;
          const place = nameOf(over);
          return t`${name} is over ${place}.`;
        },
        onDragEnd: ({ active, over }) => {
          const name = nameOf(active);
          if (!over) return t`${name} was dropped where it was.`;
          const place = nameOf(over);
          return t`${name} was dropped on ${place}.`;
        },
        onDragCancel: ({ active }) => {
          const name = nameOf(active);
          return t`Moving ${name} was cancelled.`;
        },
      },
    };
  }, [t]);
}
