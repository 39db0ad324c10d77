import { describe, expect, it } from 'vitest';
import { newLabel } from '../../schema/attributes';
import { filterItems, type AttributeRef, type ItemLike } from '../../src/boards/model/query';
import { conditionOf, conditionsFor, ruleFor, ruleIsComplete } from '../../src/boards/model/filter-conditions';
import { localeDateFormat, parseDateText } from '../../src/boards/model/date-text';
import { overlay, splitPatch, unsavedChanges } from '../../src/boards/views/personal-view';
import { viewSettingsOf } from '../../schema/views';

/** Issue #30 part 6: filter conditions per kind, the new operators, typed dates, personal view settings. */

const status: AttributeRef = { id: 'st', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('doing', 'Doing'), newLabel('done', 'Done')] } };
const people: AttributeRef = { id: 'p', kind: 'members' };
const num: AttributeRef = { id: 'n', kind: 'number' };
const due: AttributeRef = { id: 'd', kind: 'date' };
const span: AttributeRef = { id: 'r', kind: 'date-range' };
const tags: AttributeRef = { id: 't', kind: 'label', settings: { multiple: true, options: [newLabel('red', 'Red'), newLabel('blue', 'Blue')] } };
const attrs = new Map([status, people, num, due, span, tags].map((a) => [a.id, a]));
const items: ItemLike[] = ['i1', 'i2', 'i3', 'i4'].map((id, i) => ({ id, name: id, position: i }));
const values: Record<string, unknown> = {
  'i1.st': 'todo', 'i2.st': 'doing', 'i3.st': 'done',
  'i1.p': [7], 'i2.p': [8], 'i3.p': [7, 8],
  'i1.n': 10, 'i2.n': 50, 'i3.n': 90, 'i4.n': 200,
  'i1.d': '2026-01-05', 'i2.d': '2026-02-10T15:30', 'i3.d': '2026-03-15',
  'i1.r': { start: '2026-01-01', end: '2026-01-09' }, 'i2.r': { start: '2026-02-01', end: '2026-02-20' },
  'i1.t': ['red', 'blue'], 'i2.t': ['blue'],
};
const get = (itemId: string, attributeId: string) => values[`${itemId}.${attributeId}`] ?? null;
const ids = (rules: Parameters<typeof filterItems>[1]) => filterItems(items, rules, 'all', attrs, get).map((i) => i.id);

describe('filter operators', () => {
  it('is any of: options, labels and people', () => {
    expect(ids([{ attribute_id: 'st', op: 'any-of', value: ['doing', 'done'] }])).toEqual(['i2', 'i3']);
    expect(ids([{ attribute_id: 't', op: 'any-of', value: ['red'] }])).toEqual(['i1']);
    expect(ids([{ attribute_id: 'p', op: 'any-of', value: [8] }])).toEqual(['i2', 'i3']);
    expect(ids([{ attribute_id: 'p', op: 'is', value: 7 }])).toEqual(['i1', 'i3']);
    expect(ids([{ attribute_id: 'p', op: 'is-not', value: 7 }])).toEqual(['i2', 'i4']);
  });
  it('between: numbers and dates, both ends included, by whole day', () => {
    expect(ids([{ attribute_id: 'n', op: 'between', value: [10, 90] }])).toEqual(['i1', 'i2', 'i3']);
    expect(ids([{ attribute_id: 'd', op: 'between', value: ['2026-02-10', '2026-03-15'] }])).toEqual(['i2', 'i3']);
    expect(ids([{ attribute_id: 'd', op: 'is', value: '2026-02-10' }])).toEqual(['i2']);
    expect(ids([{ attribute_id: 'd', op: 'gt', value: '2026-02-10' }])).toEqual(['i3']);
    expect(ids([{ attribute_id: 'r', op: 'lt', value: '2026-02-01' }])).toEqual(['i1']);
    expect(ids([{ attribute_id: 'r', op: 'between', value: ['2026-01-15', '2026-02-15'] }])).toEqual(['i2']);
  });
});

