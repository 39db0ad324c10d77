import { describe, expect, it } from 'vitest';
import { newLabel } from '../../schema/attributes';
import { aggregate, buildChart, EMPTY_BUCKET, MAX_BUCKETS, TOP_VALUES } from '../../src/boards/chart/aggregate';
import { chartOption, segmentOf } from '../../src/boards/chart/chart-option';

const status = { id: 'st', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('doing', 'Doing'), newLabel('done', 'Done')] } };
const labels = { id: 'lb', kind: 'label', settings: { multiple: true, options: [newLabel('red', 'Red'), newLabel('blue', 'Blue')] } };
const members = { id: 'mb', kind: 'members', settings: {} };
const due = { id: 'due', kind: 'date', settings: {} };
const span = { id: 'span', kind: 'date-range', settings: {} };
const points = { id: 'pts', kind: 'number', settings: {} };
const owner = { id: 'own', kind: 'text', settings: {} };
const done = { id: 'ok', kind: 'checkbox', settings: {} };

/** Items i0…i{n-1} and a value getter over a plain map, the way the view reads the replica. */
function board(n: number, valueOf: (i: number) => Record<string, unknown>) {
  const items = Array.from({ length: n }, (_, i) => ({ id: `i${i}`, name: `Item ${i}`, position: i }));
  const values = new Map<string, unknown>();
  items.forEach((item, i) => {
    for (const [attribute, value] of Object.entries(valueOf(i))) values.set(`${item.id}.${attribute}`, value);
  });
  return { items, get: (itemId: string, attributeId: string) => values.get(`${itemId}.${attributeId}`) ?? null };
}

const opts = { sumAttribute: null, top20: false, names: {} };
const summary = (buckets: { key: string; value: number }[]) => buckets.map((b) => `${b.key}=${b.value}`);

