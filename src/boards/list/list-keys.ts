import type { RowSource } from '../table/table-rows';

/**
 * The List view's keyboard (Linear-like), pure so it is tested without a browser: the list owns
 * focus and the active row is its aria-activedescendant.
 *   j / ↓ next row, k / ↑ previous, Home / End first and last, PageUp / PageDown a screen-ful;
 *   Enter opens the item (on a group header: collapses or expands it, as Space does);
 *   x selects or unselects the item (the bulk bar acts on the selection), Escape clears it;
 *   s opens the status picker of the item.
 * Keys with Ctrl, Cmd or Alt are left to the browser and the app (undo, shortcuts).
 */

export type ListAction<I> =
  | { kind: 'move'; index: number }
  | { kind: 'open'; item: I }
  | { kind: 'toggle-select'; item: I }
  | { kind: 'toggle-group'; key: string }
  | { kind: 'pick-status'; item: I }
  | { kind: 'clear-selection' };

export interface ListKey {
  key: string;
  shift?: boolean;
  ctrl?: boolean;
  alt?: boolean;
}

export function listKeyAction<I>(press: ListKey, rows: RowSource<I>, active: number, pageRows: number): ListAction<I> | null {
  if (press.ctrl || press.alt) return null;
  const last = rows.length - 1;
  if (last < 0) return null;
  const at = Math.max(0, Math.min(active, last));
  const to = (index: number): ListAction<I> => ({ kind: 'move', index: Math.max(0, Math.min(index, last)) });
  switch (press.key) {
    case 'j':
    case 'ArrowDown':
      return to(at + 1);
    case 'k':
    case 'ArrowUp':
      return to(at - 1);
    case 'Home':
      return to(0);
    case 'End':
      return to(last);
    case 'PageDown':
      return to(at + Math.max(1, pageRows));
    case 'PageUp':
      return to(at - Math.max(1, pageRows));
    case 'Escape':
      return { kind: 'clear-selection' };
  }
  const row = rows.at(at);
  if (!row) return null;
  if (row.kind === 'group') return press.key === 'Enter' || press.key === ' ' ? { kind: 'toggle-group', key: row.group.key } : null;
  switch (press.key) {
    case 'Enter':
      return { kind: 'open', item: row.item };
    case 'x':
    case 'X':
      return { kind: 'toggle-select', item: row.item };
    case 's':
      return { kind: 'pick-status', item: row.item };
  }
  return null;
}
