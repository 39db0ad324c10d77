import { arrayMove } from '@dnd-kit/sortable';
import type { Group } from '../model/query';

/**
 * Pure steps of dragging kanban cards (dnd-kit's multi-list pattern): while a card is over
 * another column it is shown there (the preview), so that column's cards make room for it; on
 * drop the card's final index follows from the preview and the card it was dropped on.
 */

export interface CardPreview {
  itemId: string;
  /** The column the card is shown in while dragged. */
  key: string;
  /** Its index there. */
  index: number;
}

/** The groups as shown while dragging: the previewed card taken out of its column and put into the preview's. */
export function previewGroups<I extends { id: string }>(groups: readonly Group<I>[], preview: CardPreview | null): Group<I>[] {
  if (!preview) return groups as Group<I>[];
  const card = groups.flatMap((g) => g.items).find((i) => i.id === preview.itemId);
  if (!card) return groups as Group<I>[];
  return groups.map((g) => {
    const items = g.items.filter((i) => i.id !== preview.itemId);
    if (g.key === preview.key) items.splice(Math.max(0, Math.min(preview.index, items.length)), 0, card);
    return items.length === g.items.length && g.key !== preview.key ? g : { ...g, items };
  });
}

/**
 * Where a card dragged over column `overKey` is previewed: at the index of the card it is over
 * (after it when the dragged card's middle is below that card's middle), or at the end when it is
 * over the column itself.
 */
export function previewIndex<I extends { id: string }>(shown: readonly Group<I>[], overKey: string, overCardId: string | null, below: boolean): number {
  const items = shown.find((g) => g.key === overKey)?.items ?? [];
  if (overCardId === null) return items.length;
  const at = items.findIndex((i) => i.id === overCardId);
  return at < 0 ? items.length : at + (below ? 1 : 0);
}

/**
 * The card's index in column `key` once dropped, counted without the card (what positions are
 * planned against): the preview's order, with the card moved onto the card it was dropped on.
 */
export function dropIndex<I extends { id: string }>(shown: readonly Group<I>[], key: string, itemId: string, overCardId: string | null): number {
  const items = shown.find((g) => g.key === key)?.items ?? [];
  const from = items.findIndex((i) => i.id === itemId);
  if (from < 0) return items.length;
  const to = overCardId === null ? from : items.findIndex((i) => i.id === overCardId);
  return arrayMove([...items], from, to < 0 ? from : to).findIndex((i) => i.id === itemId);
}

/** The column order after dragging column `from` onto column `to` (as the sortable shows it). */
export function reorderedKeys(keys: readonly string[], from: string, to: string): string[] {
  const a = keys.indexOf(from);
  const b = keys.indexOf(to);
  if (a < 0 || b < 0) return [...keys];
  return arrayMove([...keys], a, b);
}
