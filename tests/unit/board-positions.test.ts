import { describe, expect, it } from 'vitest';
import { planMove, positionAtEnd, positionBetween, sortByPosition, type Positioned } from '../../src/boards/model/positions';

const list = (...positions: number[]): Positioned[] => positions.map((p, i) => ({ id: String.fromCharCode(97 + i), position: p }));
const apply = (items: Positioned[], updates: { id: string; position: number }[]) =>
  sortByPosition(items.map((i) => ({ ...i, position: updates.find((u) => u.id === i.id)?.position ?? i.position }))).map((i) => i.id).join('');

describe('fractional positions', () => {
  it('finds a position between, before and after neighbours', () => {
    expect(positionBetween(1, 2)).toBe(1.5);
    expect(positionBetween(null, 1)).toBe(0);
    expect(positionBetween(3, null)).toBe(4);
    expect(positionBetween(null, null)).toBe(1);
    expect(positionBetween(1, 1 + 1e-10)).toBeNull();
    expect(positionAtEnd(list(1, 5, 3))).toBe(6);
  });

  it('orders ties by creation time then id, the same everywhere', () => {
    const items = [{ id: 'b', position: 1 }, { id: 'a', position: 1 }, { id: 'c', position: 1, created_at: '2020' }];
    expect(sortByPosition(items).map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });

  it('moves one record by writing only its own position', () => {
    const items = list(1, 2, 3, 4); // a b c d
    const updates = planMove(items, ['d'], 1);
    expect(updates).toHaveLength(1);
    expect(apply(items, updates)).toBe('adbc');
    expect(apply(items, planMove(items, ['a'], 4))).toBe('bcda');
    expect(apply(items, planMove(items, ['b'], 0))).toBe('bacd');
  });

  it('moves several records together, keeping their order', () => {
    const items = list(1, 2, 3, 4, 5);
    expect(apply(items, planMove(items, ['e', 'a'], 2))).toBe('beacd');
  });

  it('renumbers when the gap is used up, and the order still comes out right', () => {
    const items = list(1, 1 + 1e-10, 3);
    const updates = planMove(items, ['c'], 1);
    expect(updates.length).toBeGreaterThan(1);
    expect(apply(items, updates)).toBe('acb');
  });

  it('survives many moves into the same gap', () => {
    let items = list(1, 2, 3);
    for (let i = 0; i < 200; i++) {
      const moved = i % 2 === 0 ? 'c' : 'b';
      items = items.map((it) => ({ ...it, position: planMove(items, [moved], 1).find((u) => u.id === it.id)?.position ?? it.position }));
      expect(sortByPosition(items)[1]!.id).toBe(moved);
    }
  });
});
