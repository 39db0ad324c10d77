/**
 * What a view derives from each item (a calendar event, a gantt bar), kept per item and worked
 * out again only when that item's inputs changed (compared by identity: the value lists keep a
 * value's object while it is unchanged, store/record-lists.ts). A 10,000-item view then costs a
 * look-up per item on an edit or a new open, not a parse per item. Kept at module level by the
 * views, so a view opened again finds its answers. Pure.
 */
export class PerItemMemo<T> {
  private readonly entries = new Map<string, { a: unknown; b: unknown; out: T }>();

  constructor(private readonly limit = 50_000) {}

  get(id: string, a: unknown, b: unknown, compute: () => T): T {
    const hit = this.entries.get(id);
    if (hit && hit.a === a && hit.b === b) return hit.out;
    if (!hit && this.entries.size >= this.limit) this.entries.clear();
    const out = compute();
    this.entries.set(id, { a, b, out });
    return out;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** One memo per key (a view's attribute, kind and words): another key starts afresh. */
export function memoFor<T>(memos: Map<string, PerItemMemo<T>>, key: string, keep = 4): PerItemMemo<T> {
  let memo = memos.get(key);
  if (!memo) {
    memo = new PerItemMemo<T>();
    memos.set(key, memo);
    // The oldest keys go first.
    for (const old of [...memos.keys()].slice(0, Math.max(0, memos.size - keep))) memos.delete(old);
  }
  return memo;
}
