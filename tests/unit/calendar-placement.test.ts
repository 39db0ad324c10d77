import { describe, expect, it } from 'vitest';
import { daysBetween, moveSpan, nowIn, parseBoardDate, resizeSpan, shiftDay, spanOf, todayIn, valueOfSpan } from '../../src/boards/model/date-spans';
import { durationOf, droppedSpan, eventOf, overlaps, resizedSpan, valueForDay } from '../../src/boards/calendar/calendar-events';

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
