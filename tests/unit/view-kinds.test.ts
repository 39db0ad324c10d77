import { describe, expect, it } from 'vitest';
import { resolveViewSettings, viewSettingsProblems, VIEW_KINDS, kindSettingsOf } from '../../schema/views';

const attrs = [
  { id: 'name', kind: 'primary' },
  { id: 'gone', kind: 'date', deleted_at: '2026-01-01T00:00:00Z' },
  { id: 'tags', kind: 'label' },
  { id: 'due', kind: 'date' },
  { id: 'span', kind: 'date-range' },
  { id: 'state', kind: 'status' },
  { id: 'cost', kind: 'number' },
  { id: 'end', kind: 'date' },
];

describe('view kinds: settings', () => {
  it('accepts {} for every kind and fills the defaults', () => {
    for (const kind of VIEW_KINDS) expect(viewSettingsProblems(kind, {})).toEqual([]);
    expect(kindSettingsOf('calendar', {})).toMatchObject({ mode: 'month', date_attribute_id: null, sort: [] });
    expect(kindSettingsOf('gantt', {})).toMatchObject({ zoom: 'week' });
    expect(kindSettingsOf('chart', {})).toMatchObject({ chart_type: 'bar', aggregate: 'count', top_20: false, attribute_ids: [] });
  });

  it('names what is wrong in bad settings', () => {
    expect(viewSettingsProblems('calendar', { mode: 'year' })[0]).toMatch(/^settings\.mode: /);
    expect(viewSettingsProblems('gantt', { zoom: 'decade' })[0]).toMatch(/^settings\.zoom: /);
    expect(viewSettingsProblems('chart', { attribute_ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] })[0]).toMatch(/^settings\.attribute_ids: /);
    expect(viewSettingsProblems('chart', { chart_type: 'radar' })).toHaveLength(1);
    expect(viewSettingsProblems('table', { sort: 'name' })[0]).toMatch(/^settings\.sort: /);
    // Keys of other kinds or clients are kept, not refused.
    expect(viewSettingsProblems('table', { future_key: 1 })).toEqual([]);
  });
});

