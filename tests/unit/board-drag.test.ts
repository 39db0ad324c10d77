import { describe, expect, it } from 'vitest';
import type { CollisionDetection, DroppableContainer, KeyboardCoordinateGetter } from '@dnd-kit/core';
import { dropIndex, previewGroups, previewIndex, reorderedKeys } from '../../src/boards/column/card-moves';
import { accepts, keyboardAccepting, onlyAccepting, pointerNow } from '../../src/ui/drag/data';
import { inlineStep } from '../../src/ui/drag/direction';
import { isInteractive } from '../../src/ui/drag/sensors';
import { nextCell } from '../../src/boards/model/grid-keys';
import { rowDropTarget, windowBlockIds, type RowSource } from '../../src/boards/table/table-rows';
import type { Group } from '../../src/boards/model/query';

type I = { id: string };
const group = (key: string, ids: string[]): Group<I> => ({ key, title: key, items: ids.map((id) => ({ id })) }) as Group<I>;
const idsOf = (groups: Group<I>[]) => Object.fromEntries(groups.map((g) => [g.key, g.items.map((i) => i.id)]));

describe('kanban card moves', () => {
  const groups = [group('todo', ['a', 'b', 'c']), group('done', ['d'])];

  it('shows a dragged card in the column it is over, leaving the others as they are', () => {
    expect(idsOf(previewGroups(groups, { itemId: 'b', key: 'done', index: 0 }))).toEqual({ todo: ['a', 'c'], done: ['b', 'd'] });
    expect(idsOf(previewGroups(groups, { itemId: 'b', key: 'done', index: 9 }))).toEqual({ todo: ['a', 'c'], done: ['d', 'b'] });
    expect(previewGroups(groups, null)).toBe(groups);
    expect(previewGroups(groups, { itemId: 'b', key: 'done', index: 0 })[0]).not.toBe(groups[0]);
  });

  it('previews at the card under it (after it from its lower half) or at the end of the column', () => {
    expect(previewIndex(groups, 'done', 'd', false)).toBe(0);
    expect(previewIndex(groups, 'done', 'd', true)).toBe(1);
    expect(previewIndex(groups, 'done', null, false)).toBe(1);
    expect(previewIndex(groups, 'todo', 'zz', false)).toBe(3);
  });

  it('drops onto a card by taking its place (the sortable order), counted without the card', () => {
    expect(dropIndex(groups, 'todo', 'c', 'a')).toBe(0);
    expect(dropIndex(groups, 'todo', 'a', 'c')).toBe(2);
    expect(dropIndex(groups, 'todo', 'b', null)).toBe(1);
    const shown = previewGroups(groups, { itemId: 'b', key: 'done', index: 1 });
    expect(dropIndex(shown, 'done', 'b', null)).toBe(1);
  });

  it('reorders columns as the sortable shows them', () => {
    expect(reorderedKeys(['todo', 'doing', 'done'], 'done', 'todo')).toEqual(['done', 'todo', 'doing']);
    expect(reorderedKeys(['todo', 'doing', 'done'], 'todo', 'done')).toEqual(['doing', 'done', 'todo']);
    expect(reorderedKeys(['todo', 'doing'], 'gone', 'todo')).toEqual(['todo', 'doing']);
  });
});

