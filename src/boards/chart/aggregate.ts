import { settingsOf, type DateRange, type LinkValue } from '../../../schema/attributes';
import { CHART_MAX_ATTRIBUTES, type ChartType } from '../../../schema/views';
import type { AttributeRef, ItemLike, ValueGetter } from '../model/query';

/**
 * The Chart view's numbers: items bucketed by an attribute's values, counted or summed. Pure (no
 * React, no chart library), so tests and the benchmark run it on plain records; one pass over the
 * items per attribute, fast enough for 100,000 items (bench/views-list-chart.ts).
 *
 * Buckets per kind: one per status or label option (an item with two labels counts in both), per
 * member, per referenced item, per month of a date (a date range by the month it starts), per
 * number, per text; checkboxes give "checked" and "unchecked". Items without a value go to an
 * "empty" bucket. Labels that need words ("No value", month names) are left to the view: a
 * bucket says its `kind` and carries the raw label.
 */

export const TOP_VALUES = 20;
/** More buckets than this without "Top 20 values" cannot be drawn legibly: the chart says so. */
export const MAX_BUCKETS = 100;
export const EMPTY_BUCKET = '__empty';

/** Attribute kinds a chart can bucket by. */
export const CHARTABLE_KINDS: ReadonlySet<string> = new Set(['status', 'label', 'members', 'reference', 'date', 'date-range', 'number', 'checkbox', 'text', 'email', 'link']);

export type BucketKind = 'option' | 'member' | 'item' | 'month' | 'number' | 'text' | 'checked' | 'unchecked' | 'empty';

export interface BucketHead {
  key: string;
  kind: BucketKind;
  /** The option's, member's or item's name, the month ("2026-03"), the number or the text; '' when unknown. */
  label: string;
  color?: string;
}

export interface Bucket extends BucketHead {
  /** The count of items, or the sum of the number attribute over them. */
  value: number;
  itemIds: string[];
}

/** One stack of a stacked bar: its value and items per bucket of the axis (same order as the buckets). */
export interface Stack extends BucketHead {
  values: number[];
  itemIds: string[][];
}

export interface ChartData {
  attribute: AttributeRef;
  stackBy?: AttributeRef;
  buckets: Bucket[];
  stacks?: Stack[];
  /** Buckets left out by "Top 20 values". */
  omitted: number;
}

/** Why a chart cannot be drawn; the view shows "chart could not be generated" with the reason. */
export type ChartProblem = 'no-attributes' | 'too-many-attributes' | 'not-chartable' | 'sum-not-number' | 'no-items' | 'too-many-values';

export type ChartResult = { ok: true; panels: ChartData[] } | { ok: false; problem: ChartProblem };

export interface ChartNames {
  member?(id: number): string | undefined;
  item?(id: string): string | undefined;
}

export interface ChartRequest {
  type: ChartType;
  /** The chosen attributes, in order (1–7). */
  attributes: readonly AttributeRef[];
  /** Set: the sum of this number attribute per bucket; absent: the count of items. */
  sumAttribute?: AttributeRef | null;
  top20: boolean;
  names?: ChartNames;
}

/**
 * The panels of a chart: one per chosen attribute for bar, line, pie and donut; for a stacked bar
 * the first attribute is the axis and each further attribute stacks one panel (a single attribute
 * gives one plain bar). Fails with the reason when nothing sensible can be drawn.
 */
export function buildChart<I extends ItemLike>(items: readonly I[], request: ChartRequest, get: ValueGetter): ChartResult {
  const { attributes } = request;
  if (attributes.length === 0) return { ok: false, problem: 'no-attributes' };
  if (attributes.length > CHART_MAX_ATTRIBUTES) return { ok: false, problem: 'too-many-attributes' };
  if (attributes.some((a) => !CHARTABLE_KINDS.has(a.kind))) return { ok: false, problem: 'not-chartable' };
  if (request.sumAttribute && request.sumAttribute.kind !== 'number') return { ok: false, problem: 'sum-not-number' };
  if (items.length === 0) return { ok: false, problem: 'no-items' };
  const sumAttribute = request.sumAttribute ?? null;
  // Each item's amount is read once for all panels (a sum over 3 attributes would read it 3 times).
  const amounts = sumAttribute ? amountsOf(items, sumAttribute, get) : undefined;
  const options = { sumAttribute, top20: request.top20, names: request.names ?? {}, amounts };
  const panels: ChartData[] = [];
  if (request.type === 'stacked-bar' && attributes.length > 1) {
    for (const stackBy of attributes.slice(1)) panels.push(aggregate(items, attributes[0]!, get, { ...options, stackBy }));
  } else {
    for (const attribute of attributes) panels.push(aggregate(items, attribute, get, options));
  }
  if (!request.top20 && panels.some((p) => p.buckets.length > MAX_BUCKETS || (p.stacks?.length ?? 0) > MAX_BUCKETS)) return { ok: false, problem: 'too-many-values' };
  return { ok: true, panels };
}