describe('conditions per kind', () => {
  it('offers what fits the kind', () => {
    expect(conditionsFor('status').map((c) => c.key)).toEqual(['is', 'is-not', 'any-of', 'empty', 'not-empty']);
    expect(conditionsFor('members').map((c) => c.key)).toEqual(['is', 'is-not', 'any-of', 'empty', 'not-empty']);
    expect(conditionsFor('number').map((c) => c.key)).toEqual(['is', 'is-not', 'gt', 'lt', 'between', 'empty', 'not-empty']);
    expect(conditionsFor('date').map((c) => c.key)).toEqual(['on', 'before', 'after', 'between', 'empty', 'not-empty']);
    expect(conditionsFor('checkbox').map((c) => c.key)).toEqual(['checked', 'unchecked']);
    expect(conditionsFor('text')[0]!.key).toBe('contains');
    expect(conditionsFor('status').some((c) => c.op === 'gt')).toBe(false);
  });
  it('reads a rule back as its condition and keeps what still fits when the condition changes', () => {
    expect(conditionOf({ attribute_id: 'c', op: 'is', value: false }, 'checkbox').key).toBe('unchecked');
    expect(conditionOf({ attribute_id: 'd', op: 'lt', value: '2026-01-01' }, 'date').key).toBe('before');
    const anyOf = conditionsFor('status').find((c) => c.key === 'any-of')!;
    expect(ruleFor('st', anyOf, { input: 'option', value: 'todo' })).toEqual({ attribute_id: 'st', op: 'any-of', value: ['todo'] });
    const between = conditionsFor('date').find((c) => c.key === 'between')!;
    expect(ruleFor('d', between, { input: 'date', value: '2026-01-01' }).value).toEqual(['2026-01-01', undefined]);
  });
  it('leaves half-made rules out', () => {
    expect(ruleIsComplete({ attribute_id: 'st', op: 'is' }, 'status')).toBe(false);
    expect(ruleIsComplete({ attribute_id: 'st', op: 'any-of', value: [] }, 'status')).toBe(false);
    expect(ruleIsComplete({ attribute_id: 'n', op: 'between', value: [1, null] }, 'number')).toBe(false);
    expect(ruleIsComplete({ attribute_id: 'n', op: 'between', value: [1, 2] }, 'number')).toBe(true);
    expect(ruleIsComplete({ attribute_id: 'st', op: 'empty' }, 'status')).toBe(true);
    expect(ruleIsComplete({ attribute_id: 'c', op: 'is', value: false }, 'checkbox')).toBe(true);
  });
});

describe('typed dates', () => {
  it('reads the cells’ format and the locale’s', () => {
    expect(parseDateText('2026-12-04', 'en-US')).toBe('2026-12-04');
    expect(parseDateText('12/04/2026', 'en-US')).toBe('2026-12-04');
    expect(parseDateText('12/4/26', 'en-US')).toBe('2026-12-04');
    expect(parseDateText('12042026', 'en-US')).toBe('2026-12-04');
    expect(parseDateText('04.12.2026', 'de')).toBe('2026-12-04');
    expect(parseDateText('4/12/2026', 'fr')).toBe('2026-12-04');
    expect(parseDateText('2026. 12. 4.', 'ko')).toBe('2026-12-04');
    expect(parseDateText('2026/12/04', 'zh')).toBe('2026-12-04');
  });
  it('refuses what is not a date', () => {
    expect(parseDateText('2026-02-30', 'en-US')).toBe(null);
    expect(parseDateText('13/13/2026', 'en-US')).toBe(null);
    expect(parseDateText('soon', 'en-US')).toBe(null);
    expect(parseDateText('', 'en-US')).toBe(null);
  });
  it('shows the locale’s pattern', () => {
    expect(localeDateFormat('en-US').pattern).toBe('MM/DD/YYYY');
    expect(localeDateFormat('de').pattern).toBe('DD.MM.YYYY');
  });
});

describe('personal view settings', () => {
  it('splits a patch, lays personal settings over the shared ones and tells what is unsaved', () => {
    expect(splitPatch({ sort: [], column_widths: { a: 100 } })).toEqual({ personal: { sort: [] }, shared: { column_widths: { a: 100 } } });
    const shared = viewSettingsOf({ filters: [{ attribute_id: 'st', op: 'is', value: 'todo' }] });
    const personal = { filters: [], sort: [{ attribute_id: 'n', direction: 'desc' as const }] };
    expect(overlay(shared, personal).filters).toEqual([]);
    expect(unsavedChanges(shared, personal)).toEqual(personal);
    expect(unsavedChanges(shared, { filters: shared.filters })).toBe(null);
    expect(unsavedChanges(shared, null)).toBe(null);
  });
});
