import type { KeyboardEvent } from 'react';
import type { Attribute, Item } from '../store/live';
import { nextCell, type Cell } from '../model/grid-keys';
import { inlineStep } from '../../ui/drag/direction';
import { ROW_HEIGHT } from './use-table-virtual';
import { startsByTyping } from '../parts/values';
import type { RowSource } from './table-rows';

export interface GridKeyContext {
  rows: RowSource<Item>;
  columns: Attribute[];
  active: Cell;
  editing: boolean;
  /** The page's direction: horizontal Alt+Shift moves of a column follow what is seen. */
  rtl: boolean;
  pageHeight: number;
  move(cell: Cell): void;
  toggleGroup(key: string): void;
  toggleSelect(id: string): void;
  clearSelection(): void;
  /** Starts the editor; `initialText` is the character typed on the cell (type-to-edit). */
  startEditing(cell: Cell, initialText?: string): void;
  /** A checkbox cell: flips its value (Space or Enter, as a click does). */
  toggleCheck?(item: Item, attribute: Attribute): void;
  canEditCell(item: Item, attribute: Attribute | undefined): boolean;
  clear(item: Item, attribute: Attribute): Promise<void>;
  openItem(item: Item): void;
  /** Alt+↑ / Alt+↓ in a grouped table: the row to the previous or next group. */
  moveRowToGroup?(item: Item, step: -1 | 1): Promise<void>;
  /** Alt+Shift+← / → on a cell: its column one place earlier or later (not the primary column). */
  moveColumn?(attribute: Attribute, step: -1 | 1): void;
  /** Delete on the selection column, or with rows selected: those rows (else this one) to the trash. */
  trash?(item: Item): Promise<void>;
  /** How many rows are selected. */
  selectedCount?: number;
}

/** A single letter with no modifier (Shift aside): the table's one-key shortcuts. */
const plainKey = (event: KeyboardEvent) => !event.ctrlKey && !event.metaKey && !event.altKey && event.key.length === 1;

/**
 * The table's keyboard (the grid owns focus, cells are aria-activedescendant): arrows, Home/End,
 * PageUp/PageDown, Tab move; Enter, F2 or e edits (Ctrl+Enter opens the item), Space selects in the
 * selection column (Shift+Space anywhere) and x anywhere, Delete clears a value (on the selection
 * column, or with rows selected, it moves the rows to the trash), Escape clears the selection; Enter or
 * Space on a group header collapses it; Alt+arrows move rows between groups and columns around.
 * As in a spreadsheet, typing a character on a text-like cell starts editing it with that
 * character (so there x and e type themselves), and Space or Enter flips a checkbox cell.
 */
export async function onGridKey(event: KeyboardEvent, c: GridKeyContext): Promise<void> {
  if (c.editing) return;
  const row = c.rows.at(c.active.row);
  const item = row?.kind === 'item' ? row.item : null;
  const attribute = c.active.col > 0 ? c.columns[c.active.col - 1] : undefined;
  if (event.altKey && item) {
    if (c.moveRowToGroup && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      return c.moveRowToGroup(item, event.key === 'ArrowUp' ? -1 : 1);
    }
    const step = inlineStep(event.key, c.rtl);
    if (c.moveColumn && event.shiftKey && step !== 0 && attribute && attribute.kind !== 'primary') {
      event.preventDefault();
      return c.moveColumn(attribute, step);
    }
  }
  const pageRows = Math.max(1, Math.floor(c.pageHeight / ROW_HEIGHT) - 1);
  const next = nextCell(c.active, { key: event.key, ctrl: event.ctrlKey || event.metaKey, shift: event.shiftKey, rtl: c.rtl }, { rows: c.rows.length, cols: c.columns.length + 1, pageRows });
  if (next) {
    event.preventDefault();
    return c.move(next);
  }
  if (row?.kind === 'group' && (event.key === 'Enter' || event.key === ' ')) {
    event.preventDefault();
    return c.toggleGroup(row.group.key);
  }
  if (!item) return;
  const checkbox = attribute?.kind === 'checkbox' && c.toggleCheck && c.canEditCell(item, attribute);
  if (event.key === ' ' && (c.active.col === 0 || event.shiftKey)) {
    event.preventDefault();
    c.toggleSelect(item.id);
  } else if (checkbox && (event.key === ' ' || (event.key === 'Enter' && !event.ctrlKey && !event.metaKey))) {
    event.preventDefault();
    c.toggleCheck!(item, attribute!);
  } else if (plainKey(event) && event.key !== ' ' && attribute && startsByTyping(attribute) && c.canEditCell(item, attribute)) {
    // Type-to-edit: the key is the editor's first character (not lost, not a shortcut).
    event.preventDefault();
    c.startEditing(c.active, event.key);
  } else if ((event.key === 'Enter' || event.key === 'F2') && attribute) {
    event.preventDefault();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return c.openItem(item);
    if (c.canEditCell(item, attribute)) c.startEditing(c.active);
  } else if (plainKey(event) && event.key.toLowerCase() === 'e' && attribute) {
    // e: edit the cell (like Enter).
    event.preventDefault();
    if (c.canEditCell(item, attribute)) c.startEditing(c.active);
  } else if (plainKey(event) && event.key.toLowerCase() === 'x') {
    // x: select or unselect the row.
    event.preventDefault();
    c.toggleSelect(item.id);
  } else if (event.key === 'Delete' && c.trash && (c.active.col === 0 || (c.selectedCount ?? 0) > 0)) {
    event.preventDefault();
    await c.trash(item);
  } else if ((event.key === 'Delete' || event.key === 'Backspace') && attribute) {
    event.preventDefault();
    await c.clear(item, attribute);
  } else if (event.key === 'Escape') {
    c.clearSelection();
  }
}
