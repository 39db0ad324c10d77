import { describe, expect, it } from 'vitest';
import { cardFields, MAX_CARD_FIELDS } from '../../src/boards/column/card-fields';

const attr = (id: string, kind: string, position: number, hidden = false) => ({ id, kind, position, hidden });
const board = [
  attr('name', 'primary', 0),
  attr('status', 'status', 1),
  attr('owner', 'members', 2),
  attr('due', 'date', 3),
  attr('notes', 'long-text', 4),
  attr('tags', 'label', 5),
  attr('files', 'attachments', 6),
  attr('secret', 'text', 7, true),
  attr('points', 'number', 8),
  attr('link', 'link', 9),
];
const settings = { column_order: [] as string[], hidden_columns: [] as string[] };

describe('what a kanban card shows besides the name', () => {
  it('the view’s columns in its order, without the name, the grouping, board-hidden and long kinds, at most four', () => {
    expect(cardFields(board, settings, 'status').map((a) => a.id)).toEqual(['owner', 'due', 'tags', 'points']);
    expect(MAX_CARD_FIELDS).toBe(4);
  });
  it('follows the view: its hidden columns are left out and its order is kept', () => {
    expect(cardFields(board, { column_order: ['points', 'due'], hidden_columns: ['owner'] }, 'status').map((a) => a.id)).toEqual(['points', 'due', 'tags', 'link']);
  });
  it('shows nothing more on a board whose only attribute is the one the columns are made of', () => {
    expect(cardFields([attr('name', 'primary', 0), attr('status', 'status', 1)], settings, 'status')).toEqual([]);
  });
});
