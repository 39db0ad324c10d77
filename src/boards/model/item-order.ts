import type { FilterRule, SortRule } from '../../../schema/views';
import { builtinAttribute, matchesFilter, valueFor, type AttributeRef, type ValueGetter } from '../../../schema/filters';
import { compareKeyed, type ActiveRule, type ItemLike, type KeyedItem } from './query';

/**
 * The filtered and sorted items of a view, kept in order incrementally (decision 0315). The first
 * call filters and sorts every item once; after that a call finds what changed and moves only
 * those items: a rename, a move or a value edit of a 100,000-item board costs a lookup per item
 * (to find the changed ones) and a binary search per changed item, instead of a filter and an
 * n·log n sort of the whole board on every change. The result is the same as
 * `sortItems(filterItems(items))` (model/query.ts) — the unit tests compare the two.
 *
 * What changed is found two ways. Items by identity: the board's item list keeps the object of
 * an item that did not change and its place in the list (record-lists.ts), so one pass beside the
 * last list finds them (a lookup by id when the lists do not line up). Values by the reader: the
 * value lists keep their reader while none of their values changed, and name the values each
 * change touched (`valueChangesBetween`, store/live.ts), so only those items are read again; a
 * reader that cannot tell makes every item's sort and filter values be read and compared (n
 * lookups, still no sort).
 */

/** How a view orders items: which belong (folder, not deleted, filters) and by which rules. */
export interface OrderSpec<I> {
  /** Same text, same rules: an order is rebuilt when this changes (the rules, the folders…). */
  id: string;
  /** Whether an item belongs to the view regardless of its values (its folder, not deleted). */
  inScope(item: I): boolean;
  filters: readonly FilterRule[];
  match: 'all' | 'any';
  sort: readonly SortRule[];
  attributes: ReadonlyMap<string, AttributeRef>;
}

/** An item in the view with its sort rules' values when it was placed. */
type Entry<I> = KeyedItem<I>;
type Rule = ActiveRule;

/** Above this share of changed items a change sorts everything again (cheaper than many moves). */
const REBUILD_SHARE = 8;
const NONE: unknown[] = [];
/** Up to this many changed items move one by one (binary search); more are merged in one pass. */
const FEW = 32;

