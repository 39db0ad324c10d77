import { describe, expect, it } from 'vitest';
import { barOf, dayDelta, draggedSpan, isInWindow, offsetOf, ticksOf, timelineFor, timelineWidth, DAY_WIDTH } from '../../src/boards/gantt/timeline';
import { barSpanOf, ganttSourceOf, valuesOfSpan } from '../../src/boards/gantt/gantt-spans';

process.env.TZ = 'America/New_York';

const span = (start: string, end: string) => ({ start, end, withTime: false });

describe('gantt timeline', () => {
  it('covers every bar and today, starting on a tick', () => {
    const week = timelineFor([span('2026-03-04', '2026-03-10')], '2026-03-01', 'week', 1);
    // 35 days of room before 2026-03-01, back to that week's Monday.
    expect(week.origin).toBe('2026-01-19');
    expect(new Date(`${week.origin}T12:00`).getDay()).toBe(1);
    expect(offsetOf('2026-03-10', week)).toBeLessThan(timelineWidth(week));
    // A Sunday week start moves the origin to a Sunday.
    expect(new Date(`${timelineFor([], '2026-03-01', 'week', 0).origin}T12:00`).getDay()).toBe(0);
    expect(timelineFor([], '2026-05-20', 'quarter', 1).origin.slice(5)).toMatch(/^(01|04|07|10)-01$/);
    expect(timelineFor([], '2026-05-20', 'month', 1).origin.slice(8)).toBe('01');
  });

  it('cuts ticks per zoom: months of their own length, quarters, days across DST', () => {
    const months = ticksOf(timelineFor([span('2026-01-15', '2026-03-15')], '2026-02-01', 'month', 1));
    const feb = months.find((t) => t.day === '2026-02-01')!;
    const mar = months.find((t) => t.day === '2026-03-01')!;
    expect(feb.width).toBe(28 * DAY_WIDTH.month);
    expect(mar.offset).toBe(feb.offset + feb.width);
    const quarters = ticksOf(timelineFor([], '2026-05-20', 'quarter', 1));
    expect(quarters.every((t) => /-(01|04|07|10)-01$/.test(t.day))).toBe(true);
    // New York changes clocks on 2026-03-08 and 2026-11-01: still one day each.
    const days = ticksOf(timelineFor([span('2026-03-07', '2026-03-09')], '2026-03-08', 'day', 1));
    const i = days.findIndex((t) => t.day === '2026-03-08');
    expect(days[i - 1]!.day).toBe('2026-03-07');
    expect(days[i + 1]!.day).toBe('2026-03-09');
    expect(days[i]!.width).toBe(DAY_WIDTH.day);
    expect(new Set(days.map((d) => d.width)).size).toBe(1);
  });

  it('places bars by whole days, a range over a month edge included', () => {
    const tl = timelineFor([], '2026-01-31', 'day', 1);
    const bar = barOf(span('2026-01-30', '2026-02-02'), tl);
    expect(bar.width).toBe(4 * DAY_WIDTH.day);
    expect(bar.offset).toBe(offsetOf('2026-01-30', tl));
    expect(barOf(span('2026-01-30', '2026-01-30'), tl).width).toBe(DAY_WIDTH.day);
    expect(barOf({ start: '2026-11-01T09:00', end: '2026-11-02T17:00', withTime: true }, tl).width).toBe(2 * DAY_WIDTH.day);
  });

  it('turns a drag into whole days, mirrored right to left', () => {
    expect(dayDelta(3 * 36 + 10, 36, false)).toBe(3);
    expect(dayDelta(3 * 36 + 10, 36, true)).toBe(-3);
    expect(dayDelta(-40, 36, false)).toBe(-1);
    expect(Object.is(dayDelta(5, 36, true), 0)).toBe(true);
    expect(draggedSpan(span('2026-01-30', '2026-02-02'), 'move', 3)).toMatchObject({ start: '2026-02-02', end: '2026-02-05' });
    expect(draggedSpan(span('2026-01-30', '2026-02-02'), 'end', 30)).toMatchObject({ start: '2026-01-30', end: '2026-03-04' });
    expect(draggedSpan(span('2026-01-30', '2026-02-02'), 'start', 10)).toMatchObject({ start: '2026-02-02', end: '2026-02-02' });
  });

  it('draws only the bars crossing the visible window', () => {
    expect(isInWindow({ offset: 100, width: 50 }, 0, 120)).toBe(true);
    expect(isInWindow({ offset: 100, width: 50 }, 150, 400)).toBe(false);
    expect(isInWindow({ offset: 100, width: 50 }, 0, 100)).toBe(false);
  });
});

describe('gantt bars from attributes', () => {
  const values: Record<string, unknown> = { r: { start: '2026-02-01', end: '2026-02-03' }, s: '2026-02-05', e: '2026-02-01' };
  it('reads a range, or start + end dates (an end before the start draws one day)', () => {
    const range = ganttSourceOf({ range_attribute_id: 'r', start_attribute_id: null, end_attribute_id: null });
    expect(barSpanOf(range, (id) => values[id])).toMatchObject({ start: '2026-02-01', end: '2026-02-03' });
    const dates = ganttSourceOf({ range_attribute_id: null, start_attribute_id: 's', end_attribute_id: 'e' });
    expect(barSpanOf(dates, (id) => values[id])).toMatchObject({ start: '2026-02-05', end: '2026-02-05' });
    expect(barSpanOf(dates, (id) => (id === 'e' ? '2026-02-09' : values[id]))).toMatchObject({ start: '2026-02-05', end: '2026-02-09' });
    expect(barSpanOf(dates, (id) => (id === 's' ? null : values[id]))).toMatchObject({ start: '2026-02-01', end: '2026-02-01' });
    expect(ganttSourceOf({ range_attribute_id: null, start_attribute_id: 's', end_attribute_id: null })).toBeNull();
  });
  it('writes a span back as the attributes hold it', () => {
    expect(valuesOfSpan({ kind: 'range', rangeId: 'r' }, span('2026-02-01', '2026-02-04'))).toEqual({ r: { start: '2026-02-01', end: '2026-02-04' } });
    expect(valuesOfSpan({ kind: 'dates', startId: 's', endId: 'e' }, span('2026-02-01', '2026-02-04'))).toEqual({ s: '2026-02-01', e: '2026-02-04' });
    expect(valuesOfSpan({ kind: 'dates', startId: 's', endId: 's' }, span('2026-02-01', '2026-02-01'))).toEqual({ s: '2026-02-01' });
  });
});
