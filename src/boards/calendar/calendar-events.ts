import { addDays, format, startOfMonth, startOfWeek, type Duration } from 'date-fns';
import { moveSpan, parseBoardDate, resizeSpan, shiftDay, spanOf, type DateSpan } from '../model/date-spans';

/**
 * Between the board's spans and the calendar library's events (FullCalendar, run in its UTC mode
 * so a board date is shown as the wall clock it is). The library's all-day end is exclusive; the
 * board's is inclusive. Pure, so the placement is unit-tested without a browser.
 */

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end?: string;
  allDay: boolean;
}

/** The event of an item, or null when its value is not a date. */
export function eventOf(item: { id: string; name?: string | null }, value: unknown, kind: string, untitled: string): CalendarEvent | null {
  const span = spanOf(value, kind);
  if (!span) return null;
  const title = item.name?.trim() || untitled;
  if (!span.withTime) return { id: item.id, title, start: span.start, end: shiftDay(span.end, 1), allDay: true };
  // A timed range whose end has no time runs to the end of that day.
  const end = span.end === span.start ? undefined : span.end.length > 10 ? span.end : shiftDay(span.end, 1);
  return { id: item.id, title, start: span.start, ...(end ? { end } : {}), allDay: false };
}

/** Whether an event (start, exclusive end as the library gives them) shows in [from, to). */
export function overlaps(event: CalendarEvent, from: string, to: string): boolean {
  // Text comparison is enough: all are board dates or the library's ISO text of the same shape.
  return event.start < to && (event.end !== undefined ? event.end > from : event.start >= from);
}

/** The days from `from` up to `to` (exclusive), `YYYY-MM-DD` each: a month grid's 28–42. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  const first = parseBoardDate(from.slice(0, 10));
  if (!first) return days;
  for (let day = first, text = format(day, 'yyyy-MM-dd'); text < to && days.length < 400; day = addDays(day, 1), text = format(day, 'yyyy-MM-dd')) days.push(text);
  return days;
}

/**
 * The dates the library will show for `day` in a mode, [from, to) as `YYYY-MM-DD`, worked out
 * before it mounts so its first render already has the events (it reports its range only after
 * drawing an empty grid, which cost a second full render of the month on every open). The
 * month grid is six whole weeks from the week holding the 1st (the library's fixed week count),
 * the week grid the week holding the day. If it ever differs, the library's own report wins.
 */
