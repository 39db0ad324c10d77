import { describe, expect, it } from 'vitest';
import { daysBetween, moveSpan, nowIn, parseBoardDate, resizeSpan, shiftDay, spanOf, todayIn, valueOfSpan } from '../../src/boards/model/date-spans';
import { capPerDay, dayAt, daysOf, monthDays, durationOf, droppedSpan, eventOf, overlaps, resizedSpan, shownRange, valueForDay, type CalendarEvent } from '../../src/boards/calendar/calendar-events';
import { PerItemMemo } from '../../src/boards/model/per-item-memo';

// Run the date math in a zone with DST (the suite's own zone may be UTC, which has none).
process.env.TZ = 'Europe/Berlin';

describe('board date spans', () => {
  it('runs in a zone with a DST change (the premise of the DST cases)', () => {
    expect(new Date(2026, 2, 28, 12).getTimezoneOffset()).toBe(-60);
    expect(new Date(2026, 2, 29, 12).getTimezoneOffset()).toBe(-120);
  });

  it('reads dates and ranges, and refuses what is not one', () => {
    expect(spanOf('2026-03-05', 'date')).toEqual({ start: '2026-03-05', end: '2026-03-05', withTime: false });
    expect(spanOf({ start: '2026-01-30', end: '2026-02-02T10:30' }, 'date-range')).toEqual({ start: '2026-01-30', end: '2026-02-02T10:30', withTime: true });
    expect(spanOf('2026-02-30', 'date')).toBeNull();
    expect(spanOf({ start: '2026-01-01' }, 'date-range')).toBeNull();
    expect(spanOf('2026-01-01', 'text')).toBeNull();
    expect(parseBoardDate('nope')).toBeNull();
  });

  it('moves across a DST change keeping the wall clock', () => {
    // Europe: clocks go forward on 2026-03-29 and back on 2026-10-25.
    expect(moveSpan({ start: '2026-03-28T09:00', end: '2026-03-28T09:00', withTime: true }, { days: 1 }).start).toBe('2026-03-29T09:00');
    expect(moveSpan({ start: '2026-10-24T23:30', end: '2026-10-25T01:30', withTime: true }, { days: 1 })).toMatchObject({ start: '2026-10-25T23:30', end: '2026-10-26T01:30' });
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-10-24', '2026-10-26')).toBe(2);
    expect(shiftDay('2026-03-29', 1)).toBe('2026-03-30');
  });

  it('moves ranges over month and year edges, by months too', () => {
    expect(moveSpan({ start: '2026-01-30', end: '2026-02-02', withTime: false }, { days: 3 })).toMatchObject({ start: '2026-02-02', end: '2026-02-05' });
    expect(moveSpan({ start: '2026-12-30', end: '2027-01-02', withTime: false }, { days: 2 })).toMatchObject({ start: '2027-01-01', end: '2027-01-04' });
    // A month view drop of "one month later" from the 31st lands on the month's last day.
    expect(moveSpan({ start: '2026-01-31', end: '2026-01-31', withTime: false }, { months: 1 }).start).toBe('2026-02-28');
    expect(moveSpan({ start: '2028-02-28', end: '2028-03-01', withTime: false }, { days: 1 })).toMatchObject({ start: '2028-02-29', end: '2028-03-02' });
  });

  it('resizes one edge and never lets a range end before it starts', () => {
    const span = { start: '2026-05-10', end: '2026-05-12', withTime: false };
    expect(resizeSpan(span, 'end', { days: 20 })).toMatchObject({ start: '2026-05-10', end: '2026-06-01' });
    expect(resizeSpan(span, 'start', { days: -10 })).toMatchObject({ start: '2026-04-30', end: '2026-05-12' });
    expect(resizeSpan(span, 'end', { days: -5 })).toMatchObject({ start: '2026-05-10', end: '2026-05-10' });
    expect(resizeSpan(span, 'start', { days: 5 })).toMatchObject({ start: '2026-05-12', end: '2026-05-12' });
  });

  it('stores a span as the attribute kind holds it', () => {
    const span = { start: '2026-05-10', end: '2026-05-12', withTime: false };
    expect(valueOfSpan(span, 'date-range')).toEqual({ start: '2026-05-10', end: '2026-05-12' });
    expect(valueOfSpan(span, 'date')).toBe('2026-05-10');
  });

  it('finds today in the user’s time zone, not the device’s', () => {
    const instant = new Date('2026-11-25T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-11-25');
    expect(todayIn('Asia/Tokyo', instant)).toBe('2026-11-26');
    expect(todayIn('America/Los_Angeles', instant)).toBe('2026-11-25');
    expect(nowIn('Asia/Kolkata', instant)).toBe('2026-11-26T05:00:00');
    // No zone in the profile: the device's (here Europe/Berlin, +1 in November).
    expect(nowIn(null, instant)).toBe('2026-11-26T00:30:00');
    // An unknown zone falls back to the device's rather than failing.
    expect(todayIn('Mars/Olympus', instant)).toBe('2026-11-26');
  });
});

