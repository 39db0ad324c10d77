import { add, addDays, differenceInCalendarDays, format, isValid, parse, type Duration } from 'date-fns';

/**
 * Where an item sits in time, for the Calendar and Gantt views. Board dates are floating wall
 * clock text (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, schema/attributes.ts isValidDate): the same day
 * for every reader whatever their time zone. All arithmetic goes through date-fns on local Date
 * objects, which keeps the wall clock across a DST change (moving 09:00 by a day stays 09:00).
 * The reader's time zone matters only for "today" (todayIn / nowIn).
 */

/** An item's span, inclusive at both ends, in board text form. A single date has start = end. */
export interface DateSpan {
  start: string;
  end: string;
  /** Either end carries a time of day. */
  withTime: boolean;
}

const DAY = 'yyyy-MM-dd';
const DAY_TIME = "yyyy-MM-dd'T'HH:mm";

/** A board date as a local Date (wall clock), or null when it is not one. */
export function parseBoardDate(text: string): Date | null {
  const date = text.length > 10 ? parse(text, DAY_TIME, new Date(2000, 0, 1)) : parse(text, DAY, new Date(2000, 0, 1));
  return isValid(date) ? date : null;
}

export function formatBoardDate(date: Date, withTime: boolean): string {
  return format(date, withTime ? DAY_TIME : DAY);
}

/**
 * Answers of slow date-fns calls kept by their text: a 10,000-item board has a few hundred
 * different dates, and a view opened again meets the same ones (parsing each item's date with
 * date-fns on every open cost more than the rest of the open). Bounded: cleared when full.
 */
function remembered<T>(limit: number, compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let answer = known.get(text);
    if (answer === undefined && !known.has(text)) {
      if (known.size >= limit) known.clear();
      answer = compute(text);
      known.set(text, answer);
    }
    return answer as T;
  };
}

/** Whether a text is a board date (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, a real day). */
export const isBoardDate = remembered(20_000, (text) => parseBoardDate(text) !== null);

/** The span of a value of a date or date-range attribute; null when empty or not a date. */
export function spanOf(value: unknown, kind: string): DateSpan | null {
  if (kind === 'date' && typeof value === 'string' && isBoardDate(value)) return { start: value, end: value, withTime: value.length > 10 };
  if (kind === 'date-range' && value && typeof value === 'object') {
    const { start, end } = value as { start?: unknown; end?: unknown };
    if (typeof start !== 'string' || typeof end !== 'string' || !isBoardDate(start) || !isBoardDate(end)) return null;
    return { start, end, withTime: start.length > 10 || end.length > 10 };
  }
  return null;
}

/** The value that stores a span in an attribute of `kind` (a date keeps only the start). */
export function valueOfSpan(span: DateSpan, kind: string): unknown {
  return kind === 'date-range' ? { start: span.start, end: span.end } : span.start;
}

/** The span moved by a duration (calendar drops give months + days + ms; gantt drags give days). */
export function moveSpan(span: DateSpan, by: Duration): DateSpan {
  const shift = (text: string) => formatBoardDate(add(parseBoardDate(text)!, by), text.length > 10);
  return { start: shift(span.start), end: shift(span.end), withTime: span.withTime };
}

/** One edge moved; the other stays, and the span never ends before it starts (it collapses to one day). */
export function resizeSpan(span: DateSpan, edge: 'start' | 'end', by: Duration): DateSpan {
  const moved = formatBoardDate(add(parseBoardDate(span[edge])!, by), span[edge].length > 10);
  // Board dates compare as text (a date alone sorts before the same date with a time).
  if (edge === 'start') return { ...span, start: moved <= span.end ? moved : span.end };
  return { ...span, end: moved >= span.start ? moved : span.start };
}

/** Whole calendar days from a to b (b − a), on wall clock dates: a DST day still counts as one. */
export function daysBetween(a: string, b: string): number {
  return differenceInCalendarDays(parseBoardDate(b)!, parseBoardDate(a)!);
}

/** The day `days` after a board date (keeps a time of day if it has one). */
export function shiftDay(text: string, days: number): string {
  return days === 1 ? nextDay(text) : formatBoardDate(addDays(parseBoardDate(text)!, days), text.length > 10);
}
/** The day after (the calendar asks it of every item shown: a range's exclusive end). */
const nextDay = remembered(20_000, (text) => formatBoardDate(addDays(parseBoardDate(text)!, 1), text.length > 10));

/** The wall clock now in a time zone (the user's, else the device's), as `YYYY-MM-DDTHH:mm:ss`. */
export function nowIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  const parts = clockIn(timeZone || '').formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

/** A wall-clock formatter per zone ('' = the device's), made once: the calendar asks "now" many times a render. */
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockIn(zone: string): Intl.DateTimeFormat {
  let clock = clocks.get(zone);
  if (!clock) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
    try {
      clock = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone || undefined });
    } catch {
      // An unknown zone name (an old profile): the device's zone.
      clock = new Intl.DateTimeFormat('en-US', options);
    }
    clocks.set(zone, clock);
  }
  return clock;
}

/** Today's date in a time zone, `YYYY-MM-DD`. */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  return nowIn(timeZone, now).slice(0, 10);
}
