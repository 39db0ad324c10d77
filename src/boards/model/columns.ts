import type { ViewSettings } from '../../../schema/views';
import { DEFAULT_COLUMN_WIDTH, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from '../../../schema/views';
import { byPosition, type Positioned } from './positions';

/**
 * The columns a Table view shows: the primary attribute first (it cannot be hidden or moved), then
 * the others in the view's own order (column_order), falling back to the attributes' positions for
 * those it does not name. Attributes hidden on the board or in the view are left out.
 */
export interface ColumnAttribute extends Positioned {
  id: string;
  kind: string;
  hidden?: boolean | null;
}

export function orderedColumns<A extends ColumnAttribute>(attributes: readonly A[], settings: Pick<ViewSettings, 'column_order' | 'hidden_columns'>, opts: { includeHidden?: boolean } = {}): A[] {
  const primary = attributes.filter((a) => a.kind === 'primary').sort(byPosition).slice(0, 1);
  const rest = attributes.filter((a) => a.kind !== 'primary');
  const rank = new Map(settings.column_order.map((id, i) => [id, i]));
  const sorted = [...rest].sort((a, b) => {
    const ra = rank.get(a.id);
    const rb = rank.get(b.id);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    if (ra !== undefined) return -1;
    if (rb !== undefined) return 1;
    return byPosition(a, b);
  });
  const hidden = new Set(settings.hidden_columns);
  const shown = opts.includeHidden ? sorted : sorted.filter((a) => !a.hidden && !hidden.has(a.id));
  return [...primary, ...shown];
}

/** The view's column order after moving `id` to `index` among the non-primary columns. */
export function moveColumn(current: readonly string[], id: string, index: number): string[] {
  const without = current.filter((c) => c !== id);
  const at = Math.max(0, Math.min(index, without.length));
  return [...without.slice(0, at), id, ...without.slice(at)];
}

export function columnWidth(settings: Pick<ViewSettings, 'column_widths'>, id: string): number {
  return settings.column_widths[id] ?? DEFAULT_COLUMN_WIDTH;
}

export function clampWidth(width: number): number {
  return Math.round(Math.max(MIN_COLUMN_WIDTH, Math.min(MAX_COLUMN_WIDTH, width)));
}