interface AggregateOptions {
  sumAttribute: AttributeRef | null;
  top20: boolean;
  names: ChartNames;
  stackBy?: AttributeRef;
  /** The sum attribute's number per item (by index), when already read. */
  amounts?: Float64Array;
}

function amountsOf(items: readonly ItemLike[], sumAttribute: AttributeRef, get: ValueGetter): Float64Array {
  const out = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = numberOf(get(items[i]!.id, sumAttribute.id));
  return out;
}

/** One attribute's buckets (and stacks by a second attribute), in the attribute's natural order. */
export function aggregate<I extends ItemLike>(items: readonly I[], attribute: AttributeRef, get: ValueGetter, options: AggregateOptions): ChartData {
  const { stackBy, names } = options;
  const amounts = options.amounts ?? (options.sumAttribute ? amountsOf(items, options.sumAttribute, get) : null);
  const keyer = bucketKeyer(attribute, names);
  const stackKeyer = stackBy ? bucketKeyer(stackBy, names) : null;
  const buckets = new Map<string, Bucket>();
  // Heads are made once per key (bucketKeyer), so the bucket is found by the head object itself.
  const bucketOf = new Map<BucketHead, Bucket>();
  // Per bucket, per stack key: the stacked cell.
  const cells = new Map<string, Map<string, { value: number; itemIds: string[] }>>();
  const stackHeads = new Map<string, BucketHead & { total: number }>();

  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const amount = amounts ? amounts[i]! : 1;
    const heads = keyer(valueOf(item, attribute, get));
    const stackList = stackKeyer ? stackKeyer(valueOf(item, stackBy!, get)) : null;
    for (let h = 0; h < heads.length; h++) {
      const head = heads[h]!;
      let bucket = bucketOf.get(head);
      if (!bucket) {
        bucket = { ...head, value: 0, itemIds: [] };
        bucketOf.set(head, bucket);
        buckets.set(head.key, bucket);
      }
      bucket.value += amount;
      bucket.itemIds.push(item.id);
      if (!stackList) continue;
      let row = cells.get(head.key);
      if (!row) cells.set(head.key, (row = new Map()));
      for (const stack of stackList) {
        let cell = row.get(stack.key);
        if (!cell) row.set(stack.key, (cell = { value: 0, itemIds: [] }));
        cell.value += amount;
        cell.itemIds.push(item.id);
        let known = stackHeads.get(stack.key);
        if (!known) stackHeads.set(stack.key, (known = { ...stack, total: 0 }));
        known.total += amount;
      }
    }
  }

  const order = naturalOrder(attribute);
  let list = [...buckets.values()];
  let omitted = 0;
  if (options.top20 && list.length > TOP_VALUES) {
    omitted = list.length - TOP_VALUES;
    list = [...list].sort(byValueDesc).slice(0, TOP_VALUES);
  }
  list.sort(order);
  for (const bucket of list) bucket.value = tidy(bucket.value);
  const data: ChartData = { attribute, buckets: list, omitted };
  if (stackBy) {
    let heads = [...stackHeads.values()];
    if (options.top20 && heads.length > TOP_VALUES) heads = heads.sort((a, b) => b.total - a.total).slice(0, TOP_VALUES);
    heads.sort(naturalOrder(stackBy));
    data.stackBy = stackBy;
    data.stacks = heads.map(({ total: _total, ...head }) => ({
      ...head,
      values: list.map((b) => tidy(cells.get(b.key)?.get(head.key)?.value ?? 0)),
      itemIds: list.map((b) => cells.get(b.key)?.get(head.key)?.itemIds ?? []),
    }));
  }
  return data;
}

// ── bucket keys per kind ──────────────────────────────────────────────────────────────────────
const EMPTY_HEAD: BucketHead = { key: EMPTY_BUCKET, kind: 'empty', label: '' };
const CHECKED: BucketHead = { key: 'true', kind: 'checked', label: '' };
const UNCHECKED: BucketHead = { key: 'false', kind: 'unchecked', label: '' };
const NONE: BucketHead[] = [EMPTY_HEAD];

