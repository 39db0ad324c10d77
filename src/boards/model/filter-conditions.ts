import type { FilterOp, FilterRule } from '../../../schema/views';

/**
 * Which filter conditions fit each attribute kind (issue #30 part 6, review M2): options are
 * "is / is not / is any of" with the option picker, numbers compare, dates are before / after /
 * between, text contains, people "is / is any of", a checkbox is checked or unchecked, and every
 * kind but the checkbox can be empty or not. A condition is an operator, sometimes with a fixed
 * value (checked = "is true"), and the input its value needs. Pure: the filter popover and its
 * tests share it; the evaluator is schema/filters.ts.
 */

export type ConditionKey =
  | 'is'
  | 'is-not'
  | 'any-of'
  | 'contains'
  | 'not-contains'
  | 'gt'
  | 'lt'
  | 'before'
  | 'after'
  | 'on'
  | 'between'
  | 'checked'
  | 'unchecked'
  | 'empty'
  | 'not-empty';

/** What the value of a condition is entered with. */
export type ConditionInput = 'none' | 'option' | 'options' | 'person' | 'people' | 'number' | 'numbers' | 'date' | 'dates' | 'text';

export interface Condition {
  key: ConditionKey;
  op: FilterOp;
  input: ConditionInput;
  /** A value the condition itself sets (a checkbox's true / false). */
  fixed?: unknown;
}

const EMPTY: Condition[] = [
  { key: 'empty', op: 'empty', input: 'none' },
  { key: 'not-empty', op: 'not-empty', input: 'none' },
];
const TEXT: Condition[] = [
  { key: 'contains', op: 'contains', input: 'text' },
  { key: 'not-contains', op: 'not-contains', input: 'text' },
  { key: 'is', op: 'is', input: 'text' },
  { key: 'is-not', op: 'is-not', input: 'text' },
  ...EMPTY,
];

/** The conditions offered for a kind, the default first ('primary' is the item's name, 'date' also creation time). */
export function conditionsFor(kind: string): Condition[] {
  switch (kind) {
    case 'status':
    case 'label':
      return [{ key: 'is', op: 'is', input: 'option' }, { key: 'is-not', op: 'is-not', input: 'option' }, { key: 'any-of', op: 'any-of', input: 'options' }, ...EMPTY];
    case 'members':
      return [{ key: 'is', op: 'is', input: 'person' }, { key: 'is-not', op: 'is-not', input: 'person' }, { key: 'any-of', op: 'any-of', input: 'people' }, ...EMPTY];
    case 'number':
      return [
        { key: 'is', op: 'is', input: 'number' },
        { key: 'is-not', op: 'is-not', input: 'number' },
        { key: 'gt', op: 'gt', input: 'number' },
        { key: 'lt', op: 'lt', input: 'number' },
        { key: 'between', op: 'between', input: 'numbers' },
        ...EMPTY,
      ];
    case 'date':
    case 'date-range':
      return [
        { key: 'on', op: 'is', input: 'date' },
        { key: 'before', op: 'lt', input: 'date' },
        { key: 'after', op: 'gt', input: 'date' },
        { key: 'between', op: 'between', input: 'dates' },
        ...EMPTY,
      ];
    case 'checkbox':
      return [
        { key: 'checked', op: 'is', input: 'none', fixed: true },
        { key: 'unchecked', op: 'is', input: 'none', fixed: false },
      ];
    case 'reference':
    case 'attachments':
      return [{ key: 'contains', op: 'contains', input: 'text' }, { key: 'not-contains', op: 'not-contains', input: 'text' }, ...EMPTY];
    default:
      return TEXT;
  }
}

/** The condition a saved rule reads as for this kind (the kind's default when none fits). */
export function conditionOf(rule: FilterRule, kind: string): Condition {
  const list = conditionsFor(kind);
  return list.find((c) => c.op === rule.op && (c.fixed === undefined || c.fixed === (rule.value === true))) ?? list[0]!;
}

/** A rule for a condition: its fixed value, or the value kept when the input stays alike. */
export function ruleFor(attributeId: string, condition: Condition, previous?: { input: ConditionInput; value: unknown }): FilterRule {
  if (condition.fixed !== undefined) return { attribute_id: attributeId, op: condition.op, value: condition.fixed as never };
  if (condition.input === 'none') return { attribute_id: attributeId, op: condition.op };
  let value: unknown;
  if (previous && previous.input === condition.input) value = previous.value;
  else if (previous && previous.value !== undefined) value = carry(previous.input, condition.input, previous.value);
  return value === undefined ? { attribute_id: attributeId, op: condition.op } : { attribute_id: attributeId, op: condition.op, value: value as never };
}

/** One option or person to a list of them and back, a date to the start of a span: what still fits. */
function carry(from: ConditionInput, to: ConditionInput, value: unknown): unknown {
  const single = (from === 'option' && to === 'options') || (from === 'person' && to === 'people');
  const many = (from === 'options' && to === 'option') || (from === 'people' && to === 'person');
  if (single) return value === undefined || value === '' ? undefined : [value];
  if (many) return Array.isArray(value) ? value[0] : undefined;
  if ((from === 'date' && to === 'dates') || (from === 'number' && to === 'numbers')) return [value, undefined];
  if ((from === 'dates' && to === 'date') || (from === 'numbers' && to === 'number')) return Array.isArray(value) ? value[0] : undefined;
  return undefined;
}

const blank = (v: unknown) => v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));

/**
 * Whether a rule has what its condition needs. A rule still being filled in (no option chosen,
 * one end of a span) is left out of the view's filters, so a half-made rule never hides every item.
 */
export function ruleIsComplete(rule: FilterRule, kind: string): boolean {
  const condition = conditionOf(rule, kind);
  const v = rule.value;
  switch (condition.input) {
    case 'none':
      return true;
    case 'options':
    case 'people':
      return Array.isArray(v) && v.length > 0;
    case 'numbers':
    case 'dates':
      return Array.isArray(v) && v.length === 2 && !blank(v[0]) && !blank(v[1]);
    default:
      return !blank(v);
  }
}
