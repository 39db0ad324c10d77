import { cmp, RangeSet, rangesOverlap } from 'dexie';
import { describe, expect, it } from 'vitest';
import { keySet } from '../../sync-worker/stream';

/** The stream's change notices (decision 0310) build their key sets at once; Dexie and the tabs read them as Dexie's own. */
const inOrder = (node: any, out: unknown[] = []): unknown[] => {
  if (!node || !('from' in node)) return out;
  inOrder(node.l, out);
  out.push(node.from);
  inOrder(node.r, out);
  return out;
};
const depth = (node: any): number => (node && 'from' in node ? 1 + Math.max(depth(node.l), depth(node.r)) : 0);

describe('keySet', () => {
  const ids = ['b', 'B', 'a-1', 'a_1', 'Z', 'é', 'a', '0', 'zz', 'a', 'B'].concat(Array.from({ length: 500 }, (_, i) => `id${(i * 7919) % 1000}`));

  it('holds the same keys, in Dexie’s order, as addKeys, in a balanced tree', () => {
    const built = keySet(ids.map((id) => ['value', id]));
    const reference = new RangeSet().addKeys(ids.map((id) => ['value', id]));
    const a = inOrder(built);
    const b = inOrder(reference);
    expect(a.length).toBe(new Set(ids).size);
    expect(a.length).toBe(b.length);
    a.forEach((k, i) => expect(cmp(k, b[i])).toBe(0));
    for (let i = 1; i < a.length; i++) expect(cmp(a[i - 1], a[i])).toBe(-1);
    expect((built as any).d).toBe(depth(built));
    expect(depth(built)).toBeLessThanOrEqual(Math.ceil(Math.log2(a.length + 1)));
  });

  it('overlaps exactly the keys it holds', () => {
    const built = keySet(ids.map((id) => ['value', id]));
    for (const id of ids) expect(rangesOverlap(built, new RangeSet(['value', id]))).toBe(true);
    expect(rangesOverlap(built, new RangeSet(['value', 'not-there']))).toBe(false);
    expect(rangesOverlap(built, new RangeSet(['item', 'a']))).toBe(false);
    expect(rangesOverlap(built, new RangeSet(['value', ''], ['value', '\uffff']))).toBe(true);
  });

  it('takes other key shapes one by one, and is empty for no keys', () => {
    const mixed = keySet([['value', 'a'], ['item', 'b'], ['value', 3]]);
    expect(inOrder(mixed)).toHaveLength(3);
    expect(rangesOverlap(mixed, new RangeSet(['value', 3]))).toBe(true);
    expect('from' in keySet([])).toBe(false);
  });
});
