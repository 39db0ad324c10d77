import { describe, expect, it } from 'vitest';
import { activityLine, activityQuery, dayStart, valueWords, type ActivityEntry, type ActivityLookup, type Words } from '../../src/boards/activity/activity-format';

const attributes = {
  st: { id: 'st', name: 'Status', kind: 'status', settings: { options: [ { id: 'o1', name: 'Open', color: '#fff' }, { id: 'o2', name: 'Done', color: '#000' } ] } },
  ow: { id: 'ow', name: 'Owner', kind: 'members', settings: {} },
  due: { id: 'due', name: 'Due', kind: 'date', settings: {} },
  ok: { id: 'ok', name: 'Approved', kind: 'checkbox', settings: {} },
  ref: { id: 'ref', name: 'Blocks', kind: 'reference', settings: {} },
} as const;
const lookup: ActivityLookup = {
  attribute: (id) => (attributes as Record<string, (typeof attributes)[keyof typeof attributes]>)[id],
  memberName: (id) => ({ 1: 'Ann', 2: 'Bo' })[id],
  folderName: (id) => ({ f1: 'Backlog', f2: 'Sprint 1' })[id],
  itemName: (id) => ({ i1: 'Fix login', i2: 'Ship it' })[id],
};
const words: Words = { name: 'Name', folder: 'Folder', pinned: 'Pinned', text: 'Text', description: 'Description', kind: 'Type', hidden: 'Hidden', yes: 'Yes', no: 'No', unknown: '?', formerMember: 'Former member', deleted: '(deleted)', formatDate: (iso) => `D(${iso})` };
const entry = (type: string, extra: Partial<ActivityEntry>): ActivityEntry => ({ id: '1', type, collection: null, record_id: null, item_id: 'i1', board_id: 'b', actor_id: 1, before: null, after: null, created_at: '2026-11-24T10:00:00Z', ...extra });

describe('activity lines', () => {
  it('names the attribute and the options of a status change, never ids', () => {
    const line = activityLine(entry('value.updated', { collection: 'value', record_id: 'i1.st', before: { value: 'o1' }, after: { value: 'o2' } }), lookup, words);
    expect(line).toMatchObject({ action: 'updated', subject: 'value', itemName: 'Fix login', target: 'Status', changes: [{ field: 'Status', before: 'Open', after: 'Done' }] });
  });

  it('writes members, references, dates and checkboxes as words, a value first set as (empty) → value', () => {
    const members = activityLine(entry('value.created', { record_id: 'i1.ow', after: { id: 'i1.ow', item_id: 'i1', attribute_id: 'ow', value: [1, 2, 9] } }), lookup, words);
    expect(members!.changes).toEqual([{ field: 'Owner', before: null, after: 'Ann, Bo, Former member' }]);
    expect(valueWords(attributes.ref, ['i2', 'gone'], lookup, words)).toBe('Ship it, (deleted)');
    expect(valueWords(attributes.due, '2026-12-01', lookup, words)).toBe('D(2026-12-01)');
    expect(valueWords(attributes.ok, true, lookup, words)).toBe('Yes');
    const cleared = activityLine(entry('value.deleted', { record_id: 'i1.due', before: { value: '2026-12-01', attribute_id: 'due' } }), lookup, words);
    expect(cleared!.changes).toEqual([{ field: 'Due', before: 'D(2026-12-01)', after: null }]);
  });

  it('shows an item rename and a move between folders by name, and drops position-only moves', () => {
    const renamed = activityLine(entry('item.updated', { record_id: 'i1', before: { name: 'Fix logn', position: 1 }, after: { name: 'Fix login', position: 2 } }), lookup, words);
    expect(renamed!.changes).toEqual([{ field: 'Name', before: 'Fix logn', after: 'Fix login' }]);
    const moved = activityLine(entry('item.updated', { record_id: 'i1', before: { folder_id: 'f1' }, after: { folder_id: 'f2' } }), lookup, words);
    expect(moved!.changes).toEqual([{ field: 'Folder', before: 'Backlog', after: 'Sprint 1' }]);
    expect(activityLine(entry('item.updated', { record_id: 'i1', before: { position: 1, row_version: 2 }, after: { position: 3, row_version: 3 } }), lookup, words)).toBeNull();
  });

  it('quotes a new comment as plain words and names a deleted item from its record', () => {
    const comment = activityLine(entry('comment.created', { collection: 'comment', after: { text: { html: '<p>Hi <span data-mention="2">@Bo</span> &amp; all</p>' } } }), lookup, words);
    expect(comment).toMatchObject({ subject: 'comment', action: 'created', target: 'Hi @Bo & all' });
    const gone = activityLine(entry('item.deleted', { item_id: 'zz', record_id: 'zz', before: { name: 'Old item' } }), lookup, words);
    expect(gone).toMatchObject({ itemName: 'Old item', action: 'deleted' });
  });

  it('reads reactions and member events, and skips event types it does not know', () => {
    expect(activityLine(entry('reaction.created', { after: { reaction: '🎉' } }), lookup, words)).toMatchObject({ subject: 'reaction', target: '🎉' });
    expect(activityLine(entry('member.added', { item_id: null, record_id: '2', after: { user_id: 2, role: 'admin' } }), lookup, words)).toMatchObject({ subject: 'member', action: 'created', target: 'Bo' });
    expect(activityLine(entry('webhook.fired', {}), lookup, words)).toBeNull();
  });
});

describe('activity query', () => {
  it('sends only the filters that are set, days as the local midnight instants they span', () => {
    const query = new URLSearchParams(activityQuery({ boardId: 'b1', userId: 7, from: '2026-11-01', to: '2026-11-02' }, 'c9', 25));
    expect(query.get('board_id')).toBe('b1');
    expect(query.get('item_id')).toBeNull();
    expect(query.get('user_id')).toBe('7');
    expect(query.get('from')).toBe(new Date(2026, 10, 1).toISOString());
    expect(query.get('to')).toBe(new Date(2026, 10, 3).toISOString());
    expect(query.get('after')).toBe('c9');
    expect(query.get('limit')).toBe('25');
    expect(dayStart('not a day')).toBeNull();
  });
});
