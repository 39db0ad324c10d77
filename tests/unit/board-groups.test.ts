import { describe, expect, it } from 'vitest';
import { newLabel } from '../../schema/attributes';
import { arrangeGroupsProblem, columnGroupProblem, createItemProblem, GroupMessages, moveIntoGroupProblem, valueForGroup } from '../../src/boards/model/groups';
import { EMPTY_GROUP } from '../../src/boards/model/query';

const status = { id: 's', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('done', 'Done')] } };
const single = { id: 'l', kind: 'label', settings: { multiple: false, options: [newLabel('a', 'A')] } };
const multi = { id: 'm', kind: 'label', settings: { multiple: true, options: [newLabel('a', 'A')] } };

describe('kanban group rules', () => {
  it('groups columns only by a status or a single-choice label', () => {
    expect(columnGroupProblem(status)).toBeNull();
    expect(columnGroupProblem(single)).toBeNull();
    expect(columnGroupProblem(multi)).toBe(GroupMessages.multipleLabel);
    expect(columnGroupProblem({ id: 'x', kind: 'members' })).toBe(GroupMessages.notGroupable);
  });

  it('refuses moves into removed options and under derived attributes', () => {
    expect(moveIntoGroupProblem(status, 'done')).toBeNull();
    expect(moveIntoGroupProblem(status, EMPTY_GROUP)).toBeNull();
    expect(moveIntoGroupProblem(status, 'deleted-option')).toBe(GroupMessages.cannotMoveHere);
    expect(moveIntoGroupProblem({ id: 'c', kind: 'custom-id' }, 'x')).toBe(GroupMessages.cannotMoveByAttribute);
    expect(moveIntoGroupProblem({ id: 'r', kind: 'members' }, '1,2')).toBe(GroupMessages.cannotMoveByAttribute);
    expect(moveIntoGroupProblem(multi, 'a')).toBe(GroupMessages.multipleLabel);
  });

  it('turns a group key back into the value', () => {
    expect(valueForGroup(status, 'done')).toBe('done');
    expect(valueForGroup(status, EMPTY_GROUP)).toBeNull();
    expect(valueForGroup({ id: 'c', kind: 'checkbox' }, 'false')).toBe(false);
    expect(valueForGroup({ id: 'n', kind: 'number' }, '4.5')).toBe(4.5);
  });

  it('asks to disable hide-empty-groups before arranging groups, and refuses creation in the overview', () => {
    expect(arrangeGroupsProblem(true)).toBe('Disable hide-empty-groups first.');
    expect(arrangeGroupsProblem(false)).toBeNull();
    expect(createItemProblem({ isOverview: true })).toBe('No item creation in the board overview.');
    expect(createItemProblem({ isOverview: false, attribute: status, groupKey: 'gone' })).toBe(GroupMessages.cannotMoveHere);
    expect(createItemProblem({ isOverview: false, attribute: status, groupKey: 'todo' })).toBeNull();
  });
});