describe('chart buckets per kind', () => {
  it('counts statuses in the option order, with the option names and colours, empty last', () => {
    const { items, get } = board(7, (i) => ({ st: [null, 'done', 'todo', 'done', 'doing', 'done', 'todo'][i] }));
    const data = aggregate(items, status, get, opts);
    expect(summary(data.buckets)).toEqual(['todo=2', 'doing=1', 'done=3', `${EMPTY_BUCKET}=1`]);
    expect(data.buckets[2]).toMatchObject({ kind: 'option', label: 'Done', color: status.settings.options[2]!.color, itemIds: ['i1', 'i3', 'i5'] });
    expect(data.buckets[3]!.kind).toBe('empty');
  });

  it('counts an item once in each of its labels', () => {
    const { items, get } = board(3, (i) => ({ lb: [['red', 'blue'], ['blue'], []][i] }));
    expect(summary(aggregate(items, labels, get, opts).buckets)).toEqual(['red=1', 'blue=2', `${EMPTY_BUCKET}=1`]);
  });

  it('names members through the given lookup, unknown ones with an empty label', () => {
    const { items, get } = board(4, (i) => ({ mb: [[1, 2], [2], [9], null][i] }));
    const data = aggregate(items, members, get, { ...opts, names: { member: (id) => ({ 1: 'Ana', 2: 'Bo' })[id] } });
    const byKey = new Map(data.buckets.map((b) => [b.key, b]));
    expect(byKey.get('2')).toMatchObject({ kind: 'member', label: 'Bo', value: 2 });
    expect(byKey.get('1')).toMatchObject({ label: 'Ana', value: 1 });
    expect(byKey.get('9')).toMatchObject({ label: '', value: 1 });
    expect(data.buckets.at(-1)!.key).toBe(EMPTY_BUCKET);
    // Largest first for names.
    expect(data.buckets[0]!.key).toBe('2');
  });

  it('puts dates in months, in time order, whatever the day or time of day; ranges by their start', () => {
    const { items, get } = board(5, (i) => ({
      due: ['2026-03-31', '2026-01-01', '2026-03-01T23:30', '2025-12-31T00:00', null][i],
      span: [{ start: '2026-01-31', end: '2026-02-02' }, { start: '2026-02-01', end: '2026-02-01' }, null, null, null][i],
    }));
    expect(summary(aggregate(items, due, get, opts).buckets)).toEqual(['2025-12=1', '2026-01=1', '2026-03=2', `${EMPTY_BUCKET}=1`]);
    expect(aggregate(items, due, get, opts).buckets[0]).toMatchObject({ kind: 'month', label: '2025-12' });
    expect(summary(aggregate(items, span, get, opts).buckets)).toEqual(['2026-01=1', '2026-02=1', `${EMPTY_BUCKET}=3`]);
  });

  it('sums a number attribute per bucket (empty numbers add nothing, decimals do not drift)', () => {
    const { items, get } = board(5, (i) => ({ st: ['todo', 'todo', 'done', 'done', 'done'][i], pts: [0.1, 0.2, 5, null, 2.5][i] }));
    const data = aggregate(items, status, get, { ...opts, sumAttribute: points });
    // Only values that occur get a bucket ("Doing" has no item here).
    expect(summary(data.buckets)).toEqual(['todo=0.3', 'done=7.5']);
    expect(data.buckets.find((b) => b.key === 'done')!.itemIds).toHaveLength(3);
  });

  it('orders numbers ascending and checkboxes checked first', () => {
    const { items, get } = board(4, (i) => ({ pts: [10, 2, 10, null][i], ok: [true, false, null, true][i] }));
    expect(summary(aggregate(items, points, get, opts).buckets)).toEqual(['2=1', '10=2', `${EMPTY_BUCKET}=1`]);
    expect(aggregate(items, done, get, opts).buckets.map((b) => `${b.kind}=${b.value}`)).toEqual(['checked=2', 'unchecked=2']);
  });

  it('stacks the axis attribute by a second one', () => {
    const { items, get } = board(6, (i) => ({ st: ['todo', 'todo', 'done', 'done', 'done', null][i], own: ['Ana', 'Bo', 'Ana', 'Ana', 'Bo', 'Ana'][i] }));
    const data = aggregate(items, status, get, { ...opts, stackBy: owner });
    expect(data.buckets.map((b) => b.key)).toEqual(['todo', 'done', EMPTY_BUCKET]);
    const ana = data.stacks!.find((s) => s.key === 'Ana')!;
    const bo = data.stacks!.find((s) => s.key === 'Bo')!;
    expect(ana.values).toEqual([1, 2, 1]);
    expect(bo.values).toEqual([1, 1, 0]);
    expect(ana.itemIds[1]).toEqual(['i2', 'i3']);
  });
});

