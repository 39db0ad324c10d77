import { useEffect, useMemo, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { Cell } from '../model/grid-keys';
import { ROW_HEIGHT } from './table-rows';

export { ROW_HEIGHT };
export const HEADER_HEIGHT = 38;
export const SELECT_WIDTH = 44;

export interface VirtualCol {
  index: number;
  start: number;
  size: number;
}

/**
 * Virtualisation of the table: only the rows and columns on screen (plus a few) are rendered, so
 * 10,000 items × 10 attributes scroll like 20. Columns run right to left in a right-to-left page.
 */
export function useTableVirtual(options: { scrollRef: RefObject<HTMLDivElement | null>; rowCount: number; columnWidths: number[]; rtl: boolean; pinFirst?: boolean }) {
  const { scrollRef, rowCount, columnWidths, rtl, pinFirst = false } = options;
  const rows = useVirtualizer({ count: rowCount, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const cols = useVirtualizer({
    horizontal: true,
    isRtl: rtl,
    count: columnWidths.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => columnWidths[i]!,
    overscan: 2,
    // The pinned (name) column is rendered wherever the table is scrolled: it sticks at the start.
    rangeExtractor: pinFirst ? (range: Range) => [...new Set([0, ...defaultRangeExtractor(range)])].sort((a, b) => a - b) : defaultRangeExtractor,
  });
  const widthsKey = columnWidths.join(',');
  useEffect(() => cols.measure(), [widthsKey, cols]);

  const virtualRows = rows.getVirtualItems();
  const colsNow = cols.getVirtualItems();
  const colsKey = colsNow.map((vc) => `${vc.index}:${vc.start}:${vc.size}`).join(',');
  // A new array only when the visible columns really change, so memoised rows keep their props.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const virtualCols: VirtualCol[] = useMemo(() => colsNow.map(({ index, start, size }) => ({ index, start, size })), [colsKey]);

  return {
    virtualRows,
    virtualCols,
    firstRow: virtualRows[0]?.index ?? 0,
    lastRow: virtualRows[virtualRows.length - 1]?.index ?? -1,
    height: rows.getTotalSize() + HEADER_HEIGHT,
    width: SELECT_WIDTH + cols.getTotalSize(),
    /** Brings a cell into view (column 0 is the selection column). */
    scrollTo(cell: Cell) {
      rows.scrollToIndex(cell.row, { align: 'auto' });
      if (cell.col > 0) cols.scrollToIndex(cell.col - 1, { align: 'auto' });
    },
  };
}
