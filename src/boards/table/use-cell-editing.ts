import { useMemo, useState } from 'react';
import { checkValue } from '../../../schema/attributes';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Attribute, Item } from '../store/live';
import { ValueError } from '../store/actions';
import type { Cell } from '../model/grid-keys';
import { READ_ONLY_KINDS, type CommitHow } from '../parts/values';

/** The edited cell, and what the user typed to start editing it (type-to-edit). */
export interface EditingCell extends Cell {
  initialText?: string;
}

/**
 * Inline editing of cells: which cell is being edited, who may edit which item, and committing a
 * value (checked first: invalid input stays in the editor with its message). `onClosed` hears how
 * the editor closed, so the table can move down after Enter as a spreadsheet does.
 */
export function useCellEditing(onClosed: (cell: Cell | null, how: CommitHow | 'cancel') => void) {
  const board = useBoard();
  const [editing, setEditing] = useState<EditingCell | null>(null);
  // The permission chain is merged on every call; rows ask on every render (each scrolled frame),
  // so answers are kept per folder and creator until the board state changes.
  const editRights = useMemo(() => new Map<string, boolean>(), [board]);
  const canEditItem = (item: Item) => {
    const key = `${item.folder_id}\u0000${item.created_by ?? ''}`;
    let allowed = editRights.get(key);
    if (allowed === undefined) editRights.set(key, (allowed = board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null)));
    return allowed;
  };
  const canEditCell = (item: Item, attribute: Attribute | undefined) => !!attribute && !READ_ONLY_KINDS.has(attribute.kind) && canEditItem(item);

  const commit = async (item: Item, attribute: Attribute, value: unknown, how?: CommitHow) => {
    // Valid input closes the editor at once: setValue shows the new value before its first await
    // (store/pending.ts), so the cell shows it in the same frame instead of after the round trip.
    // A pick in a multi-value picker ('stay') saves the same way and leaves the picker open.
    const checked = checkValue(attribute, value);
    if (!checked.ok) throw new ValueError(checked.message);
    const saving = board.actions.setValue(item, attribute, value);
    if (how !== 'stay') {
      setEditing(null);
      onClosed(editing, how);
    }
    try {
      await saving;
    } catch (err) {
      toast.show((err as Error).message, { kind: 'error' });
    }
  };

  return {
    editing,
    startEditing: (cell: Cell, initialText?: string) => setEditing({ ...cell, initialText }),
    cancel() {
      setEditing(null);
      onClosed(editing, 'cancel');
    },
    canEditItem,
    canEditCell,
    commit,
    /** Clears a cell (Delete / Backspace) where that is allowed. */
    async clear(item: Item, attribute: Attribute) {
      if (attribute.kind === 'primary' || !canEditCell(item, attribute)) return;
      await board.actions.setValue(item, attribute, null).catch(() => undefined);
    },
  };
}