describe('Top 20 values and what cannot be charted', () => {
  it('keeps the 20 largest values and says how many were left out', () => {
    // 30 owners; owner k has k+1 items.
    const owners: string[] = [];
    for (let k = 0; k < 30; k++) for (let j = 0; j <= k; j++) owners.push(`Owner ${k}`);
    const { items, get } = board(owners.length, (i) => ({ own: owners[i] }));
    const result = buildChart(items, { type: 'bar', attributes: [owner], top20: true }, get);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [panel] = result.panels;
    expect(panel!.buckets).toHaveLength(TOP_VALUES);
    expect(panel!.omitted).toBe(10);
    expect(panel!.buckets[0]).toMatchObject({ label: 'Owner 29', value: 30 });
    expect(panel!.buckets.at(-1)).toMatchObject({ label: 'Owner 10', value: 11 });
  });

  it('refuses too many values without Top 20, and draws them with it', () => {
    const { items, get } = board(MAX_BUCKETS + 1, (i) => ({ own: `Name ${i}` }));
    expect(buildChart(items, { type: 'pie', attributes: [owner], top20: false }, get)).toEqual({ ok: false, problem: 'too-many-values' });
    expect(buildChart(items, { type: 'pie', attributes: [owner], top20: true }, get).ok).toBe(true);
  });

  it('cannot be generated without attributes, with more than 7, with an unchartable kind, a non-number sum or no items', () => {
    const { items, get } = board(3, () => ({ st: 'todo' }));
    expect(buildChart(items, { type: 'bar', attributes: [], top20: false }, get)).toEqual({ ok: false, problem: 'no-attributes' });
    expect(buildChart(items, { type: 'bar', attributes: Array(8).fill(status), top20: false }, get)).toEqual({ ok: false, problem: 'too-many-attributes' });
    expect(buildChart(items, { type: 'bar', attributes: [{ id: 'f', kind: 'attachments' }], top20: false }, get)).toEqual({ ok: false, problem: 'not-chartable' });
    expect(buildChart(items, { type: 'bar', attributes: [status], sumAttribute: owner, top20: false }, get)).toEqual({ ok: false, problem: 'sum-not-number' });
    expect(buildChart([], { type: 'bar', attributes: [status], top20: false }, get)).toEqual({ ok: false, problem: 'no-items' });
  });

  it('draws one panel per attribute, or for a stacked bar one per attribute after the first', () => {
    const { items, get } = board(4, (i) => ({ st: 'todo', own: `A${i % 2}`, pts: i }));
    const bars = buildChart(items, { type: 'bar', attributes: [status, owner, points], top20: false }, get);
    expect(bars.ok && bars.panels.map((p) => p.attribute.id)).toEqual(['st', 'own', 'pts']);
    const stacked = buildChart(items, { type: 'stacked-bar', attributes: [status, owner, points], top20: false }, get);
    expect(stacked.ok && stacked.panels.map((p) => `${p.attribute.id}×${p.stackBy?.id}`)).toEqual(['st×own', 'st×pts']);
    const single = buildChart(items, { type: 'stacked-bar', attributes: [status], top20: false }, get);
    expect(single.ok && single.panels[0]!.stacks).toBeUndefined();
  });
});

describe('chart option and segments', () => {
  const text = { measure: 'Items', label: (h: { label: string; kind: string }) => (h.kind === 'empty' ? 'No value' : h.label) };
  const { items, get } = board(5, (i) => ({ st: ['todo', 'done', 'done', null, 'todo'][i], own: ['Ana', 'Bo', 'Ana', 'Bo', 'Bo'][i] }));

  it('lays bars out right to left in a right-to-left page, with the option colours', () => {
    const panel = aggregate(items, status, get, opts);
    const ltr = chartOption(panel, 'bar', text, false) as any;
    const rtl = chartOption(panel, 'bar', text, true) as any;
    expect(ltr.xAxis.inverse).toBe(false);
    expect(rtl.xAxis.inverse).toBe(true);
    expect(rtl.yAxis.position).toBe('right');
    expect(ltr.xAxis.data).toEqual(['To do', 'Done', 'No value']);
    expect(ltr.series[0].data.map((d: any) => d.value)).toEqual([2, 2, 1]);
    expect(ltr.series[0].data[1].itemStyle.color).toBe(status.settings.options[2]!.color);
    const donut = chartOption(panel, 'donut', text, true) as any;
    expect(donut.series[0].radius).toEqual(['45%', '70%']);
    expect(donut.series[0].data.map((d: any) => d.name)).toEqual(['To do', 'Done', 'No value']);
  });

  it('maps a clicked segment back to its items, in a stacked bar by stack too', () => {
    const plain = aggregate(items, status, get, opts);
    expect(segmentOf(plain, 0, 1, text)).toEqual({ title: 'Done', itemIds: ['i1', 'i2'] });
    expect(segmentOf(plain, 0, 9, text)).toBeNull();
    const stacked = aggregate(items, status, get, { ...opts, stackBy: owner });
    const bo = stacked.stacks!.findIndex((s) => s.key === 'Bo');
    expect(segmentOf(stacked, bo, 0, text)).toEqual({ title: 'To do · Bo', itemIds: ['i4'] });
    expect(segmentOf(stacked, -1, 0, text)).toEqual({ title: 'To do', itemIds: ['i0', 'i4'] });
    const option = chartOption(stacked, 'stacked-bar', text, false) as any;
    expect(option.series.map((s: any) => s.stack)).toEqual(['total', 'total']);
  });
});
