import type { Item } from '../store/live';

/** Selection of rows (the selection column, Space): the set lives in the folder pane, for the bulk bar. */
export function useSelection(items: Item[], selected: Set<string>, setSelected: (next: Set<string>) => void) {
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  return {
    allSelected,
    toggle(id: string) {
      const next = new Set(selected);
      if (!next.delete(id)) next.add(id);
      setSelected(next);
    },
    toggleAll: () => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id))),
    clear: () => setSelected(new Set()),
  };
}
