import { describe, expect, it } from 'vitest';
import { newLabel } from '../../schema/attributes';
import type { FilterRule, SortRule } from '../../schema/views';
import { ItemOrder, itemOrderFor, type OrderSpec } from '../../src/boards/model/item-order';
import { filterItems, sortItems, type AttributeRef, type ItemLike } from '../../src/boards/model/query';

/** The kept order against the plain filter + sort of model/query.ts, over random edits. */

const status: AttributeRef = { id: 'st', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('doing', 'Doing'), newLabel('done', 'Done')] } };
const num: AttributeRef = { id: 'n', kind: 'number' };
const text: AttributeRef = { id: 'x', kind: 'text' };
const attrs = new Map([status, num, text].map((a) => [a.id, a]));

type It = ItemLike & { folder_id: string; deleted_at?: string | null };

/** A tiny deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function specOf(sort: SortRule[], filters: FilterRule[], match: 'all' | 'any' = 'all'): OrderSpec<It> {
  return { id: JSON.stringify([sort, filters, match]), inScope: (i) => !i.deleted_at && i.folder_id === 'f1', filters, match, sort, attributes: attrs };
}

function expected(items: It[], spec: OrderSpec<It>, get: (i: string, a: string) => unknown): string[] {
  const own = items.filter(spec.inScope);
  return sortItems(filterItems(own, spec.filters, spec.match, attrs, get), spec.sort, attrs, get).map((i) => i.id);
}

const specs: OrderSpec<It>[] = [
  specOf([], []),
  specOf([{ attribute_id: 'n', direction: 'asc' }], []),
  specOf([{ attribute_id: 'st', direction: 'desc' }, { attribute_id: 'name', direction: 'asc' }], [{ attribute_id: 'n', op: 'gt', value: 20 }]),
  specOf([{ attribute_id: 'x', direction: 'asc' }], [{ attribute_id: 'st', op: 'is', value: 'doing' }, { attribute_id: 'x', op: 'contains', value: 'a' }], 'any'),
];

describe('ItemOrder', () => {
  for (const [n, spec] of specs.entries()) {
    it(`keeps the same order as a full filter and sort over random edits (rules ${n})`, () => {
      const rnd = random(17 + n);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
      let items: It[] = Array.from({ length: 300 }, (_, i) => ({ id: `i${i}`, name: `Item ${pick(['a', 'b', 'c', 'd'])}${i % 7}`, position: Math.floor(rnd() * 50), folder_id: rnd() < 0.9 ? 'f1' : 'f2', created_at: `2026-01-0${1 + (i % 5)}` }));
      let values = new Map<string, unknown>();
      for (const item of items) {
        if (rnd() < 0.8) values.set(`${item.id}.n`, Math.floor(rnd() * 40));
        if (rnd() < 0.8) values.set(`${item.id}.st`, pick(['todo', 'doing', 'done']));
        if (rnd() < 0.8) values.set(`${item.id}.x`, pick(['alpha', 'beta', 'gamma', 'delta', '']));
      }
      const reader = (v: Map<string, unknown>) => (i: string, a: string) => v.get(`${i}.${a}`) ?? null;
      let get = reader(values);
      // Half the runs are told which item's values changed (as the value lists tell the pane).
      let edited: string[] = [];
      const hint = n % 2 === 1 ? () => edited : undefined;
      const order = new ItemOrder<It>();
      expect(order.update(items, spec, get).map((i) => i.id)).toEqual(expected(items, spec, get));
      let next = 300;
      for (let round = 0; round < 200; round++) {
        const kind = rnd();
        if (kind < 0.35) {
          // A value edit (a new reader, the item list unchanged).
          values = new Map(values);
          const id = pick(items).id;
          const a = pick(['n', 'st', 'x']);
          values.set(`${id}.${a}`, a === 'n' ? Math.floor(rnd() * 40) : a === 'st' ? pick(['todo', 'doing', 'done', null]) : pick(['alpha', 'beta', 'zeta', '']));
          get = reader(values);
          edited = [id];
        } else if (kind < 0.6) {
          // A rename or a move (a new object for that item only).
          const at = Math.floor(rnd() * items.length);
          items = items.slice();
          items[at] = rnd() < 0.5 ? { ...items[at]!, name: `Item ${pick(['a', 'z'])}${round}` } : { ...items[at]!, position: Math.floor(rnd() * 50), folder_id: pick(['f1', 'f2']) };
        } else if (kind < 0.75) {
          items = [...items, { id: `i${next++}`, name: `New ${round}`, position: Math.floor(rnd() * 50), folder_id: 'f1', created_at: '2026-02-01' }];
        } else if (kind < 0.85) {
          const at = Math.floor(rnd() * items.length);
          items = items.filter((_, i) => i !== at);
        } else if (kind < 0.95) {
          const at = Math.floor(rnd() * items.length);
          items = items.slice();
          items[at] = { ...items[at]!, deleted_at: items[at]!.deleted_at ? null : '2026-03-01' };
        }
        // else: nothing changed at all (the same list and reader).
        const before = order.rebuilds;
        expect(order.update(items, spec, get, hint).map((i) => i.id), `round ${round}`).toEqual(expected(items, spec, get));
        expect(order.rebuilds, 'a single change never sorts everything again').toBe(before);
      }
    });
  }

  it('merges a batch of changes (a page of a streaming open) without sorting everything again', () => {
    const rnd = random(99);
    const spec = specs[2]!;
    const values = new Map<string, unknown>();
    const make = (i: number): It => {
      values.set(`i${i}.n`, Math.floor(rnd() * 40));
      values.set(`i${i}.st`, ['todo', 'doing', 'done'][i % 3]);
      return { id: `i${i}`, name: `Item ${i % 13}`, position: Math.floor(rnd() * 500), folder_id: 'f1' };
    };
    let items = Array.from({ length: 2000 }, (_, i) => make(i));
    const get = (i: string, a: string) => values.get(`${i}.${a}`) ?? null;
    const order = new ItemOrder<It>();
    order.update(items, spec, get);
    for (let page = 0; page < 5; page++) {
      const renamed = new Set(Array.from({ length: 60 }, () => Math.floor(rnd() * items.length)));
      items = [...items.map((item, i) => (renamed.has(i) ? { ...item, name: `Renamed ${page} ${i % 5}`, position: Math.floor(rnd() * 500) } : item)), ...Array.from({ length: 100 }, (_, i) => make(2000 + page * 100 + i))];
      expect(order.update(items, spec, get).map((i) => i.id)).toEqual(expected(items, spec, get));
    }
    expect(order.rebuilds).toBe(1);
  });

  it('returns the same array while nothing changed, and sorts again when the rules change', () => {
    const items: It[] = [
      { id: 'a', name: 'A', position: 2, folder_id: 'f1' },
      { id: 'b', name: 'B', position: 1, folder_id: 'f1' },
    ];
    const get = () => null;
    const order = new ItemOrder<It>();
    const first = order.update(items, specs[0]!, get);
    expect(first.map((i) => i.id)).toEqual(['b', 'a']);
    expect(order.update(items, specs[0]!, get)).toBe(first);
    expect(order.update(items, { ...specs[0]! }, get), 'the same rules in a new object').toBe(first);
    const byName = specOf([{ attribute_id: 'name', direction: 'desc' }], []);
    expect(order.update(items, byName, get).map((i) => i.id)).toEqual(['b', 'a']);
    expect(order.rebuilds).toBe(2);
  });

  it('is kept between mounts under the same key', () => {
    expect(itemOrderFor('board\u0000folder\u0000view')).toBe(itemOrderFor('board\u0000folder\u0000view'));
    expect(itemOrderFor('board\u0000folder\u0000other')).not.toBe(itemOrderFor('board\u0000folder\u0000view'));
  });
});
