import { isEmptyValue, settingsOf, type DateRange, type LinkValue } from '../../../schema/attributes';
import { builtinAttribute, compareValues, optionIndex, searchableText, valueFor, type AttributeRef, type ItemLike as FilterItem, type ValueGetter } from '../../../schema/filters';
import type { SortRule } from '../../../schema/views';
import { byPosition, type Positioned } from './positions';

/**
 * Sort, filter and group items by attribute values: pure, over plain records, so the Table and
 * Column views, tests and benchmarks share one implementation. Values are looked up through a
 * function (the screens keep a Map keyed by value id).
 */

export type { AttributeRef, ValueGetter } from '../../../schema/filters';
export { builtinAttribute, compareValues, filterItems, matchesFilter, searchableText, valueFor } from '../../../schema/filters';

/** An item as the views sort and group it: the filter evaluator's item with a position. */
export interface ItemLike extends Positioned, FilterItem {}

/** A sort rule with its attribute found. */
export interface ActiveRule {
  attribute: AttributeRef;
  direction: 'asc' | 'desc';
}

/** An item with its sort rules' values, looked up once (never inside a comparator). */
export interface KeyedItem<I> {
  item: I;
  key: unknown[];
}

/** The rules in order, then position (unique: position, creation, id): one order for every client. */
export function compareKeyed<I extends ItemLike>(rules: readonly ActiveRule[], x: KeyedItem<I>, y: KeyedItem<I>): number {
  for (let i = 0; i < rules.length; i++) {
    const c = compareValues(rules[i]!.attribute, x.key[i], y.key[i], rules[i]!.direction);
    if (c !== 0) return c;
  }
  return byPosition(x.item, y.item);
}

/** Sorts by the rules in order, then by position: stable and the same on every client. */
export function sortItems<I extends ItemLike>(items: readonly I[], rules: readonly SortRule[], attributes: ReadonlyMap<string, AttributeRef>, get: ValueGetter): I[] {
  const active = rules
    .map((r) => ({ attribute: attributes.get(r.attribute_id) ?? builtinAttribute(r.attribute_id), direction: r.direction }))
    .filter((r): r is ActiveRule => !!r.attribute);
  if (active.length === 0) return [...items].sort(byPosition);
  // Decorate once: looking values up inside the comparator would cost n·log n lookups per rule.
  const keyed = items.map((item): KeyedItem<I> => ({ item, key: active.map((r) => valueFor(item, r.attribute, get)) }));
  keyed.sort((x, y) => compareKeyed(active, x, y));
  return keyed.map((k) => k.item);
}

/** A quick search over the name and every shown attribute (the search box above a view). */
export function searchItems<I extends ItemLike>(items: readonly I[], text: string, attributes: readonly AttributeRef[], get: ValueGetter): I[] {
  const needle = text.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter(
    (item) => item.name.toLocaleLowerCase().includes(needle) || attributes.some((a) => searchableText(a, valueFor(item, a, get)).toLocaleLowerCase().includes(needle)),
  );
}

// ── groups ────────────────────────────────────────────────────────────────────────────────────
/** The key of the group holding items with an empty value. */
export const EMPTY_GROUP = '__empty';

export interface Group<I> {
  key: string;
  /** The option (status/label) the group stands for, when it has one. */
  option?: { id: string; name: string; color: string; textColor: string };
  /** What to show as the group's title when there is no option (a date, a number, "Yes"). */
  title: string;
  items: I[];
}

/** The group key of one value: one group per option, date, number… and one for "empty". */
export function groupKeyOf(attribute: AttributeRef, value: unknown): string {
  if (attribute.kind === 'checkbox') return value === true ? 'true' : 'false';
  if (isEmptyValue(value)) return EMPTY_GROUP;
  if (Array.isArray(value) && attribute.kind === 'label') return [...value].sort((a, b) => optionIndex(attribute, a) - optionIndex(attribute, b)).join(',');
  if (Array.isArray(value)) return [...value].map(String).sort().join(',');
  if (attribute.kind === 'date-range') return (value as DateRange).start;
  if (attribute.kind === 'link') return (value as LinkValue).url;
  if (typeof value === 'object') return JSON.stringify(value);
  if (attribute.kind === 'date' && typeof value === 'string') return value.slice(0, 10);
  return String(value);
}

/**
 * Groups items by an attribute. Option attributes (status, label) get a group per option in the
 * attribute's order, even when empty, unless `hideEmptyGroups`; other kinds get a group per
 * distinct value present, in value order. The empty group comes last. `groupOrder` (a Column
 * view's arrangement) puts the keys it names first, in its order.
 */
export function groupItems<I extends ItemLike>(
  items: readonly I[],
  attribute: AttributeRef,
  get: ValueGetter,
  options: { hideEmptyGroups?: boolean; groupOrder?: readonly string[] } = {},
): Group<I>[] {
  const groups = new Map<string, Group<I>>();
  const isOptionKind = attribute.kind === 'status' || attribute.kind === 'label';
  if (isOptionKind) {
    const opts = settingsOf(attribute.kind === 'status' ? 'status' : 'label', attribute.settings).options;
    for (const o of opts) groups.set(o.id, { key: o.id, option: { id: o.id, name: o.name, color: o.color, textColor: o.textColor }, title: o.name, items: [] });
  } else if (attribute.kind === 'checkbox') {
    groups.set('true', { key: 'true', title: 'Checked', items: [] });
    groups.set('false', { key: 'false', title: 'Unchecked', items: [] });
  }
  const empty: Group<I> = { key: EMPTY_GROUP, title: '', items: [] };
  const samples = new Map<string, unknown>();
  for (const item of items) {
    const value = valueFor(item, attribute, get);
    const key = groupKeyOf(attribute, value);
    if (key === EMPTY_GROUP) {
      empty.items.push(item);
      continue;
    }
    let group = groups.get(key);
    if (!group) {
      group = { key, title: isOptionKind ? optionTitles(attribute, key) : key, items: [] };
      groups.set(key, group);
      samples.set(key, value);
    }
    group.items.push(item);
  }
  let list = [...groups.values()];
  if (!isOptionKind && attribute.kind !== 'checkbox') {
    list.sort((a, b) => compareValues(attribute, samples.get(a.key), samples.get(b.key)));
  }
  list.push(empty);
  const order = options.groupOrder ?? [];
  if (order.length) {
    const rank = (key: string) => {
      const i = order.indexOf(key);
      return i < 0 ? order.length : i;
    };
    list = list.map((g, i) => ({ g, i })).sort((a, b) => rank(a.g.key) - rank(b.g.key) || a.i - b.i).map((x) => x.g);
  }
  if (options.hideEmptyGroups) list = list.filter((g) => g.items.length > 0);
  return list;
}

function optionTitles(attribute: AttributeRef, key: string): string {
  const options = settingsOf(attribute.kind === 'status' ? 'status' : 'label', attribute.settings).options;
  return key
    .split(',')
    .map((id) => options.find((o) => o.id === id)?.name ?? '?')
    .join(', ');
}
