import { isEmptyValue, settingsOf, type AttributeKind, type DateRange, type LinkValue } from './attributes';
import type { FilterRule } from './views';

/**
 * The filter evaluator: whether an item's values pass a view's filter rules (schema/views.ts
 * FILTER_OPS), and the value comparison sorting and "greater/less than" share. Pure, over plain
 * records, so the board views (src/boards/model/query.ts) and the automation runner
 * (server/automations/, conditions use the same operators) judge values alike.
 */

export interface ItemLike {
  id: string;
  created_at?: string | null;
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

export function optionIndex(attribute: AttributeRef, id: unknown): number {
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

/** Dates are compared by day: a date with a time, a range (its start) and a creation time alike. */
function dayOf(attribute: AttributeRef, value: unknown): unknown {
  if (attribute.kind === 'date-range' && value && typeof value === 'object') return (value as DateRange).start.slice(0, 10);
  if ((attribute.kind === 'date' || attribute.kind === 'date-range') && typeof value === 'string') return value.slice(0, 10);
  return value;
}

export function matchesFilter(item: ItemLike, rule: FilterRule, attribute: AttributeRef, get: ValueGetter): boolean {
  const dated = attribute.kind === 'date' || attribute.kind === 'date-range';
  const value = dated ? dayOf(attribute, valueFor(item, attribute, get)) : valueFor(item, attribute, get);
  if (dated && attribute.kind === 'date-range') attribute = { ...attribute, kind: 'date' };
  const empty = attribute.kind === 'checkbox' ? value !== true : isEmptyValue(value);
  switch (rule.op) {
    case 'empty':
      return empty;
    case 'not-empty':
      return !empty;
    case 'is':
      return attribute.kind === 'checkbox' ? (value === true) === (rule.value === true) : !empty && sameValue(value, dated ? dayOf(attribute, rule.value) : rule.value);
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
      const c = compareValues(attribute, value, dated ? dayOf(attribute, rule.value) : rule.value);
      return rule.op === 'gt' ? c > 0 : c < 0;
    }
    case 'any-of': {
      const wanted = Array.isArray(rule.value) ? rule.value : [rule.value];
      if (empty) return false;
      return Array.isArray(value) ? value.some((v) => wanted.includes(v)) : wanted.some((w) => sameValue(value, w));
    }
    case 'between': {
      const [from, to] = Array.isArray(rule.value) ? rule.value : [];
      if (empty || isEmptyValue(from) || isEmptyValue(to)) return false;
      const day = (v: unknown) => (dated ? dayOf(attribute, v) : v);
      return compareValues(attribute, value, day(from)) >= 0 && compareValues(attribute, value, day(to)) <= 0;
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
  return items.filter((item) => passesFilters(item, rules, match, attributes, get));
}

/**
 * Whether one item passes the rules ("all" of them or "any"). A rule on an attribute that no
 * longer exists is ignored rather than failing everything; no active rule passes.
 */
export function passesFilters(item: ItemLike, rules: readonly FilterRule[], match: 'all' | 'any', attributes: ReadonlyMap<string, AttributeRef>, get: ValueGetter): boolean {
  const active = rules.map((rule) => ({ rule, attribute: attributes.get(rule.attribute_id) ?? builtinAttribute(rule.attribute_id) })).filter((r) => r.attribute);
  if (active.length === 0) return true;
  return match === 'all' ? active.every((r) => matchesFilter(item, r.rule, r.attribute!, get)) : active.some((r) => matchesFilter(item, r.rule, r.attribute!, get));
}