describe('drag data', () => {
  const holder = (current: unknown) => ({ data: { current } }) as unknown as DroppableContainer;
  const card = holder({ type: 'card', label: 'A' });
  const cardPlace = holder({ accepts: ['card'], label: 'To do' });
  const columnPlace = holder({ type: 'column', accepts: ['column'], label: 'Done' });

  it('a target takes only the kinds it names', () => {
    expect(accepts(card, cardPlace)).toBe(true);
    expect(accepts(card, columnPlace)).toBe(false);
    expect(accepts(holder({ label: 'no kind' }), cardPlace)).toBe(false);
    expect(accepts(null, cardPlace)).toBe(false);
  });

  it('collision detection and keyboard moves see only the accepting targets', () => {
    let seen: unknown[] = [];
    const detect: CollisionDetection = (args) => ((seen = args.droppableContainers), []);
    onlyAccepting(detect)({ active: card, droppableContainers: [cardPlace, columnPlace] } as never);
    expect(seen).toEqual([cardPlace]);

    let enabled: unknown[] = [];
    const getter: KeyboardCoordinateGetter = (_event, { context }) => void (enabled = context.droppableContainers.getEnabled());
    const all = { getEnabled: () => [cardPlace, columnPlace], get: () => undefined };
    keyboardAccepting(getter)({} as KeyboardEvent, { active: 'a', currentCoordinates: { x: 0, y: 0 }, context: { active: card, droppableContainers: all } as never });
    expect(enabled).toEqual([cardPlace]);
  });

  it('the pointer now is where the press began plus the drag; none for the keyboard', () => {
    expect(pointerNow({ clientX: 10, clientY: 20 } as MouseEvent, { x: 5, y: -3 })).toEqual({ x: 15, y: 17 });
    expect(pointerNow({ touches: [{ clientX: 1, clientY: 2 }], changedTouches: [] } as unknown as TouchEvent, { x: 1, y: 1 })).toEqual({ x: 2, y: 3 });
    expect(pointerNow({ key: ' ' } as KeyboardEvent, { x: 5, y: 5 })).toBeNull();
    expect(pointerNow(null, { x: 0, y: 0 })).toBeNull();
  });

  it('presses on controls inside a draggable do not drag; the draggable itself and drag-through controls do', () => {
    const el = (tag: string, attrs: Record<string, string> = {}, parent: any = null): any => {
      const node: any = {
        tag,
        parent,
        hasAttribute: (a: string) => a in attrs,
        contains: (other: any) => {
          for (let n = other; n; n = n.parent) if (n === node) return true;
          return false;
        },
        closest: (selector: string) => {
          const tags = selector.split(',').map((s) => s.trim());
          for (let n = node; n; n = n.parent) if (tags.includes(n.tag) || (n.attrs && tags.some((s: string) => s.startsWith('[') && s.slice(1, -1) in n.attrs))) return n;
          return null;
        },
      };
      node.attrs = attrs;
      return node;
    };
    const row = el('div');
    const checkbox = el('input', {}, row);
    const text = el('span', {}, row);
    const sort = el('button', { 'data-drag-through': '' }, row);
    expect(isInteractive(checkbox, row)).toBe(true);
    expect(isInteractive(text, row)).toBe(false);
    expect(isInteractive(sort, row)).toBe(false);
    const buttonCard = el('button');
    expect(isInteractive(buttonCard, buttonCard)).toBe(false);
    expect(isInteractive(null, row)).toBe(false);
  });
});

describe('right to left', () => {
  it('arrows step by what is seen: → is the previous column in a right-to-left page', () => {
    expect(inlineStep('ArrowRight', false)).toBe(1);
    expect(inlineStep('ArrowRight', true)).toBe(-1);
    expect(inlineStep('ArrowLeft', true)).toBe(1);
    expect(inlineStep('ArrowUp', true)).toBe(0);
  });

  it('the grid swaps ← and → when it runs right to left', () => {
    const size = { rows: 3, cols: 4, pageRows: 2 };
    expect(nextCell({ row: 1, col: 1 }, { key: 'ArrowLeft', rtl: true }, size)).toEqual({ row: 1, col: 2 });
    expect(nextCell({ row: 1, col: 1 }, { key: 'ArrowRight', rtl: true }, size)).toEqual({ row: 1, col: 0 });
    expect(nextCell({ row: 1, col: 1 }, { key: 'ArrowLeft' }, size)).toEqual({ row: 1, col: 0 });
  });
});

describe('table rows through a RowSource', () => {
  const todo = { key: 'todo', title: 'todo', items: [{ id: 'a' }] } as Group<I>;
  const rows = [{ kind: 'group' as const, group: todo }, { kind: 'item' as const, item: { id: 'a' } }];
  // A window over rows held elsewhere: only count and random access, no array.
  const source: RowSource<I> = { length: rows.length, at: (i) => (i >= 0 ? rows[i] : undefined) };

  it('reads value blocks and drop targets without an array', () => {
    expect(windowBlockIds(source, 0, 1)).toEqual(['a']);
    expect(rowDropTarget(source, [todo], 36 + 30)).toEqual({ key: 'todo', index: 1, y: 72 });
  });

  it('an item row above every group header lands nowhere (at(-1) is not the last row)', () => {
    const loose = [{ kind: 'item' as const, item: { id: 'x' } }, ...rows];
    expect(rowDropTarget(loose, [todo], 5)).toBeNull();
  });
});