describe('calendar placement', () => {
  const item = { id: 'i1', name: 'Launch' };

  it('places all-day dates and ranges with the library’s exclusive end', () => {
    expect(eventOf(item, '2026-03-31', 'date', '—')).toEqual({ id: 'i1', title: 'Launch', start: '2026-03-31', end: '2026-04-01', allDay: true });
    expect(eventOf(item, { start: '2026-01-30', end: '2026-02-02' }, 'date-range', '—')).toMatchObject({ start: '2026-01-30', end: '2026-02-03', allDay: true });
    expect(eventOf({ id: 'i2', name: ' ' }, '2026-03-31', 'date', 'Untitled')!.title).toBe('Untitled');
    expect(eventOf(item, null, 'date', '—')).toBeNull();
  });

  it('places timed dates in the hours', () => {
    expect(eventOf(item, '2026-03-29T09:00', 'date', '—')).toEqual({ id: 'i1', title: 'Launch', start: '2026-03-29T09:00', allDay: false });
    expect(eventOf(item, { start: '2026-03-29T09:00', end: '2026-03-30T17:00' }, 'date-range', '—')).toMatchObject({ start: '2026-03-29T09:00', end: '2026-03-30T17:00', allDay: false });
  });

  it('buckets events into the shown dates (ranges over a month edge show in both months)', () => {
    const range = eventOf(item, { start: '2026-01-30', end: '2026-02-02' }, 'date-range', '—')!;
    expect(overlaps(range, '2026-01-01', '2026-02-01')).toBe(true);
    expect(overlaps(range, '2026-02-01', '2026-03-01')).toBe(true);
    expect(overlaps(range, '2026-02-03', '2026-03-01')).toBe(false);
    const point = eventOf(item, '2026-02-01T10:00', 'date', '—')!;
    expect(overlaps(point, '2026-02-01', '2026-02-02')).toBe(true);
    expect(overlaps(point, '2026-02-02', '2026-02-03')).toBe(false);
  });

  it('turns the library’s drop and resize deltas into new spans', () => {
    expect(durationOf({ days: 2, milliseconds: 90 * 60_000 })).toEqual({ years: 0, months: 0, days: 2, minutes: 90 });
    expect(droppedSpan({ start: '2026-01-30', end: '2026-02-02' }, 'date-range', durationOf({ days: 3 }))).toMatchObject({ start: '2026-02-02', end: '2026-02-05' });
    expect(droppedSpan('2026-03-28T09:00', 'date', durationOf({ days: 1, milliseconds: 3_600_000 }))).toMatchObject({ start: '2026-03-29T10:00' });
    expect(resizedSpan({ start: '2026-01-30', end: '2026-02-02' }, 'date-range', durationOf({}), durationOf({ days: 2 }))).toMatchObject({ start: '2026-01-30', end: '2026-02-04' });
    expect(resizedSpan({ start: '2026-01-30', end: '2026-02-02' }, 'date-range', durationOf({ days: -1 }), durationOf({}))).toMatchObject({ start: '2026-01-29', end: '2026-02-02' });
  });

  it('gives a clicked day to a new item as the attribute holds it', () => {
    expect(valueForDay('2026-04-02', 'date', false)).toBe('2026-04-02');
    expect(valueForDay('2026-04-02T10:30:00Z', 'date', true)).toBe('2026-04-02T10:30');
    expect(valueForDay('2026-04-02T10:30:00Z', 'date', false)).toBe('2026-04-02');
    expect(valueForDay('2026-04-02', 'date-range', false)).toEqual({ start: '2026-04-02', end: '2026-04-02' });
  });
});

