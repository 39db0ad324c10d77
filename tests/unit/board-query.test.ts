import { describe, expect, it } from 'vitest';
import { newLabel } from '../../schema/attributes';
import { EMPTY_GROUP, filterItems, groupItems, searchItems, sortItems, type AttributeRef, type ItemLike } from '../../src/boards/model/query';

const status: AttributeRef = { id: 'st', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('doing', 'Doing'), newLabel('done', 'Done')] } };
const num: AttributeRef = { id: 'n', kind: 'number' };
const due: AttributeRef = { id: 'd', kind: 'date' };
const check: AttributeRef = { id: 'c', kind: 'checkbox' };
const tags: AttributeRef = { id: 't', kind: 'label', settings: { multiple: true, options: [newLabel('red', 'Red'), newLabel('blue', 'Blue')] } };
const attrs = new Map([status, num, due, check, tags].map((a) => [a.id, a]));

const items: ItemLike[] = [
  { id: 'i1', name: 'Write spec', position: 1 },
  { id: 'i2', name: 'buy milk', position: 2 },
  { id: 'i3', name: 'Item 10', position: 3 },
  { id: 'i4', name: 'Item 9', position: 4 },
];
const values: Record<string, unknown> = {
  'i1.st': 'done', 'i2.st': 'todo', 'i3.st': 'doing',
  'i1.n': 5, 'i2.n': -1, 'i4.n': 30,
  'i1.d': '2026-05-01', 'i3.d': '2026-01-10',
  'i1.c': true,
  'i1.t': ['red', 'blue'], 'i2.t': ['blue'],
};
const get = (itemId: string, attributeId: string) => values[`${itemId}.${attributeId}`] ?? null;
const ids = (list: ItemLike[]) => list.map((i) => i.id);

describe('sorting', () => {
  it('sorts numbers both ways with empty values last', () => {
    expect(ids(sortItems(items, [{ attribute_id: 'n', direction: 'asc' }], attrs, get))).toEqual(['i2', 'i1', 'i4', 'i3']);
    expect(ids(sortItems(items, [{ attribute_id: 'n', direction: 'desc' }], attrs, get))).toEqual(['i4', 'i1', 'i2', 'i3']);
  });
  it('sorts statuses in option order and names naturally, case-insensitively', () => {
    expect(ids(sortItems(items, [{ attribute_id: 'st', direction: 'asc' }], attrs, get))).toEqual(['i2', 'i3', 'i1', 'i4']);
    expect(ids(sortItems(items, [{ attribute_id: 'name', direction: 'asc' }], attrs, get))).toEqual(['i2', 'i4', 'i3', 'i1']);
  });
  it('uses later rules to break ties and position last; ignores rules for deleted attributes', () => {
    expect(ids(sortItems(items, [{ attribute_id: 'c', direction: 'desc' }, { attribute_id: 'n', direction: 'desc' }], attrs, get))).toEqual(['i1', 'i4', 'i2', 'i3']);
    expect(ids(sortItems(items, [{ attribute_id: 'gone', direction: 'asc' }], attrs, get))).toEqual(['i1', 'i2', 'i3', 'i4']);
  });
});

