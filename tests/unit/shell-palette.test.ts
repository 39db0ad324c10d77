import { describe, expect, it } from 'vitest';
import { buildIndex, fold, remember, search, type PaletteEntry } from '../../src/palette/palette-search';
import { mergeRecent } from '../../src/screens/workspace/recent-activity';
import { localTarget } from '../../src/screens/later/redirect-target';
import type { ActivityEntry } from '../../src/boards/activity/activity-format';

const entry = (id: string, label: string, kind: PaletteEntry['kind'] = 'item'): PaletteEntry => ({ id, kind, label });

describe('command palette search', () => {
  const index = buildIndex([entry('1', 'Export to CSV drops the last row'), entry('2', 'CSV import'), entry('3', 'Café opening'), entry('4', 'Design landing page'), entry('5', 'Landing')]);

  it('folds case, accents and spaces', () => {
    expect(fold('  Café   Ünïcode ')).toBe('cafe unicode');
  });

  it('needs every word, in any order, and ranks a start above a word start above anywhere', () => {
    expect(search(index, 'csv export', 10).map((e) => e.id)).toEqual(['1']);
    expect(search(index, 'csv', 10).map((e) => e.id)).toEqual(['2', '1']);
    expect(search(index, 'landing', 10).map((e) => e.id)).toEqual(['5', '4']);
    expect(search(index, 'cafe', 10).map((e) => e.id)).toEqual(['3']);
    expect(search(index, 'zzz', 10)).toEqual([]);
  });

  it('narrows while typing on and widens again when the query is cut back', () => {
    const fresh = buildIndex([entry('a', 'alpha'), entry('b', 'alphabet'), entry('c', 'beta')]);
    expect(search(fresh, 'alpha', 10).map((e) => e.id)).toEqual(['a', 'b']);
    expect(search(fresh, 'alphab', 10).map((e) => e.id)).toEqual(['b']);
    expect(search(fresh, 'a', 10).map((e) => e.id).sort()).toEqual(['a', 'b', 'c']);
  });

  it('keeps only the best `limit`', () => {
    const many = buildIndex(Array.from({ length: 500 }, (_, i) => entry(String(i), `task ${i}`)));
    expect(search(many, 'task', 5)).toHaveLength(5);
  });

  it('remembers recent picks newest first without duplicates', () => {
    const a = { kind: 'item', id: 'a' };
    const b = { kind: 'board', id: 'b' };
    expect(remember(remember(remember([], a), b), a)).toEqual([a, b]);
    expect(remember(Array.from({ length: 10 }, (_, i) => ({ kind: 'item', id: String(i) })), a, 8)).toHaveLength(8);
  });
});

describe('workspace overview: recent activity', () => {
  const event = (id: string, type: string, at: string, fields: Partial<ActivityEntry> = {}): ActivityEntry => ({
    id, type, collection: type.split('.')[0]!, record_id: 'r', item_id: 'i1', board_id: 'b1', actor_id: 7, before: null, after: null, created_at: at, ...fields,
  });

  it('merges boards newest first, names items from their events and folds repeated edits', () => {
    const lines = mergeRecent([
      [event('3', 'value.updated', '2026-01-03T00:00:00Z'), event('2', 'value.updated', '2026-01-02T00:00:00Z'), event('1', 'item.created', '2026-01-01T00:00:00Z', { after: { name: 'Plan' } })],
      [event('10', 'comment.created', '2026-01-02T12:00:00Z', { board_id: 'b2', item_id: 'i9' }), event('11', 'view.updated', '2026-01-05T00:00:00Z')],
    ]);
    expect(lines.map((l) => [l.verb, l.subject, l.boardId])).toEqual([
      ['updated', 'Plan', 'b1'],
      ['commented', null, 'b2'],
      ['updated', 'Plan', 'b1'],
      ['created', 'Plan', 'b1'],
    ]);
  });
});

describe('/redirect target', () => {
  it('follows local paths only', () => {
    expect(localTarget(new URLSearchParams('to=/b/abc'))).toBe('/b/abc');
    expect(localTarget(new URLSearchParams('to=//evil.example/x'))).toBeNull();
    expect(localTarget(new URLSearchParams('to=https://evil.example'))).toBeNull();
    expect(localTarget(new URLSearchParams('to=/redirect?to=/x'))).toBeNull();
    expect(localTarget(new URLSearchParams(''))).toBeNull();
  });
});