function valueOf(item: ItemLike, attribute: AttributeRef, get: ValueGetter): unknown {
  return attribute.kind === 'primary' ? item.name : get(item.id, attribute.id);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The buckets one value falls in (several for multi-valued kinds). Heads are shared objects, made once per key. */
function bucketKeyer(attribute: AttributeRef, names: ChartNames): (value: unknown) => BucketHead[] {
  const cache = new Map<string, BucketHead[]>();
  const once = (key: string, make: () => BucketHead): BucketHead[] => {
    let heads = cache.get(key);
    if (!heads) cache.set(key, (heads = [make()]));
    return heads;
  };
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const options = new Map(settingsOf(attribute.kind, attribute.settings).options.map((o) => [o.id, o]));
      const head = (id: string): BucketHead => {
        const o = options.get(id);
        return o ? { key: id, kind: 'option', label: o.name, color: o.color } : { key: id, kind: 'option', label: '' };
      };
      return (value) => {
        if (isEmpty(value)) return NONE;
        if (!Array.isArray(value)) return once(String(value), () => head(String(value)));
        return value.map((id) => once(String(id), () => head(String(id)))[0]!);
      };
    }
    case 'members':
    case 'reference': {
      const isMember = attribute.kind === 'members';
      return (value) => {
        if (isEmpty(value)) return NONE;
        const list = Array.isArray(value) ? value : [value];
        return list.map(
          (id) =>
            once(String(id), () => ({
              key: String(id),
              kind: isMember ? 'member' : 'item',
              label: (isMember ? names.member?.(Number(id)) : names.item?.(String(id))) ?? '',
            }))[0]!,
        );
      };
    }
    case 'date':
    case 'date-range':
      return (value) => {
        const date = attribute.kind === 'date-range' ? (value as DateRange | null)?.start : value;
        if (typeof date !== 'string' || date.length < 7) return NONE;
        const month = date.slice(0, 7);
        return once(month, () => ({ key: month, kind: 'month', label: month }));
      };
    case 'number':
      return (value) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) return NONE;
        const key = String(value);
        return once(key, () => ({ key, kind: 'number', label: key }));
      };
    case 'checkbox':
      return (value) => (value === true ? [CHECKED] : [UNCHECKED]);
    default:
      return (value) => {
        const text = attribute.kind === 'link' && value && typeof value === 'object' ? ((value as LinkValue).text ?? (value as LinkValue).url) : value;
        if (isEmpty(text)) return NONE;
        const key = String(text).trim();
        if (!key) return NONE;
        return once(key, () => ({ key, kind: 'text', label: key }));
      };
  }
}

// ── order ─────────────────────────────────────────────────────────────────────────────────────
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byValueDesc = (a: { value: number; label: string }, b: { value: number; label: string }) => b.value - a.value || collator.compare(a.label, b.label);
/** Empty last, always. */
const emptyLast = (a: BucketHead, b: BucketHead) => (a.kind === 'empty' ? 1 : 0) - (b.kind === 'empty' ? 1 : 0);

/**
 * How buckets are laid out: options in the attribute's order, months and numbers ascending,
 * checked before unchecked, names and texts by size (largest first); "empty" last.
 */
function naturalOrder(attribute: AttributeRef): (a: BucketHead & { value?: number; total?: number }, b: BucketHead & { value?: number; total?: number }) => number {
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const rank = new Map(settingsOf(attribute.kind, attribute.settings).options.map((o, i) => [o.id, i]));
      const of = (k: string) => rank.get(k) ?? rank.size;
      return (a, b) => emptyLast(a, b) || of(a.key) - of(b.key) || collator.compare(a.key, b.key);
    }
    case 'date':
    case 'date-range':
      return (a, b) => emptyLast(a, b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    case 'number':
      return (a, b) => emptyLast(a, b) || Number(a.key) - Number(b.key);
    case 'checkbox':
      return (a, b) => (a.kind === 'checked' ? 0 : 1) - (b.kind === 'checked' ? 0 : 1);
    default:
      return (a, b) => emptyLast(a, b) || (b.value ?? b.total ?? 0) - (a.value ?? a.total ?? 0) || collator.compare(a.label, b.label);
  }
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Sums of decimals drift (0.1 + 0.2); what is shown is rounded to 9 places. */
function tidy(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}