describe('resolveViewSettings', () => {
  it('calendar: the first live date or date-range attribute, or the chosen one', () => {
    expect(resolveViewSettings('calendar', {}, attrs)).toMatchObject({ date_attribute_id: 'due', date_kind: 'date' });
    expect(resolveViewSettings('calendar', { date_attribute_id: 'span' }, attrs)).toMatchObject({ date_attribute_id: 'span', date_kind: 'date-range' });
    // A deleted or wrong-kind choice falls back to the default.
    expect(resolveViewSettings('calendar', { date_attribute_id: 'gone' }, attrs).date_attribute_id).toBe('due');
    expect(resolveViewSettings('calendar', { date_attribute_id: 'state' }, attrs).date_attribute_id).toBe('due');
    expect(resolveViewSettings('calendar', {}, [{ id: 'x', kind: 'text' }])).toMatchObject({ date_attribute_id: null, date_kind: null });
  });

  it('gantt: a range, or start + end dates, else the first range, else the first two dates', () => {
    expect(resolveViewSettings('gantt', {}, attrs)).toMatchObject({ range_attribute_id: 'span', start_attribute_id: null });
    expect(resolveViewSettings('gantt', { start_attribute_id: 'due', end_attribute_id: 'end' }, attrs)).toMatchObject({ range_attribute_id: null, start_attribute_id: 'due', end_attribute_id: 'end' });
    const noRange = attrs.filter((a) => a.kind !== 'date-range');
    expect(resolveViewSettings('gantt', {}, noRange)).toMatchObject({ range_attribute_id: null, start_attribute_id: 'due', end_attribute_id: 'end' });
    expect(resolveViewSettings('gantt', {}, [{ id: 'd', kind: 'date' }])).toMatchObject({ start_attribute_id: 'd', end_attribute_id: 'd' });
  });

  it('column: always grouped, by the chosen status or single label, else the first status, else a single label', () => {
    const board = [
      { id: 'name', kind: 'primary' },
      { id: 'tags', kind: 'label', settings: { multiple: true } },
      { id: 'kind', kind: 'label', settings: { multiple: false } },
      { id: 'stage', kind: 'status' },
    ];
    expect(resolveViewSettings('column', {}, board).group_by).toBe('stage');
    expect(resolveViewSettings('column', { group_by: null }, board).group_by).toBe('stage');
    expect(resolveViewSettings('column', { group_by: 'kind' }, board).group_by).toBe('kind');
    // A multi-choice label cannot make columns; a deleted status is skipped.
    expect(resolveViewSettings('column', { group_by: 'tags' }, board).group_by).toBe('stage');
    expect(resolveViewSettings('column', {}, [...board.slice(0, 3), { id: 'stage', kind: 'status', deleted_at: '2026-01-01' }]).group_by).toBe('kind');
    expect(resolveViewSettings('column', {}, board.slice(0, 2)).group_by).toBeNull();
  });

  it('list: groups by the first status (else label) unless the view chose (or chose none)', () => {
    expect(resolveViewSettings('list', {}, attrs).group_by).toBe('state');
    expect(resolveViewSettings('list', {}, attrs.filter((a) => a.kind !== 'status')).group_by).toBe('tags');
    expect(resolveViewSettings('list', { group_by: null }, attrs).group_by).toBeNull();
    expect(resolveViewSettings('list', { group_by: 'tags' }, attrs).group_by).toBe('tags');
  });

  it('chart: the chosen attributes that exist, else the first status or label; sum needs a number', () => {
    expect(resolveViewSettings('chart', {}, attrs).attribute_ids).toEqual(['state']);
    expect(resolveViewSettings('chart', { attribute_ids: ['tags', 'nope'] }, attrs).attribute_ids).toEqual(['tags']);
    expect(resolveViewSettings('chart', { aggregate: 'sum', sum_attribute_id: 'cost' }, attrs)).toMatchObject({ aggregate: 'sum', sum_attribute_id: 'cost' });
    expect(resolveViewSettings('chart', { aggregate: 'sum', sum_attribute_id: 'tags' }, attrs)).toMatchObject({ aggregate: 'count', sum_attribute_id: null });
    expect(resolveViewSettings('chart', {}, [{ id: 'x', kind: 'text' }]).attribute_ids).toEqual([]);
  });

  it('broken saved settings fall back to the defaults', () => {
    expect(resolveViewSettings('calendar', { mode: 'year' }, attrs)).toMatchObject({ mode: 'month', date_attribute_id: 'due' });
    expect(resolveViewSettings('table', null, attrs)).toMatchObject({ sort: [], group_by: null });
  });
});

describe('what a view places items by (read by the folder pane, handed to the view)', () => {
  it('names the calendar’s date, the gantt’s range or dates, the chart’s attributes and sum; nothing for the others', async () => {
    const { viewValueAttributes } = await import('../../src/boards/views/view-values');
    expect(viewValueAttributes('calendar', {}, attrs)).toEqual(['due']);
    expect(viewValueAttributes('calendar', { date_attribute_id: 'span' }, attrs)).toEqual(['span']);
    expect(viewValueAttributes('gantt', {}, attrs)).toEqual(['span']);
    expect(viewValueAttributes('gantt', { start_attribute_id: 'due', end_attribute_id: 'end' }, attrs)).toEqual(['due', 'end']);
    expect(viewValueAttributes('chart', {}, attrs)).toEqual(['state']);
    expect(viewValueAttributes('chart', { attribute_ids: ['tags', 'state'], aggregate: 'sum', sum_attribute_id: 'cost' }, attrs)).toEqual(['cost', 'tags', 'state']); // the sum first: every panel needs it
    // A sum over something not a number counts instead: nothing more to read.
    expect(viewValueAttributes('chart', { attribute_ids: ['tags'], aggregate: 'sum', sum_attribute_id: 'due' }, attrs)).toEqual(['tags']);
    // A deleted attribute is never read; a board without dates reads nothing.
    expect(viewValueAttributes('calendar', { date_attribute_id: 'gone' }, attrs)).toEqual(['due']);
    expect(viewValueAttributes('calendar', {}, [{ id: 'name', kind: 'primary' }])).toEqual([]);
    for (const kind of ['table', 'column', 'list'] as const) expect(viewValueAttributes(kind, {}, attrs)).toEqual([]);
  });
});
