import { NEW_ITEM_EVENT } from '../keys/new-item-event';
import { QuickAdd } from '../parts/QuickAdd';

/**
 * The inline "new item" row under the table (issue #17 part 2): type the name, Enter adds the item
 * and leaves the row ready for the next one; Escape leaves it. The toolbar's New item, the `c` key
 * and the command palette focus it (NEW_ITEM_EVENT). The field itself is the shared QuickAdd.
 */
export function NewItemRow({ onAdd }: { onAdd(name: string): Promise<unknown> }) {
  return <QuickAdd onAdd={onAdd} className="table-new-item" focusEvent={NEW_ITEM_EVENT} />;
}
