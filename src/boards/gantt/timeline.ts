import { addDays, addMonths, addQuarters, addWeeks, startOfMonth, startOfQuarter, startOfWeek, type Day } from 'date-fns';
import type { GanttZoom } from '../../../schema/views';
import { daysBetween, formatBoardDate, moveSpan, parseBoardDate, resizeSpan, type DateSpan } from '../model/date-spans';

/**
 * The Gantt view's time axis, pure: which days the timeline covers, the header's ticks per zoom
 * (day, week, month, quarter; weeks start on the user's day), where a bar sits and how a drag of
 * so many pixels becomes whole days. Offsets are logical (from the inline start): the view lays
 * them out with inset-inline-start, so a right-to-left page mirrors the chart by itself, and a
 * drag's physical x is turned around here.
 */

/** Pixels per day at each zoom: a day column is readable at "day", a year fits at "quarter". */
export const DAY_WIDTH: Record<GanttZoom, number> = { day: 36, week: 14, month: 4, quarter: 1.5 };
/** Room before the first and after the last bar (and today), in days. */
const PADDING_DAYS: Record<GanttZoom, number> = { day: 14, week: 35, month: 92, quarter: 275 };

export interface Timeline {
  /** The first day shown (`YYYY-MM-DD`), at the start of a tick. */
  origin: string;
  days: number;
  dayWidth: number;
  zoom: GanttZoom;
  weekStartsOn: Day;
}

export interface Tick {
  /** The tick's first day. */
  day: string;
  offset: number;
  width: number;
}

function startOfTick(date: Date, zoom: GanttZoom, weekStartsOn: Day): Date {
  if (zoom === 'week') return startOfWeek(date, { weekStartsOn });
  if (zoom === 'month') return startOfMonth(date);
  if (zoom === 'quarter') return startOfQuarter(date);
  return date;
}

function nextTick(date: Date, zoom: GanttZoom): Date {
  if (zoom === 'week') return addWeeks(date, 1);
  if (zoom === 'month') return addMonths(date, 1);
  if (zoom === 'quarter') return addQuarters(date, 1);
  return addDays(date, 1);
}

/** The timeline covering every span and today, padded, from the start of a tick to the end of one. */
export function timelineFor(spans: Iterable<DateSpan>, today: string, zoom: GanttZoom, weekStartsOn: number): Timeline {
  let min = today;
  let max = today;
  for (const span of spans) {
    const start = span.start.slice(0, 10);
    const end = span.end.slice(0, 10);
    if (start < min) min = start;
    if (end > max) max = end;
  }
  const week = (weekStartsOn % 7) as Day;
  const from = startOfTick(addDays(parseBoardDate(min)!, -PADDING_DAYS[zoom]), zoom, week);
  let to = startOfTick(addDays(parseBoardDate(max)!, PADDING_DAYS[zoom]), zoom, week);
  to = nextTick(to, zoom);
  const origin = formatBoardDate(from, false);
  return { origin, days: daysBetween(origin, formatBoardDate(to, false)), dayWidth: DAY_WIDTH[zoom], zoom, weekStartsOn: week };
}

export const timelineWidth = (timeline: Timeline) => timeline.days * timeline.dayWidth;

/** The header's ticks, one per day, week, month or quarter. */
export function ticksOf(timeline: Timeline): Tick[] {
  const ticks: Tick[] = [];
  let day = parseBoardDate(timeline.origin)!;
  let offsetDays = 0;
  while (offsetDays < timeline.days) {
    const next = nextTick(day, timeline.zoom);
    const nextText = formatBoardDate(next, false);
    const length = daysBetween(formatBoardDate(day, false), nextText);
    ticks.push({ day: formatBoardDate(day, false), offset: offsetDays * timeline.dayWidth, width: length * timeline.dayWidth });
    offsetDays += length;
    day = next;
  }
  return ticks;
}

/** Where a day starts on the timeline, in pixels from its inline start. */
export function offsetOf(day: string, timeline: Timeline): number {
  return daysBetween(timeline.origin, day.slice(0, 10)) * timeline.dayWidth;
}

/** A bar: from the start of its first day to the end of its last (a single day is one day wide). */
export function barOf(span: DateSpan, timeline: Timeline): { offset: number; width: number } {
  const days = Math.max(0, daysBetween(span.start.slice(0, 10), span.end.slice(0, 10))) + 1;
  return { offset: offsetOf(span.start, timeline), width: days * timeline.dayWidth };
}

/** Whole days of a horizontal drag (physical pixels; right to left turns it around). */
export function dayDelta(dx: number, dayWidth: number, rtl: boolean): number {
  const days = Math.round((rtl ? -dx : dx) / dayWidth);
  return days === 0 ? 0 : days; // no -0
}

export type BarDrag = 'move' | 'start' | 'end';

/** The span after dragging its bar (or one of its edges) by whole days. */
export function draggedSpan(span: DateSpan, drag: BarDrag, days: number): DateSpan {
  if (days === 0) return span;
  return drag === 'move' ? moveSpan(span, { days }) : resizeSpan(span, drag, { days });
}

/** Bars worth drawing: those crossing the visible window [from, to) of the timeline, in pixels. */
export function isInWindow(bar: { offset: number; width: number }, from: number, to: number): boolean {
  return bar.offset < to && bar.offset + bar.width > from;
}
