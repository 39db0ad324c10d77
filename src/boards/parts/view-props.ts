import type { Folder, Item } from '../store/live';
import type { ShownView } from './FolderPane';

/** What every view receives from the folder pane. */
export interface ViewProps {
  folder: Folder;
  view: ShownView;
  /** Filtered, searched and sorted items of the folder. */
  items: Item[];
  /**
   * Reads a value the pane holds for every item: what it sorts, filters, groups and searches by,
   * and what the view places items by (views/view-values.ts). Changes identity when one of them
   * changes. Other values: read them for the rows on screen (useWindowValues).
   */
  get: (itemId: string, attributeId: string) => unknown;
  /** False until those values are read (a view shows nothing rather than every item as empty). */
  valuesReady: boolean;
  /**
   * The attributes whose values `get` already reads while the others are still being read: a view
   * that draws part by part (the Chart's panels) shows those parts first. Every one once valuesReady.
   */
  loadedValues: ReadonlySet<string>;
  selected: Set<string>;
  setSelected(next: Set<string>): void;
  /** Creates an item (with initial values, e.g. its group's value, and its name); null when refused. */
  addItem(values?: Record<string, unknown>, groupKey?: string, name?: string): Promise<string | null>;
  canCreate: boolean;
}
