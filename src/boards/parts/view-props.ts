import type { Folder, Item } from '../store/live';
import type { ShownView } from './FolderPane';

/** What the Table and Column views receive from the folder pane. */
export interface ViewProps {
  folder: Folder;
  view: ShownView;
  /** Filtered, searched and sorted items of the folder. */
  items: Item[];
  get: (itemId: string, attributeId: string) => unknown;
  selected: Set<string>;
  setSelected(next: Set<string>): void;
  /** Creates an item (with initial values, e.g. its group's value, and its name); null when refused. */
  addItem(values?: Record<string, unknown>, groupKey?: string, name?: string): Promise<string | null>;
  canCreate: boolean;
}
