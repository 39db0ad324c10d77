import { isEmptyValue, settingsOf, type AttributeKind, type DateRange, type LinkValue } from '../../../schema/attributes';
import type { FilterRule, SortRule } from '../../../schema/views';
import { byPosition, type Positioned } from './positions';

/**
 * Sort, filter and group items by attribute values: pure, over plain records, so the Table and
 * Column views, tests and benchmarks share one implementation. Values are looked up through a
 * function (the screens keep a Map keyed by value id).
 */

export interface ItemLike extends Positioned {
  id: string;
  name: string;
  folder_id?: string;
  created_by?: number | null;
}

export interface AttributeRef {
  id: string;
  kind: AttributeKind | string;
  name?: string;
  settings?: Record<string, unknown> | null;
}

export type ValueGetter = (itemId: string, attributeId: string) => unknown;

/** The value an attribute shows for an item (the primary attribute is the item's name). */
export function valueFor(item: ItemLike, attribute: AttributeRef, get: ValueGetter): unknown {
  if (attribute.kind === 'primary' || attribute.id === 'name') return item.name;
  if (attribute.id === 'created_at') return item.created_at ?? null;
  return get(item.id, attribute.id);
}

// ── comparison ────────────────────────────────────────────────────────────────────────────────
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function optionIndex(attribute: AttributeRef, id: unknown): number {
  const kind = attribute.kind === 'status' ? 'status' : 'label';
  const options = settingsOf(kind, attribute.settings).options;
  const index = options.findIndex((o) => o.id === id);
  return index < 0 ? options.length : index;
}

/** A sortable key per kind: a number or a string. */
function sortKey(attribute: AttributeRef, value: unknown): number | string {
  switch (attribute.kind) {
    case 'number':
      return value as number;
    case 'checkbox':
      return value ? 1 : 0;
    case 'status':
      return optionIndex(attribute, value);
    case 'label':
      return optionIndex(attribute, Array.isArray(value) ? value[0] : value);
    case 'members':
    case 'reference':
    case 'attachments':
      return (value as unknown[]).length;
    case 'date-range':
      return (value as DateRange).start;
    case 'link':
      return (value as LinkValue).text ?? (value as LinkValue).url;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** Compares two values of one attribute; empty values always sort last, whatever the direction. */
export function compareValues(attribute: AttributeRef, a: unknown, b: unknown, direction: 'asc' | 'desc' = 'asc'): number {
  const emptyA = isEmptyValue(a) && attribute.kind !== 'checkbox';
  const emptyB = isEmptyValue(b) && attribute.kind !== 'checkbox';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  const ka = sortKey(attribute, a);
  const kb = sortKey(attribute, b);
  const order = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : collator.compare(String(ka), String(kb));
  return direction === 'desc' ? -order : order;
}

/** Sorts by the rules in order, then by position: stable and the same on every client. */
export function sortItems<I extends ItemLike>(items: readonly I[], rules: readonly SortRule[], attributes: ReadonlyMap<string, AttributeRef>, get: ValueGetter): I[] {
  const active = rules.map((r) => ({ rule: r, attribute: attributes.get(r.attribute_id) ?? builtinAttribute(r.attribute_id) })).filter((r) => r.attribute);
  if (active.length === 0) return [...items].sort(byPosition);
  // Decorate once: looking values up inside the comparator would cost n·log n lookups per rule.
  const keyed = items.map((item) => ({ item, values: active.map((r) => valueFor(item, r.attribute!, get)) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < active.length; i++) {
      const c = compareValues(active[i]!.attribute!, x.values[i], y.values[i], active[i]!.rule.direction);
      if (c !== 0) return c;
    }
    return byPosition(x.item, y.item);
  });
  return keyed.map((k) => k.item);
}

/** Sorting and filtering by the item's name or creation time need no attribute record. */
export function builtinAttribute(id: string): AttributeRef | undefined {
  if (id === 'name') return { id: 'name', kind: 'primary', name: 'Name' };
  if (id === 'created_at') return { id: 'created_at', kind: 'date', name: 'Created' };
  return undefined;
}

// ── filters ───────────────────────────────────────────────────────────────────────────────────
/** Text the "contains" filter searches in. */
export function searchableText(attribute: AttributeRef, value: unknown): string {
  if (isEmptyValue(value)) return '';
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const kind = attribute.kind === 'status' ? 'status' : 'label';
      const options = settingsOf(kind, attribute.settings).options;
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => options.find((o) => o.id === id)?.name ?? '').join(' ');
    }
    case 'link':
      return `${(value as LinkValue).text ?? ''} ${(value as LinkValue).url}`;
    case 'date-range':
      return `${(value as DateRange).start} ${(value as DateRange).end}`;
    case 'attachments':
      return (value as { name: string }[]).map((a) => a.name).join(' ');
    default:
      return Array.isArray(value) ? value.join(' ') : String(value);
  }
}

function sameValue(value: unknown, wanted: unknown): boolean {
  if (Array.isArray(value)) return Array.isArray(wanted) ? wanted.every((w) => value.includes(w)) : value.includes(wanted);
  if (value && typeof value === 'object') return JSON.stringify(value) === JSON.stringify(wanted);
  if (typeof value === 'string' && typeof wanted === 'string') return value.toLocaleLowerCase() === wanted.toLocaleLowerCase();
  return value === wanted;
}

export function matchesFilter(item: ItemLike, rule: FilterRule, attribute: AttributeRef, get: ValueGetter): boolean {
  const value = valueFor(item, attribute, get);
  const empty = attribute.kind === 'checkbox' ? value !== true : isEmptyValue(value);
  switch (rule.op) {
    case 'empty':
      return empty;
    case 'not-empty':
      return !empty;
    case 'is':
      return attribute.kind === 'checkbox' ? (value === true) === (rule.value === true) : !empty && sameValue(value, rule.value);
    case 'is-not':
      return attribute.kind === 'checkbox' ? (value === true) !== (rule.value === true) : empty || !sameValue(value, rule.value);
    case 'contains':
    case 'not-contains': {
      const needle = String(rule.value ?? '').toLocaleLowerCase();
      const found = searchableText(attribute, value).toLocaleLowerCase().includes(needle);
      return rule.op === 'contains' ? found : !found;
    }
    case 'gt':
    case 'lt': {
      if (empty || rule.value === undefined || rule.value === null) return false;
      const c = compareValues(attribute, value, rule.value);
      return rule.op === 'gt' ? c > 0 : c < 0;
    }
  }
}

export function filterItems<I extends ItemLike>(
  items: readonly I[],
  rules: readonly FilterRule[],
  match: 'all' | 'any',
  attributes: ReadonlyMap<string, AttributeRef>,
  get: ValueGetter,
): I[] {
  // A filter on an attribute that no longer exists is ignored rather than hiding everything.
  const active = rules.map((rule) => ({ rule, attribute: attributes.get(rule.attribute_id) ?? builtinAttribute(rule.attribute_id) })).filter((r) => r.attribute);
  if (active.length === 0) return [...items];
  return items.filter((item) =>
    match === 'all' ? active.every((r) => matchesFilter(item, r.rule, r.attribute!, get)) : active.some((r) => matchesFilter(item, r.rule, r.attribute!, get)),
  );
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
