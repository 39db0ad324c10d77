/**
 * Ordering by fractional positions: every folder, item, attribute and view carries a numeric
 * `position`; a move writes one new position between its neighbours, so concurrent moves of
 * different records never touch each other. When two neighbours get too close (after ~50 moves into
 * the same gap) the list is renumbered, which writes every record of that list once.
 */

export interface Positioned {
  id: string;
  position?: number | null;
  created_at?: string | null;
}

/** Neighbours closer than this are renumbered instead of split further. */
export const MIN_GAP = 1e-9;
export const STEP = 1;

/** Position order, then creation time, then id: the same order on every client. */
export function byPosition(a: Positioned, b: Positioned): number {
  const pa = a.position ?? 0;
  const pb = b.position ?? 0;
  if (pa !== pb) return pa - pb;
  const ca = a.created_at ?? '';
  const cb = b.created_at ?? '';
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function sortByPosition<T extends Positioned>(list: readonly T[]): T[] {
  return [...list].sort(byPosition);
}

/** A position between two neighbours (null = no neighbour on that side); null when there is no room. */
export function positionBetween(before: number | null, after: number | null): number | null {
  if (before === null && after === null) return STEP;
  if (before === null) return (after as number) - STEP;
  if (after === null) return before + STEP;
  if (after - before <= MIN_GAP * 2) return null;
  return before + (after - before) / 2;
}

/** The position after the last record of a list (for "add at the end"). */
export function positionAtEnd(list: readonly Positioned[]): number {
  let max: number | null = null;
  for (const r of list) if (max === null || (r.position ?? 0) > max) max = r.position ?? 0;
  return positionBetween(max, null)!;
}

export function positionAtStart(list: readonly Positioned[]): number {
  let min: number | null = null;
  for (const r of list) if (min === null || (r.position ?? 0) < min) min = r.position ?? 0;
  return positionBetween(null, min)!;
}

export interface PositionUpdate {
  id: string;
  position: number;
}

/**
 * Moves `ids` (in the given order) so they sit together before the record now at `targetIndex`
 * of `list` (list.length = at the end). Returns only the records whose position must change:
 * usually just the moved ones; every record when the gap is used up.
 */
export function planMove<T extends Positioned>(list: readonly T[], ids: readonly string[], targetIndex: number): PositionUpdate[] {
  const moving = new Set(ids);
  const ordered = sortByPosition(list);
  // Neighbours are counted in the list as the user sees it, without the moved records.
  const seenBefore = ordered.slice(0, Math.max(0, Math.min(targetIndex, ordered.length)));
  const rest = ordered.filter((r) => !moving.has(r.id));
  const insertAt = seenBefore.filter((r) => !moving.has(r.id)).length;
  const before = insertAt > 0 ? (rest[insertAt - 1]!.position ?? 0) : null;
  const after = insertAt < rest.length ? (rest[insertAt]!.position ?? 0) : null;
  const count = ids.length;
  if (count === 0) return [];

  const slots = spread(before, after, count);
  if (slots) return ids.map((id, i) => ({ id, position: slots[i]! }));

  // No room: renumber the whole list with the moved records in place.
  const final = [...rest.slice(0, insertAt).map((r) => r.id), ...ids, ...rest.slice(insertAt).map((r) => r.id)];
  const current = new Map(ordered.map((r) => [r.id, r.position ?? 0]));
  return final
    .map((id, i) => ({ id, position: (i + 1) * STEP }))
    .filter((u) => moving.has(u.id) || current.get(u.id) !== u.position);
}

/** `count` evenly spaced positions strictly between two neighbours; null when they would collide. */
function spread(before: number | null, after: number | null, count: number): number[] | null {
  if (before === null && after === null) return Array.from({ length: count }, (_, i) => (i + 1) * STEP);
  if (before === null) return Array.from({ length: count }, (_, i) => (after as number) - (count - i) * STEP);
  if (after === null) return Array.from({ length: count }, (_, i) => before + (i + 1) * STEP);
  const gap = (after - before) / (count + 1);
  if (gap <= MIN_GAP) return null;
  return Array.from({ length: count }, (_, i) => before + gap * (i + 1));
}
