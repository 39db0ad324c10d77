import { describe, expect, it } from 'vitest';
import { dropProblem, positionInGroup, rowDropTarget, UNAUTHORIZED, VALUE_BLOCK, windowBlockIds, type TableRow } from '../../src/boards/table/table-rows';
import { GroupMessages } from '../../src/boards/model/groups';
import type { Group } from '../../src/boards/model/query';

type I = { id: string; position: number };
const item = (id: string, position: number): I => ({ id, position });
const group = (key: string, items: I[]): Group<I> => ({ key, title: key, items }) as Group<I>;
const rowsOf = (groups: Group<I>[]): TableRow<I>[] => groups.flatMap((g) => [{ kind: 'group' as const, group: g }, ...g.items.map((i) => ({ kind: 'item' as const, item: i }))]);

describe('table rows', () => {
  const todo = group('todo', [item('a', 1), item('b', 2)]);
  const done = group('done', [item('c', 1)]);
  const groups = [todo, done];
  const rows = rowsOf(groups); // 0 todo, 1 a, 2 b, 3 done, 4 c

  it('drop targets: over a header its group start, over a row above or below it by the half', () => {
    expect(rowDropTarget(rows, groups, 3 * 36 + 5)).toEqual({ key: 'done', index: 0, y: 4 * 36 });
    expect(rowDropTarget(rows, groups, 1 * 36 + 5)).toEqual({ key: 'todo', index: 0, y: 36 });
    expect(rowDropTarget(rows, groups, 2 * 36 + 30)).toEqual({ key: 'todo', index: 2, y: 3 * 36 });
    expect(rowDropTarget(rows, groups, 99 * 36)).toEqual({ key: 'done', index: 1, y: 5 * 36 });
    expect(rowDropTarget([], [], 0)).toBeNull();
  });

  it('positions between the neighbours, leaving out the dragged row; none when it would not move', () => {
    expect(positionInGroup(groups, 'done', 'a', 1)).toBe(2);
    expect(positionInGroup(groups, 'done', 'a', 0)).toBe(0);
    expect(positionInGroup(groups, 'todo', 'b', 0)).toBe(0);
    expect(positionInGroup(groups, 'todo', 'a', 1)).toBeNull();
    expect(positionInGroup(groups, 'todo', 'a', 0)).toBeNull();
  });

  it('the group rules refuse moves the Column view refuses', () => {
    const status = { id: 's', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do', color: '#fff' }] } };
    expect(dropProblem(status, 'gone', 'todo', true)).toBe(GroupMessages.cannotMoveHere);
    expect(dropProblem(status, 'gone', 'gone', true)).toBeNull();
    expect(dropProblem(status, 'todo', 'x', false)).toBe(UNAUTHORIZED);
    expect(dropProblem({ id: 'm', kind: 'members', settings: {} }, 'x', 'y', true)).toBe(GroupMessages.cannotMoveByAttribute);
  });

  it('values are read by whole blocks of rows plus the next block', () => {
    const many: TableRow<I>[] = Array.from({ length: 300 }, (_, i) => ({ kind: 'item', item: item(`i${i}`, i) }));
    const ids = windowBlockIds(many, 10, 30);
    expect(ids).toHaveLength(2 * VALUE_BLOCK);
    expect(windowBlockIds(many, 12, 33)).toEqual(ids);
    expect(windowBlockIds(many, 290, 299)).toHaveLength(300 - 4 * VALUE_BLOCK);
  });
});
