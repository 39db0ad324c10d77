import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvRows, dayTotals, entriesIn, weekOf, weekTotals, type MyTimeAnswer, type MyTimeEntry } from '../../src/screens/profile/my-time';

const entry = (id: string, started: string, ended: string | null, fields: Partial<MyTimeEntry> = {}): MyTimeEntry => ({ id, board_id: 'b1', item_id: 'i1', attribute_id: 'a1', description: 'work', started_at: started, ended_at: ended, ...fields });

describe('My time arithmetic', () => {
  // Local times: the screen works in the browser's zone, so the test builds dates the same way.
  const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);
  const iso = (y: number, m: number, d: number, h = 0, min = 0) => local(y, m, d, h, min).toISOString();

  it('finds weeks by the user’s week start, and moves by whole weeks', () => {
    const wednesday = local(2026, 11, 25, 15);
    expect(weekOf(wednesday, 1).start).toEqual(local(2026, 11, 23));
    expect(weekOf(wednesday, 0).start).toEqual(local(2026, 11, 22));
    expect(weekOf(wednesday, 6).start).toEqual(local(2026, 11, 21));
    const previous = weekOf(wednesday, 1, -1);
    expect(previous.start).toEqual(local(2026, 11, 16));
    expect(previous.end).toEqual(local(2026, 11, 23));
  });

  it('sums each entry on the day and week it started; a running one up to now', () => {
    const now = local(2026, 11, 25, 12).getTime();
    const entries = [
      entry('a', iso(2026, 11, 23, 9), iso(2026, 11, 23, 10, 30)), // Mon 1:30
      entry('b', iso(2026, 11, 23, 23, 30), iso(2026, 11, 24, 0, 30)), // Mon night, 1:00, counts on Monday
      entry('c', iso(2026, 11, 25, 11), null), // Wed, running: 1:00 so far
      entry('d', iso(2026, 11, 17, 9), iso(2026, 11, 17, 11)), // the week before, 2:00
    ];
    const week = weekOf(new Date(now), 1);
    const days = dayTotals(entries, week.start, now).map((d) => d.ms / 60_000);
    expect(days).toEqual([150, 0, 60, 0, 0, 0, 0]);
    const weeks = weekTotals(entries, weekOf(new Date(now), 1, -1).start, 2, now).map((w) => w.ms / 60_000);
    expect(weeks).toEqual([120, 210]);
    expect(entriesIn(entries, week.start, week.end).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });

  it('writes CSV rows that survive commas, quotes and line breaks in descriptions', () => {
    const answer: MyTimeAnswer = { attributeNames: { a1: 'Time' }, itemNames: { i1: 'Report, final' }, boardNames: { b1: 'Ops' }, entries: [] };
    const entries = [entry('a', '2026-11-23T09:00:00.000Z', '2026-11-23T10:30:00.000Z', { description: 'said "hi",\nthen left' }), entry('b', '2026-11-23T11:00:00.000Z', '2026-11-23T11:15:00.000Z', { item_id: 'gone' })];
    const rows = csvRows(answer, entries, ['Started', 'Ended', 'Hours', 'Duration', 'Board', 'Item', 'Attribute', 'Description'], 0);
    const parsed = Papa.parse<string[]>(Papa.unparse(rows)).data;
    expect(parsed[1]).toEqual(['2026-11-23T09:00:00.000Z', '2026-11-23T10:30:00.000Z', '1.50', '1:30', 'Ops', 'Report, final', 'Time', 'said "hi",\nthen left']);
    expect(parsed[2]![5]).toBe(''); // an item the user can no longer read has no name
  });
});
