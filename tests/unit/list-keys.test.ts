import { describe, expect, it } from 'vitest';
import { listKeyAction } from '../../src/boards/list/list-keys';
import { listProperties, listStatusAttribute } from '../../src/boards/list/list-columns';
import type { TableRow } from '../../src/boards/table/table-rows';

type I = { id: string; name: string };
const item = (id: string): TableRow<I> => ({ kind: 'item', item: { id, name: id } });
const group = (key: string): TableRow<I> => ({ kind: 'group', group: { key, title: key, items: [] } });
// A header, two items, a second header, one item.
const rows: TableRow<I>[] = [group('todo'), item('a'), item('b'), group('done'), item('c')];
const press = (key: string, active: number, extra: { ctrl?: boolean; alt?: boolean } = {}) => listKeyAction({ key, ...extra }, rows, active, 2);

describe('List keyboard model', () => {
  it('moves with j/k and the arrows, stopping at the ends', () => {
    expect(press('j', 1)).toEqual({ kind: 'move', index: 2 });
    expect(press('ArrowDown', 2)).toEqual({ kind: 'move', index: 3 });
    expect(press('k', 1)).toEqual({ kind: 'move', index: 0 });
    expect(press('ArrowUp', 0)).toEqual({ kind: 'move', index: 0 });
    expect(press('j', 4)).toEqual({ kind: 'move', index: 4 });
  });

  it('jumps with Home, End and a page at a time', () => {
    expect(press('End', 0)).toEqual({ kind: 'move', index: 4 });
    expect(press('Home', 3)).toEqual({ kind: 'move', index: 0 });
    expect(press('PageDown', 1)).toEqual({ kind: 'move', index: 3 });
    expect(press('PageUp', 1)).toEqual({ kind: 'move', index: 0 });
  });

  it('opens, selects and picks the status of the item under the cursor', () => {
    expect(press('Enter', 2)).toEqual({ kind: 'open', item: { id: 'b', name: 'b' } });
    expect(press('x', 4)).toEqual({ kind: 'toggle-select', item: { id: 'c', name: 'c' } });
    expect(press('s', 1)).toEqual({ kind: 'pick-status', item: { id: 'a', name: 'a' } });
    expect(press('Escape', 1)).toEqual({ kind: 'clear-selection' });
  });

  it('collapses a group with Enter or Space on its header, and ignores item keys there', () => {
    expect(press('Enter', 3)).toEqual({ kind: 'toggle-group', key: 'done' });
    expect(press(' ', 0)).toEqual({ kind: 'toggle-group', key: 'todo' });
    expect(press('x', 0)).toBeNull();
    expect(press('s', 3)).toBeNull();
  });

  it('leaves modified keys and unknown keys alone, and an empty list does nothing', () => {
    expect(press('j', 1, { ctrl: true })).toBeNull();
    expect(press('k', 1, { alt: true })).toBeNull();
    expect(press('q', 1)).toBeNull();
    expect(listKeyAction({ key: 'j' }, [], 0, 10)).toBeNull();
  });

  it('clamps an active row beyond the end (rows collapsed under it)', () => {
    expect(press('Enter', 9)).toEqual({ kind: 'open', item: { id: 'c', name: 'c' } });
    expect(press('k', 9)).toEqual({ kind: 'move', index: 3 });
  });
});

describe('List row contents', () => {
  const attrs = [
    { id: 'p', kind: 'primary', position: 0 },
    { id: 's1', kind: 'status', position: 1 },
    { id: 'notes', kind: 'long-text', position: 2 },
    { id: 's2', kind: 'status', position: 3 },
    { id: 'who', kind: 'members', position: 4 },
    { id: 'due', kind: 'date', position: 5 },
    { id: 'tag', kind: 'label', position: 6 },
    { id: 'pts', kind: 'number', position: 7 },
  ];
  it('changes the grouping status inline, else the first status', () => {
    expect(listStatusAttribute(attrs, 's2')?.id).toBe('s2');
    expect(listStatusAttribute(attrs, 'tag')?.id).toBe('s1');
    expect(listStatusAttribute(attrs, null)?.id).toBe('s1');
    expect(listStatusAttribute(attrs.filter((a) => a.kind !== 'status'), null)).toBeUndefined();
  });
  it('shows up to four compact properties after the name, never the status or long texts', () => {
    expect(listProperties(attrs, attrs[1]).map((a) => a.id)).toEqual(['s2', 'who', 'due', 'tag']);
  });
});
