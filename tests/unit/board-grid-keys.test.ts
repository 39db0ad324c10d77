import { describe, expect, it } from 'vitest';
import { nextCell } from '../../src/boards/model/grid-keys';

const size = { rows: 100, cols: 5, pageRows: 20 };

describe('table keyboard navigation', () => {
  it('moves with arrows and stops at the edges', () => {
    expect(nextCell({ row: 0, col: 0 }, { key: 'ArrowDown' }, size)).toEqual({ row: 1, col: 0 });
    expect(nextCell({ row: 0, col: 0 }, { key: 'ArrowUp' }, size)).toEqual({ row: 0, col: 0 });
    expect(nextCell({ row: 3, col: 4 }, { key: 'ArrowRight' }, size)).toEqual({ row: 3, col: 4 });
    expect(nextCell({ row: 3, col: 2 }, { key: 'ArrowDown', ctrl: true }, size)).toEqual({ row: 99, col: 2 });
  });
  it('jumps with Home, End and pages', () => {
    expect(nextCell({ row: 5, col: 3 }, { key: 'Home' }, size)).toEqual({ row: 5, col: 0 });
    expect(nextCell({ row: 5, col: 3 }, { key: 'End', ctrl: true }, size)).toEqual({ row: 99, col: 4 });
    expect(nextCell({ row: 95, col: 1 }, { key: 'PageDown' }, size)).toEqual({ row: 99, col: 1 });
    expect(nextCell({ row: 25, col: 1 }, { key: 'PageUp' }, size)).toEqual({ row: 5, col: 1 });
  });
  it('walks cells with Tab and wraps rows; leaves the grid at its ends', () => {
    expect(nextCell({ row: 2, col: 4 }, { key: 'Tab' }, size)).toEqual({ row: 3, col: 0 });
    expect(nextCell({ row: 2, col: 0 }, { key: 'Tab', shift: true }, size)).toEqual({ row: 1, col: 4 });
    expect(nextCell({ row: 99, col: 4 }, { key: 'Tab' }, size)).toBeNull();
    expect(nextCell({ row: 0, col: 0 }, { key: 'a' }, size)).toBeNull();
    expect(nextCell({ row: 0, col: 0 }, { key: 'ArrowDown' }, { rows: 0, cols: 3, pageRows: 1 })).toBeNull();
  });
});
