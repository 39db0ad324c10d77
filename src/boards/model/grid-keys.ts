/**
 * Keyboard navigation of the table grid (a pure function of the key and the grid's size), in the
 * spirit of spreadsheets and the WAI-ARIA grid pattern: arrows move one cell, Home/End go to the
 * row's ends (with Ctrl: the grid's corners), PageUp/PageDown move a page, Tab/Shift+Tab walk
 * cells and wrap to the next/previous row. In a right-to-left grid ← and → swap, as they are seen.
 */

export interface Cell {
  row: number;
  col: number;
}

export interface GridSize {
  rows: number;
  cols: number;
  /** Rows in one page (PageUp/PageDown). */
  pageRows: number;
}

export interface KeyInfo {
  key: string;
  ctrl?: boolean;
  shift?: boolean;
  /** A right-to-left grid: its first column is on the right, so ← goes to the next column. */
  rtl?: boolean;
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** The next focused cell, or null when the key is not a navigation key (let it through). */
export function nextCell(cell: Cell, key: KeyInfo, size: GridSize): Cell | null {
  if (size.rows === 0 || size.cols === 0) return null;
  const lastRow = size.rows - 1;
  const lastCol = size.cols - 1;
  const row = clamp(cell.row, 0, lastRow);
  const col = clamp(cell.col, 0, lastCol);
  const name = key.rtl && key.key === 'ArrowLeft' ? 'ArrowRight' : key.rtl && key.key === 'ArrowRight' ? 'ArrowLeft' : key.key;
  switch (name) {
    case 'ArrowUp':
      return { row: key.ctrl ? 0 : clamp(row - 1, 0, lastRow), col };
    case 'ArrowDown':
      return { row: key.ctrl ? lastRow : clamp(row + 1, 0, lastRow), col };
    case 'ArrowLeft':
      return { row, col: key.ctrl ? 0 : clamp(col - 1, 0, lastCol) };
    case 'ArrowRight':
      return { row, col: key.ctrl ? lastCol : clamp(col + 1, 0, lastCol) };
    case 'Home':
      return key.ctrl ? { row: 0, col: 0 } : { row, col: 0 };
    case 'End':
      return key.ctrl ? { row: lastRow, col: lastCol } : { row, col: lastCol };
    case 'PageUp':
      return { row: clamp(row - Math.max(1, size.pageRows), 0, lastRow), col };
    case 'PageDown':
      return { row: clamp(row + Math.max(1, size.pageRows), 0, lastRow), col };
    case 'Tab':
      if (key.shift) return col > 0 ? { row, col: col - 1 } : row > 0 ? { row: row - 1, col: lastCol } : null;
      return col < lastCol ? { row, col: col + 1 } : row < lastRow ? { row: row + 1, col: 0 } : null;
    default:
      return null;
  }
}
