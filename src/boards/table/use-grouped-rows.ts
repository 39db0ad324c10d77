import { useMemo, useState } from 'react';
import type { Attribute, Item } from '../store/live';
import { groupItems, type Group } from '../model/query';
import type { TableRow } from './table-rows';

export interface GroupedRows {
  /** The rows in screen order: a header per group, then its items unless the group is collapsed. */
  rows: TableRow<Item>[];
  groups: Group<Item>[];
  isCollapsed(key: string): boolean;
  toggleGroup(key: string): void;
}

/** Grouping of the table: the items as they are, or under a header row per group with collapsing. */
export function useGroupedRows(items: Item[], groupAttribute: Attribute | undefined, get: (itemId: string, attributeId: string) => unknown, options: { hideEmptyGroups: boolean; groupOrder: string[] }): GroupedRows {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const { hideEmptyGroups, groupOrder } = options;
  // Ungrouped rows do not read values: a value edit (a new `get`) does not rebuild them.
  const groupGet = groupAttribute ? get : undefined;
  const { rows, groups } = useMemo(() => {
    if (!groupAttribute) return { rows: items.map((item) => ({ kind: 'item' as const, item })) as TableRow<Item>[], groups: [] as Group<Item>[] };
    const out: TableRow<Item>[] = [];
    const list = groupItems(items, groupAttribute, groupGet!, { hideEmptyGroups, groupOrder });
    for (const group of list) {
      out.push({ kind: 'group', group });
      if (!collapsed.has(group.key)) for (const item of group.items) out.push({ kind: 'item', item });
    }
    return { rows: out, groups: list };
  }, [items, groupAttribute, groupGet, hideEmptyGroups, groupOrder, collapsed]);
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