function merge<E>(a: E[], b: E[], compare: (x: E, y: E) => number): E[] {
  if (b.length === 0) return a === b ? a : a.slice();
  const out: E[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

export class ItemOrder<I extends ItemLike> {
  private spec: OrderSpec<I> | null = null;
  private rules: Rule[] = [];
  private filters: { rule: FilterRule; attribute: AttributeRef }[] = [];
  /** The items given last, by id (to find the changed ones by identity). */
  private given = new Map<string, I>();
  private source: readonly I[] | null = null;
  private get: ValueGetter | null = null;
  /** The items in the view, in order, and their entries (parallel arrays). */
  private entries: Entry<I>[] = [];
  private byId = new Map<string, Entry<I>>();
  private list: I[] = [];
  /** Full sorts so far (tests check that an edit does not cause one). */
  rebuilds = 0;

  /**
   * The ordered items of the view: the same array while nothing in it changed. `valueChanges`,
   * when it can tell, names the items whose values may differ between the last reader and this
   * one (else every item's sort and filter values are read again and compared).
   */
  update(items: readonly I[], spec: OrderSpec<I>, get: ValueGetter, valueChanges?: (before: ValueGetter, after: ValueGetter) => Iterable<string> | null): I[] {
    if (!this.spec || spec.id !== this.spec.id) return this.rebuild(items, spec, get);
    this.spec = spec;
    const itemsChanged = items !== this.source;
    const valuesChanged = get !== this.get && (this.rules.length > 0 || this.filters.length > 0);
    if (!itemsChanged && !valuesChanged) {
      this.get = get;
      return this.list;
    }
    const changed = new Map<string, I | null>();
    if (itemsChanged) {
      if (!this.diffInPlace(items, changed)) {
        changed.clear();
        let found = 0;
        for (const item of items) {
          const before = this.given.get(item.id);
          if (before !== undefined) found++;
          if (before !== item) changed.set(item.id, item);
        }
        if (found < this.given.size) {
          const now = new Set<string>();
          for (const item of items) now.add(item.id);
          for (const id of this.given.keys()) if (!now.has(id)) changed.set(id, null);
        }
      }
      if (changed.size * REBUILD_SHARE > Math.max(items.length, 64)) return this.rebuild(items, spec, get);
    }
    if (valuesChanged) {
      // Which items' sort or filter values differ from when they were placed: the ones the
      // value lists name when they can tell, else every item's.
      const named = valueChanges && this.get ? valueChanges(this.get, get) : null;
      let check: Iterable<I> = items;
      if (named) {
        const some: I[] = [];
        for (const id of new Set(named)) {
          const item = this.given.get(id) ?? (changed.get(id) || undefined);
          if (item) some.push(item);
        }
        check = some;
      }
      for (const item of check) {
        if (changed.has(item.id) || !spec.inScope(item)) continue;
        const entry = this.byId.get(item.id);
        if (!entry) {
          // Out of the view by a filter: in again if its filter values changed.
          if (this.filters.length && this.passes(item, get)) changed.set(item.id, item);
          continue;
        }
        // In the view: moved when its sort values changed, out when it no longer passes.
        if (!sameValues(entry.key, this.keyOf(item, get)) || !this.passes(item, get)) changed.set(item.id, item);
      }
      if (changed.size * REBUILD_SHARE > Math.max(items.length, 64)) return this.rebuild(items, spec, get);
    }
    this.source = items;
    this.get = get;
    if (changed.size === 0) return this.list;
    const placed: Entry<I>[] = [];
    const moved = new Set<Entry<I>>();
    for (const [id, item] of changed) {
      const before = this.byId.get(id);
      if (before) {
        moved.add(before);
        this.byId.delete(id);
      }
      if (item === null) this.given.delete(id);
      else {
        this.given.set(id, item);
        if (spec.inScope(item) && this.passes(item, get)) placed.push(this.entryOf(item, get));
      }
    }
    if (changed.size <= FEW) {
      // A few: each out and in again by binary search.
      for (const entry of moved) this.remove(entry);
      for (const entry of placed) this.insert(entry);
    } else {
      // A batch (a page of a streaming open): one pass out, the batch sorted, one merge in.
      const rest = moved.size ? this.entries.filter((e) => !moved.has(e)) : this.entries;
      placed.sort(this.compare);
      this.entries = merge(rest, placed, this.compare);
      for (const entry of placed) this.byId.set(entry.item.id, entry);
    }
    this.list = this.entries.map((e) => e.item);
    return this.list;
  }

  /**
   * The changed items found by walking the new list beside the last one: a list updated in place
   * keeps its order (a changed record where it was, new ones at the end), so this is one pass of
   * identity checks. False when the lists do not line up (then a lookup by id finds them).
   */
  private diffInPlace(items: readonly I[], changed: Map<string, I | null>): boolean {
    const before = this.source;
    if (!before || items.length < before.length) return false;
    for (let i = 0; i < before.length; i++) {
      const a = before[i]!;
      const b = items[i]!;
      if (a === b) continue;
      if (a.id !== b.id) return false;
      changed.set(b.id, b);
    }
    for (let i = before.length; i < items.length; i++) {
      const item = items[i]!;
      if (this.given.has(item.id) && !changed.has(item.id)) return false; // moved within the list
      changed.set(item.id, item);
    }
    return true;
  }

  private rebuild(items: readonly I[], spec: OrderSpec<I>, get: ValueGetter): I[] {
    this.rebuilds++;
    this.spec = spec;
    this.rules = spec.sort
      .map((r) => ({ attribute: spec.attributes.get(r.attribute_id) ?? builtinAttribute(r.attribute_id), direction: r.direction }))
      .filter((r): r is Rule => !!r.attribute);
    this.filters = spec.filters
      .map((rule) => ({ rule, attribute: spec.attributes.get(rule.attribute_id) ?? builtinAttribute(rule.attribute_id) }))
      .filter((r): r is { rule: FilterRule; attribute: AttributeRef } => !!r.attribute);
    this.source = items;
    this.get = get;
    this.given = new Map();
    const entries: Entry<I>[] = [];
    for (const item of items) {
      this.given.set(item.id, item);
      if (spec.inScope(item) && this.passes(item, get)) entries.push(this.entryOf(item, get));
    }
    entries.sort(this.compare);
    this.entries = entries;
    this.byId = new Map(entries.map((e) => [e.item.id, e]));
    this.list = entries.map((e) => e.item);
    return this.list;
  }

  private passes(item: I, get: ValueGetter): boolean {
    if (this.filters.length === 0) return true;
    const { match } = this.spec!;
    return match === 'all' ? this.filters.every((f) => matchesFilter(item, f.rule, f.attribute, get)) : this.filters.some((f) => matchesFilter(item, f.rule, f.attribute, get));
  }

  // No rules: one shared empty array, not one per item (100,000 entries hold only their item).
  private keyOf(item: I, get: ValueGetter): unknown[] {
    return this.rules.length ? this.rules.map((r) => valueFor(item, r.attribute, get)) : NONE;
  }


  private entryOf(item: I, get: ValueGetter): Entry<I> {
    return { item, key: this.keyOf(item, get) };
  }

  /** The rules in order, then position, exactly as sortItems orders (model/query.ts). */
  private compare = (x: Entry<I>, y: Entry<I>): number => compareKeyed(this.rules, x, y);

  /** Index of the first entry not before `entry`. */
  private lowerBound(entry: Entry<I>): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.entries[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(entry: Entry<I>): void {
    this.entries.splice(this.lowerBound(entry), 0, entry);
    this.byId.set(entry.item.id, entry);
  }

  private remove(entry: Entry<I>): void {
    let at = this.lowerBound(entry);
    if (this.entries[at] !== entry) at = this.entries.indexOf(entry); // equal keys: never with a unique id
    if (at >= 0) this.entries.splice(at, 1);
  }
}

function sameValues(a: unknown[], b: unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/**
 * The orders of the views opened last, kept between mounts: a view opened again over the same
 * item list shows its rows without filtering or sorting anything (the warm open of a big board).
 */
const kept = new Map<string, ItemOrder<ItemLike>>();
const KEEP = 6;

export function itemOrderFor<I extends ItemLike>(key: string): ItemOrder<I> {
  let order = kept.get(key);
  if (order) kept.delete(key);
  else order = new ItemOrder<ItemLike>();
  kept.set(key, order);
  for (const k of kept.keys()) {
    if (kept.size <= KEEP) break;
    kept.delete(k);
  }
  return order as unknown as ItemOrder<I>;
}
