import { moveIntoGroupProblem } from '../model/groups';
import { positionBetween } from '../model/positions';
import type { AttributeRef, Group } from '../model/query';

/**
 * Pure helpers of the Table view's rows: which items' values to read for the visible window, and
 * where a row dragged in a grouped table lands (the Column view's group rules, workspace.md §5).
 */

export type TableRow<I> = { kind: 'group'; group: Group<I> } | { kind: 'item'; item: I; group?: undefined };

/**
 * What the table reads its rows through: a count and random access. A plain array is one; a
 * window over a list held elsewhere (the worker, for very large boards) can be another without
 * the table changing.
 */
export interface RowSource<I> {
  readonly length: number;
  at(index: number): TableRow<I> | undefined;
}

/** Rows per block of the value read: the query changes when scrolling crosses a block, not every frame. */
export const VALUE_BLOCK = 64;
export const ROW_HEIGHT = 36;

/** The item ids of the blocks covering rows first..last, plus the block after (read ahead of scrolling). */
export function windowBlockIds<I extends { id: string }>(rows: RowSource<I>, first: number, last: number): string[] {
  if (last < first || rows.length === 0) return [];
  const from = Math.floor(first / VALUE_BLOCK) * VALUE_BLOCK;
  const to = Math.min(rows.length, (Math.floor(last / VALUE_BLOCK) + 2) * VALUE_BLOCK);
  const ids: string[] = [];
  for (let i = from; i < to; i++) {
    const row = rows.at(i);
    if (row?.kind === 'item') ids.push(row.item.id);
  }
  return ids;
}

export interface RowDropTarget {
  /** The group the row goes to. */
  key: string;
  /** Index in that group's items (counting the dragged row where it is now). */
  index: number;
  /** Where the drop marker goes, in pixels from the top of the rows. */
  y: number;
}

/** The drop target at `y` pixels from the top of the rows (below the header), or null outside any group. */
export function rowDropTarget<I>(rows: RowSource<I>, groups: readonly Group<I>[], y: number, rowHeight = ROW_HEIGHT): RowDropTarget | null {
  if (rows.length === 0 || groups.length === 0) return null;
  const at = Math.max(0, Math.min(rows.length - 1, Math.floor(y / rowHeight)));
  const row = rows.at(at)!;
  if (row.kind === 'group') return { key: row.group.key, index: 0, y: (at + 1) * rowHeight };
  let header = at;
  while (header >= 0 && rows.at(header)?.kind !== 'group') header--;
  const group = header >= 0 ? rows.at(header)?.group : undefined; // at(-1) would be the last row
  if (!group) return null;
  const within = at - header - 1;
  const lowerHalf = y - at * rowHeight >= rowHeight / 2;
  return { key: group.key, index: lowerHalf ? within + 1 : within, y: (lowerHalf ? at + 1 : at) * rowHeight };
}

export const UNAUTHORIZED = 'unauthorized';

/** Why this drop is refused (the rule's message, or UNAUTHORIZED), or null. */
export function dropProblem(attribute: AttributeRef, key: string, fromKey: string | undefined, canEdit: boolean): string | null {
  if (!canEdit) return UNAUTHORIZED;
  return key === fromKey ? null : moveIntoGroupProblem(attribute, key);
}

/**
 * The position for a row dropped at `index` of group `key` (the index counts the dragged row
 * where it is now); null when it would not move, or when there is no room between its neighbours.
 */
export function positionInGroup<I extends { id: string; position?: number | null }>(groups: readonly Group<I>[], key: string, itemId: string, index: number): number | null {
  const list = groups.find((g) => g.key === key)?.items ?? [];
  if (list[index - 1]?.id === itemId || list[index]?.id === itemId) return null;
  const before = list[index - 1]?.position ?? null;
  const after = list[index]?.position ?? null;
  return positionBetween(before, after);
}