describe('filtering', () => {
  it('filters by is, is-not, empty and comparisons', () => {
    expect(ids(filterItems(items, [{ attribute_id: 'st', op: 'is', value: 'done' }], 'all', attrs, get))).toEqual(['i1']);
    expect(ids(filterItems(items, [{ attribute_id: 'st', op: 'is-not', value: 'done' }], 'all', attrs, get))).toEqual(['i2', 'i3', 'i4']);
    expect(ids(filterItems(items, [{ attribute_id: 'd', op: 'empty' }], 'all', attrs, get))).toEqual(['i2', 'i4']);
    expect(ids(filterItems(items, [{ attribute_id: 'n', op: 'gt', value: 0 }], 'all', attrs, get))).toEqual(['i1', 'i4']);
    expect(ids(filterItems(items, [{ attribute_id: 'd', op: 'lt', value: '2026-03-01' }], 'all', attrs, get))).toEqual(['i3']);
    expect(ids(filterItems(items, [{ attribute_id: 'c', op: 'is', value: false }], 'all', attrs, get))).toEqual(['i2', 'i3', 'i4']);
  });
  it('matches labels by option and by name text; combines with all or any', () => {
    expect(ids(filterItems(items, [{ attribute_id: 't', op: 'is', value: 'blue' }], 'all', attrs, get))).toEqual(['i1', 'i2']);
    expect(ids(filterItems(items, [{ attribute_id: 't', op: 'contains', value: 'RED' }], 'all', attrs, get))).toEqual(['i1']);
    const both = [{ attribute_id: 't', op: 'is' as const, value: 'blue' }, { attribute_id: 'n', op: 'gt' as const, value: 10 }];
    expect(ids(filterItems(items, both, 'all', attrs, get))).toEqual([]);
    expect(ids(filterItems(items, both, 'any', attrs, get))).toEqual(['i1', 'i2', 'i4']);
  });
  it('searches names and shown values', () => {
    expect(ids(searchItems(items, 'item', [status], get))).toEqual(['i3', 'i4']);
    expect(ids(searchItems(items, 'doing', [status], get))).toEqual(['i3']);
  });
});

describe('grouping', () => {
  it('makes a group per status option (even empty), then the empty group', () => {
    const groups = groupItems(items, status, get);
    expect(groups.map((g) => [g.key, ids(g.items)])).toEqual([['todo', ['i2']], ['doing', ['i3']], ['done', ['i1']], [EMPTY_GROUP, ['i4']]]);
    expect(groups[0]!.option?.textColor).toBe('#4C4E69');
  });
  it('hides empty groups on request and follows a saved group order', () => {
    const onlyTwo = items.slice(0, 2);
    expect(groupItems(onlyTwo, status, get, { hideEmptyGroups: true }).map((g) => g.key)).toEqual(['todo', 'done']);
    expect(groupItems(items, status, get, { groupOrder: ['done', EMPTY_GROUP] }).map((g) => g.key)).toEqual(['done', EMPTY_GROUP, 'todo', 'doing']);
  });
  it('groups other kinds by distinct value in value order', () => {
    expect(groupItems(items, num, get).map((g) => [g.key, ids(g.items)])).toEqual([['-1', ['i2']], ['5', ['i1']], ['30', ['i4']], [EMPTY_GROUP, ['i3']]]);
    expect(groupItems(items, check, get).map((g) => [g.key, ids(g.items)])).toEqual([['true', ['i1']], ['false', ['i2', 'i3', 'i4']], [EMPTY_GROUP, []]]);
    expect(groupItems(items, tags, get, { hideEmptyGroups: true }).map((g) => g.title)).toEqual(['Blue', 'Red, Blue', '']);
  });
});

import { clampWidth, moveColumn, orderedColumns } from '../../src/boards/model/columns';

describe('table columns', () => {
  const cols = [
    { id: 'p', kind: 'primary', position: 9 },
    { id: 'a', kind: 'text', position: 1 },
    { id: 'b', kind: 'text', position: 2 },
    { id: 'c', kind: 'text', position: 3, hidden: true },
    { id: 'd', kind: 'text', position: 4 },
  ];
  it('puts the primary first, then the view order, then positions; leaves hidden ones out', () => {
    expect(orderedColumns(cols, { column_order: ['d', 'b'], hidden_columns: [] }).map((c) => c.id)).toEqual(['p', 'd', 'b', 'a']);
    expect(orderedColumns(cols, { column_order: [], hidden_columns: ['a'] }).map((c) => c.id)).toEqual(['p', 'b', 'd']);
    expect(orderedColumns(cols, { column_order: [], hidden_columns: ['a'] }, { includeHidden: true }).map((c) => c.id)).toEqual(['p', 'a', 'b', 'c', 'd']);
  });
  it('moves a column and clamps widths', () => {
    expect(moveColumn(['a', 'b', 'd'], 'd', 0)).toEqual(['d', 'a', 'b']);
    expect(moveColumn(['a', 'b'], 'x', 9)).toEqual(['a', 'b', 'x']);
    expect(clampWidth(10)).toBe(60);
    expect(clampWidth(5000)).toBe(800);
  });
});