export function shownRange(day: string, mode: 'month' | 'week' | 'day', firstDay: number): { from: string; to: string } {
  const date = parseBoardDate(day.slice(0, 10));
  if (!date) return { from: day.slice(0, 10), to: shiftDay(day.slice(0, 10), 1) };
  if (mode === 'day') return { from: format(date, 'yyyy-MM-dd'), to: format(addDays(date, 1), 'yyyy-MM-dd') };
  const anchor = mode === 'month' ? startOfMonth(date) : date;
  const from = startOfWeek(anchor, { weekStartsOn: (((firstDay % 7) + 7) % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6 });
  return { from: format(from, 'yyyy-MM-dd'), to: format(addDays(from, mode === 'month' ? 42 : 7), 'yyyy-MM-dd') };
}

/** The library's own order within a day (its default `eventOrder`: start, longer first, title). */
export function libraryOrder(a: CalendarEvent, b: CalendarEvent): number {
  if (a.start !== b.start) return a.start < b.start ? -1 : 1;
  const ae = a.end ?? a.start;
  const be = b.end ?? b.start;
  if (ae !== be) return ae > be ? -1 : 1;
  if (a.allDay !== b.allDay) return a.allDay ? -1 : 1;
  return a.title.localeCompare(b.title);
}

/** Which shown days (indexes in `days`) an event covers: an all-day end is exclusive, a timed one inclusive. */
function coveredDays(event: CalendarEvent, days: readonly string[]): [number, number] {
  const first = event.start.slice(0, 10);
  const last = (event.end ?? event.start).slice(0, 10);
  let from = 0;
  while (from < days.length && days[from]! < first) from++;
  let to = from;
  // All-day: up to the exclusive end; timed: through the end's day.
  while (to < days.length && (event.allDay && event.end !== undefined ? days[to]! < last : days[to]! <= last)) to++;
  return [from, to];
}

/**
 * The events a grid of days is given: per day at most `perDay` (in the library's order), and
 * for a day with more, how many are left out (the view draws one "+N more" marker there, which
 * opens the day). Giving the library a month of a 10,000-item board (≈1,200 events) made it lay
 * out and measure each one: seconds per open. Those not given are the same ones the library
 * would hide behind its own "+N more". `timedUncapped`: timed events pass as they are (the week
 * grid's hours lay them out by time; only its all-day row is capped). Pure.
 */
export function capPerDay(events: readonly CalendarEvent[], days: readonly string[], perDay: number, timedUncapped = false): { shown: CalendarEvent[]; more: Map<string, number> } {
  const used = new Array<number>(days.length).fill(0);
  const hidden = new Array<number>(days.length).fill(0);
  const shown: CalendarEvent[] = [];
  for (const event of [...events].sort(libraryOrder)) {
    if (timedUncapped && !event.allDay) {
      shown.push(event);
      continue;
    }
    const [from, to] = coveredDays(event, days);
    if (from >= to) continue;
    let fits = true;
    for (let d = from; d < to && fits; d++) fits = used[d]! < perDay;
    const counts = fits ? used : hidden;
    for (let d = from; d < to; d++) counts[d] = counts[d]! + 1;
    if (fits) shown.push(event);
  }
  const more = new Map<string, number>();
  hidden.forEach((n, d) => n > 0 && more.set(days[d]!, n));
  return { shown, more };
}

/** An event as the views hand it on: may the user move it, and stretch its range. */
export type ShownEvent = CalendarEvent & { startEditable?: boolean; durationEditable?: boolean };

/** One item as one day of the month grid shows it (a range shows in every day it covers). */
export interface DayChip {
  id: string;
  title: string;
  /** The start's time of day (`HH:mm`) on the day a timed item starts; null otherwise. */
  time: string | null;
  /** The range begins (ends) on this day: the day carries that edge's handle. */
  isStart: boolean;
  isEnd: boolean;
  editable: boolean;
  resizable: boolean;
}

/** A day of the month grid: its items (at most the per-day cap, in order) and how many are left out. */
export interface MonthDay {
  day: string;
  chips: DayChip[];
  more: number;
}

/**
 * The month grid's days (calendar/MonthGrid.tsx) from the capped events (capPerDay's `shown`, in
 * its order) and its left-out counts: each event in every shown day it covers, the first and last
 * of its own days marked (an all-day end is exclusive, a timed one inclusive). Pure.
 */
export function monthDays(shown: readonly ShownEvent[], more: ReadonlyMap<string, number>, days: readonly string[]): MonthDay[] {
  const out: MonthDay[] = days.map((day) => ({ day, chips: [], more: more.get(day) ?? 0 }));
  for (const event of shown) {
    const [from, to] = coveredDays(event, days);
    const first = event.start.slice(0, 10);
    // The last day the event covers: the day before an all-day exclusive end, else the end's day.
    const last = event.allDay && event.end !== undefined ? shiftDay(event.end.slice(0, 10), -1) : (event.end ?? event.start).slice(0, 10);
    const editable = event.startEditable ?? false;
    for (let d = from; d < to; d++) {
      const day = days[d]!;
      out[d]!.chips.push({
        id: event.id,
        title: event.title,
        time: !event.allDay && day === first && event.start.length > 10 ? event.start.slice(11, 16) : null,
        isStart: day === first,
        isEnd: day === last,
        editable,
        resizable: editable && (event.durationEditable ?? false),
      });
    }
  }
  return out;
}

/** The day whose cell holds a point (cells as measured at the drop), or null outside the grid. */
export function dayAt(cells: readonly { day: string; left: number; top: number; right: number; bottom: number }[], x: number, y: number): string | null {
  for (const c of cells) if (x >= c.left && x < c.right && y >= c.top && y < c.bottom) return c.day;
  return null;
}

/** The library's duration (years, months, days, milliseconds) as date-fns takes it. */
export function durationOf(delta: { years?: number; months?: number; days?: number; milliseconds?: number }): Duration {
  return { years: delta.years ?? 0, months: delta.months ?? 0, days: delta.days ?? 0, minutes: Math.round((delta.milliseconds ?? 0) / 60_000) };
}

/** The new span of an item dropped `delta` later (or earlier). */
export function droppedSpan(value: unknown, kind: string, delta: Duration): DateSpan | null {
  const span = spanOf(value, kind);
  return span ? moveSpan(span, delta) : null;
}

/** The new span of a range whose start or end edge was dragged. */
export function resizedSpan(value: unknown, kind: string, startDelta: Duration, endDelta: Duration): DateSpan | null {
  const span = spanOf(value, kind);
  if (!span) return null;
  const moved = (d: Duration) => Object.values(d).some((n) => n !== 0);
  let next = span;
  if (moved(startDelta)) next = resizeSpan(next, 'start', startDelta);
  if (moved(endDelta)) next = resizeSpan(next, 'end', endDelta);
  return next;
}

/**
 * The value a new item gets from a click on an empty day or time slot (`dateStr` of the library:
 * `YYYY-MM-DD`, or with a time in the week and day grids). A date without time keeps the day only.
 */
export function valueForDay(dateStr: string, kind: string, withTime: boolean): unknown {
  const day = withTime && dateStr.length > 10 ? dateStr.slice(0, 16) : dateStr.slice(0, 10);
  return kind === 'date-range' ? { start: day, end: day } : day;
}

/** The library's few words, from our catalogs. */
export interface CalendarWords {
  prev: string;
  next: string;
  today: string;
  month: string;
  week: string;
  day: string;
  allDay: string;
  more(n: number): string;
  noItems: string;
}

/**
 * The library's locale for the user's language: its words from our catalogs, the first day of
 * the week from the profile (or the language), right to left for Arabic (and the other RTL
 * languages); day and month names come from Intl with this code.
 */
export function calendarLocale(code: string, firstDay: number, rtl: boolean, words: CalendarWords) {
  return {
    code,
    week: { dow: firstDay, doy: 4 },
    direction: rtl ? ('rtl' as const) : ('ltr' as const),
    buttonText: { prev: words.prev, next: words.next, today: words.today, month: words.month, week: words.week, day: words.day },
    allDayText: words.allDay,
    moreLinkText: words.more,
    noEventsText: words.noItems,
  };
}
