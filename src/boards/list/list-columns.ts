import type { ColumnAttribute } from '../model/columns';

/**
 * Which attributes a List row shows: the status it changes inline, and a few compact properties
 * at the end of the row (the view's shown columns, in its column order). Pure.
 */

/** Kinds that fit a one-line row; long texts, files and links would crowd it. */
const COMPACT_KINDS = new Set(['status', 'label', 'members', 'date', 'date-range', 'number', 'checkbox', 'custom-id']);
export const MAX_LIST_PROPERTIES = 4;

/** The status the row changes inline: the grouping attribute when it is a status, else the board's first status. */
export function listStatusAttribute<A extends ColumnAttribute>(attributes: readonly A[], groupBy: string | null): A | undefined {
  const live = attributes.filter((a) => !(a as { deleted_at?: string | null }).deleted_at);
  const grouped = groupBy ? live.find((a) => a.id === groupBy && a.kind === 'status') : undefined;
  return grouped ?? live.find((a) => a.kind === 'status');
}

/** The properties shown after the name: the view's columns in order, compact kinds only, not the status. */
export function listProperties<A extends ColumnAttribute>(columns: readonly A[], status: A | undefined): A[] {
  return columns.filter((a) => a.kind !== 'primary' && a.id !== status?.id && COMPACT_KINDS.has(a.kind)).slice(0, MAX_LIST_PROPERTIES);
}
