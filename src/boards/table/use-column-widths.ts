import { useCallback, useState } from 'react';
import type { ViewSettings } from '../../../schema/views';
import type { Attribute } from '../store/live';
import { clampWidth, columnWidth } from '../model/columns';

/**
 * Column widths: the view's saved widths, overridden while a column edge is dragged; the new
 * width is saved to the view when the drag ends (and the override dropped once it is).
 */
export function useColumnWidths(settings: Pick<ViewSettings, 'column_widths'>, save: (widths: Record<string, number>) => Promise<unknown>) {
  const [live, setLive] = useState<Record<string, number>>({});
  const widthOf = useCallback((a: Pick<Attribute, 'id'>) => live[a.id] ?? columnWidth(settings, a.id), [live, settings]);
  return {
    widthOf,
    /** Shows `id` at `start` + `delta` px while its edge is dragged. */
    preview: (id: string, start: number, delta: number) => setLive((w) => ({ ...w, [id]: clampWidth(start + delta) })),
    async commit(id: string, start: number, delta: number) {
      await save({ ...settings.column_widths, [id]: clampWidth(start + delta) });
      setLive((w) => Object.fromEntries(Object.entries(w).filter(([k]) => k !== id)));
    },
    cancel: (id: string) => setLive((w) => Object.fromEntries(Object.entries(w).filter(([k]) => k !== id))),
  };
}