describe('a grid of days given to the library: at most a few per day, the rest counted', () => {
  const allDay = (id: string, start: string, end?: string): CalendarEvent => ({ id, title: id, start, end: end ?? shiftDay(start, 1), allDay: true });

  it('lists the days of a grid over a DST change and a month edge', () => {
    const days = daysOf('2026-03-23', '2026-04-06');
    expect(days).toHaveLength(14);
    expect(days.slice(5, 8)).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(days.at(-1)).toBe('2026-04-05');
    expect(daysOf('2026-12-28', '2027-01-02')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01']);
  });

  it('keeps the first items of a day in the library’s order and counts the others per day', () => {
    const days = daysOf('2026-03-01', '2026-03-08');
    // Five on the 3rd (titles out of order), one on the 5th.
    const events = ['e', 'a', 'd', 'b', 'c'].map((t) => allDay(t, '2026-03-03')).concat(allDay('x', '2026-03-05'));
    const { shown, more } = capPerDay(events, days, 3);
    expect(shown.map((e) => e.id)).toEqual(['a', 'b', 'c', 'x']);
    expect([...more]).toEqual([['2026-03-03', 2]]);
  });

  it('puts longer ranges first, and counts a range left out on every day it covers', () => {
    const days = daysOf('2026-03-01', '2026-03-08');
    const events = [allDay('one', '2026-03-02'), allDay('week', '2026-03-02', '2026-03-06'), allDay('two', '2026-03-02'), allDay('late', '2026-03-04')];
    // One per day: the range (2nd–5th) takes the slot of each of its days.
    const { shown, more } = capPerDay(events, days, 1);
    expect(shown.map((e) => e.id)).toEqual(['week']);
    expect(Object.fromEntries(more)).toEqual({ '2026-03-02': 2, '2026-03-04': 1 });
    // A range over the grid's edge counts only on the shown days.
    const edge = capPerDay([allDay('a', '2026-02-20'), allDay('long', '2026-02-25', '2026-03-03')], days, 0);
    expect(Object.fromEntries(edge.more)).toEqual({ '2026-03-01': 1, '2026-03-02': 1 });
  });

  it('passes timed items through in the week grid (only its all-day row is capped); a timed item counts on its days in the month', () => {
    const days = daysOf('2026-03-01', '2026-03-08');
    const timed = (id: string, start: string, end?: string): CalendarEvent => ({ id, title: id, start, ...(end ? { end } : {}), allDay: false });
    const events = [allDay('a', '2026-03-03'), allDay('b', '2026-03-03'), timed('t1', '2026-03-03T09:00'), timed('t2', '2026-03-03T22:00', '2026-03-04T02:00')];
    const week = capPerDay(events, days, 1, true);
    expect(week.shown.map((e) => e.id).sort()).toEqual(['a', 't1', 't2']);
    expect(Object.fromEntries(week.more)).toEqual({ '2026-03-03': 1 });
    const month = capPerDay(events, days, 2);
    expect(month.shown.map((e) => e.id)).toEqual(['a', 'b']);
    expect(Object.fromEntries(month.more)).toEqual({ '2026-03-03': 2, '2026-03-04': 1 });
  });

  it('is the whole month of a big board in a few hundred events', () => {
    const events: CalendarEvent[] = [];
    for (let i = 0; i < 10_000; i++) events.push(allDay(`i${i}`, `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`));
    const from = '2026-02-23';
    const to = '2026-04-06';
    const { shown, more } = capPerDay(events.filter((e) => overlaps(e, from, to)), daysOf(from, to), 3);
    expect(shown.length).toBeLessThanOrEqual(42 * 3);
    const hidden = [...more.values()].reduce((a, b) => a + b, 0);
    expect(shown.length + hidden).toBe(events.filter((e) => overlaps(e, from, to)).length);
  });
});

describe('the month grid’s days (monthDays, dayAt)', () => {
  const allDay = (id: string, start: string, end?: string): CalendarEvent => ({ id, title: id, start, end: end ?? shiftDay(start, 1), allDay: true });

  it('shows a range on every day it covers, its edges on its first and last day, over a DST change', () => {
    const days = daysOf('2026-03-23', '2026-04-06');
    const range = { ...allDay('r', '2026-03-28', '2026-03-31'), startEditable: true, durationEditable: true };
    const out = monthDays([range], new Map([['2026-03-29', 4]]), days);
    const withR = out.filter((d) => d.chips.length > 0);
    expect(withR.map((d) => d.day)).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(withR.map((d) => [d.chips[0]!.isStart, d.chips[0]!.isEnd])).toEqual([[true, false], [false, false], [false, true]]);
    expect(withR[0]!.chips[0]).toMatchObject({ editable: true, resizable: true, time: null });
    expect(out.find((d) => d.day === '2026-03-29')!.more).toBe(4);
    expect(out).toHaveLength(14);
  });

  it('cuts a range at the grid’s edge (no edge handle on a day not its own) and gives a timed item its time on its first day', () => {
    const days = daysOf('2026-03-01', '2026-03-08');
    const out = monthDays([allDay('long', '2026-02-25', '2026-03-03'), { id: 't', title: 't', start: '2026-03-04T22:00', end: '2026-03-05T01:00', allDay: false, startEditable: true }], new Map(), days);
    expect(out[0]!.chips[0]).toMatchObject({ id: 'long', isStart: false, isEnd: false, editable: false, resizable: false });
    expect(out[1]!.chips[0]).toMatchObject({ id: 'long', isEnd: true });
    expect(out[3]!.chips[0]).toMatchObject({ id: 't', time: '22:00', isStart: true, isEnd: false, editable: true, resizable: false });
    expect(out[4]!.chips[0]).toMatchObject({ id: 't', time: null, isStart: false, isEnd: true });
  });

  it('finds the day under a point among the measured cells, and none outside them', () => {
    const cells = [
      { day: '2026-03-01', left: 0, top: 0, right: 100, bottom: 80 },
      { day: '2026-03-02', left: 100, top: 0, right: 200, bottom: 80 },
    ];
    expect(dayAt(cells, 150, 40)).toBe('2026-03-02');
    expect(dayAt(cells, 100, 0)).toBe('2026-03-02');
    expect(dayAt(cells, 99.5, 79)).toBe('2026-03-01');
    expect(dayAt(cells, 250, 40)).toBeNull();
  });
});

describe('per-item memo', () => {
  it('works an item out again only when one of its inputs changed', () => {
    const memo = new PerItemMemo<string>();
    let runs = 0;
    const derive = (id: string, a: unknown, b: unknown) => memo.get(id, a, b, () => `${id}:${String(a)}:${String(b)}:${++runs}`);
    expect(derive('i1', '2026-01-01', 'x')).toBe('i1:2026-01-01:x:1');
    expect(derive('i1', '2026-01-01', 'x')).toBe('i1:2026-01-01:x:1');
    expect(derive('i2', '2026-01-01', 'x')).toBe('i2:2026-01-01:x:2');
    expect(derive('i1', '2026-01-02', 'x')).toBe('i1:2026-01-02:x:3');
    const range = { start: '2026-01-01', end: '2026-01-03' };
    derive('i3', range, undefined);
    derive('i3', range, undefined);
    // A new object (a value saved again) is a change, even with the same fields.
    derive('i3', { ...range }, undefined);
    expect(runs).toBe(5);
  });
});

describe('calendar locale', () => {
  const words = { prev: 'p', next: 'n', today: 'اليوم', month: 'm', week: 'w', day: 'd', allDay: 'a', more: (n: number) => `+${n}`, noItems: '0' };
  it('runs right to left for Arabic with the profile’s week start, left to right otherwise', async () => {
    const { calendarLocale } = await import('../../src/boards/calendar/calendar-events');
    const { directionFor, weekStart } = await import('../../src/i18n/locale');
    const ar = calendarLocale('ar', weekStart('ar', null), directionFor('ar') === 'rtl', words);
    expect(ar).toMatchObject({ code: 'ar', direction: 'rtl', buttonText: { today: 'اليوم' } });
    // Egypt's week starts on Saturday; a profile's start_of_week wins.
    expect(ar.week.dow).toBe(6);
    expect(calendarLocale('ar', weekStart('ar', 1), true, words).week.dow).toBe(1);
    const de = calendarLocale('de', weekStart('de', null), directionFor('de') === 'rtl', words);
    expect(de).toMatchObject({ direction: 'ltr', week: { dow: 1 } });
    expect(de.moreLinkText(3)).toBe('+3');
  });
});

describe('the dates the calendar shows before it mounts (shownRange)', () => {
  it('is six whole weeks from the week holding the 1st, by the first day of the week', () => {
    // 2026-11-01 is a Sunday.
    expect(shownRange('2026-11-27', 'month', 1)).toEqual({ from: '2026-10-26', to: '2026-12-07' });
    expect(shownRange('2026-11-27', 'month', 0)).toEqual({ from: '2026-11-01', to: '2026-12-13' });
    expect(shownRange('2026-11-27', 'month', 6)).toEqual({ from: '2026-10-31', to: '2026-12-12' });
    // Across the DST change of 2026-03-29 (this suite runs in Europe/Berlin): still whole days.
    expect(shownRange('2026-03-15', 'month', 1)).toEqual({ from: '2026-02-23', to: '2026-04-06' });
    expect(daysOf('2026-02-23', '2026-04-06')).toHaveLength(42);
  });

  it('is the week holding the day, or the day itself', () => {
    expect(shownRange('2026-11-27', 'week', 1)).toEqual({ from: '2026-11-23', to: '2026-11-30' });
    expect(shownRange('2026-11-29', 'week', 1)).toEqual({ from: '2026-11-23', to: '2026-11-30' });
    expect(shownRange('2026-11-29', 'week', 0)).toEqual({ from: '2026-11-29', to: '2026-12-06' });
    expect(shownRange('2026-03-28T23:30', 'day', 1)).toEqual({ from: '2026-03-28', to: '2026-03-29' });
  });
});
