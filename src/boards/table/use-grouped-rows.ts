import { useMemo, useState } from 'react';
import type { Attribute, Item } from '../store/live';
import { groupItems, type Group } from '../model/query';
import type { RowSource, TableRow } from './table-rows';

export interface GroupedRows {
  /** The rows in screen order: a header per group, then its items unless the group is collapsed. */
  rows: TableRow<Item>[];
  groups: Group<Item>[];
  isCollapsed(key: string): boolean;
  toggleGroup(key: string): void;
}

/** Grouping of the table: the items as they are, or under a header row per group with collapsing. */
export function useGroupedRows(items: Item[], groupAttribute: Attribute | undefined, get: (itemId: string, attributeId: string) => unknown, options: { hideEmptyGroups: boolean; groupOrder: string[] }): GroupedRows {
  return useRows(items, groupAttribute, get, options, false) as GroupedRows;
}

/**
 * The same rows as a row source: ungrouped, a view over the items that makes a row only when
 * asked for it (the table asks for the visible ones), so a 100,000-item list is not copied into
 * row objects on every change of it (decision 0315). The Table view reads its rows this way.
 */
export function useGroupedRowSource(items: Item[], groupAttribute: Attribute | undefined, get: (itemId: string, attributeId: string) => unknown, options: { hideEmptyGroups: boolean; groupOrder: string[] }): Omit<GroupedRows, 'rows'> & { rows: RowSource<Item> } {
  return useRows(items, groupAttribute, get, options, true);
}

/** The rows of an ungrouped table: one per item, made when asked for. */
export function itemRows<I>(items: readonly I[]): RowSource<I> {
  return {
    length: items.length,
    at: (index) => {
      const item = index >= 0 ? items[index] : undefined;
      return item === undefined ? undefined : { kind: 'item', item };
    },
  };
}

function useRows(items: Item[], groupAttribute: Attribute | undefined, get: (itemId: string, attributeId: string) => unknown, options: { hideEmptyGroups: boolean; groupOrder: string[] }, lazy: boolean): Omit<GroupedRows, 'rows'> & { rows: RowSource<Item> } {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const { hideEmptyGroups, groupOrder } = options;
  // Ungrouped rows do not read values: a value edit (a new `get`) does not rebuild them.
  const groupGet = groupAttribute ? get : undefined;
  const { rows, groups } = useMemo(() => {
    if (!groupAttribute) return { rows: lazy ? itemRows(items) : (items.map((item) => ({ kind: 'item' as const, item })) as TableRow<Item>[]), groups: [] as Group<Item>[] };
    const out: TableRow<Item>[] = [];
    const list = groupItems(items, groupAttribute, groupGet!, { hideEmptyGroups, groupOrder });
    for (const group of list) {
      out.push({ kind: 'group', group });
      if (!collapsed.has(group.key)) for (const item of group.items) out.push({ kind: 'item', item });
    }
    return { rows: out as RowSource<Item>, groups: list };
  }, [items, groupAttribute, groupGet, hideEmptyGroups, groupOrder, collapsed, lazy]);
  return {
    rows,
    groups,
    isCollapsed: (key) => collapsed.has(key),
    toggleGroup: (key) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
  };
}
