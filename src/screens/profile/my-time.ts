import { addDays, addWeeks, startOfWeek } from 'date-fns';

/**
 * The "My time" screen's arithmetic over GET /api/me/time-tracking: weeks in the user's week
 * start, totals per day and per week, and the CSV rows. Pure (the clock comes in), unit-tested.
 * An entry counts on the day, and in the week, it started (as time trackers' reports do); a
 * running entry counts up to now.
 */

export interface MyTimeEntry {
  id: string;
  team_id?: number;
  board_id: string;
  item_id: string | null;
  attribute_id: string | null;
  description: string | null;
  started_at: string;
  ended_at: string | null;
}

export interface MyTimeAnswer {
  attributeNames: Record<string, string>;
  itemNames?: Record<string, string>;
  boardNames?: Record<string, string>;
  entries: MyTimeEntry[];
}

export type WeekDay = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The week (start inclusive, end exclusive, local time) `offset` weeks from the one holding `now`. */
export function weekOf(now: Date, weekStartsOn: WeekDay, offset = 0): { start: Date; end: Date } {
  const start = addWeeks(startOfWeek(now, { weekStartsOn }), offset);
  return { start, end: addWeeks(start, 1) };
}

export function entryMs(entry: Pick<MyTimeEntry, 'started_at' | 'ended_at'>, now: number): number {
  const start = Date.parse(entry.started_at);
  const end = entry.ended_at ? Date.parse(entry.ended_at) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : 0;
}

/** Totals of consecutive periods from `first` (each `next(start)` long), by start time. */
function totalsBy(entries: readonly MyTimeEntry[], first: Date, count: number, next: (d: Date) => Date, now: number): { start: Date; ms: number }[] {
  const periods: { start: Date; end: Date; ms: number }[] = [];
  let start = first;
  for (let i = 0; i < count; i++) {
    const end = next(start);
    periods.push({ start, end, ms: 0 });
    start = end;
  }
  for (const entry of entries) {
    const at = Date.parse(entry.started_at);
    const period = periods.find((p) => at >= p.start.getTime() && at < p.end.getTime());
    if (period) period.ms += entryMs(entry, now);
  }
  return periods.map(({ start: s, ms }) => ({ start: s, ms }));
}

export const dayTotals = (entries: readonly MyTimeEntry[], weekStart: Date, now: number) => totalsBy(entries, weekStart, 7, (d) => addDays(d, 1), now);
export const weekTotals = (entries: readonly MyTimeEntry[], firstWeek: Date, weeks: number, now: number) => totalsBy(entries, firstWeek, weeks, (d) => addWeeks(d, 1), now);

/** Entries that started in [start, end), newest first. */
export function entriesIn(entries: readonly MyTimeEntry[], start: Date, end: Date): MyTimeEntry[] {
  return entries
    .filter((e) => {
      const at = Date.parse(e.started_at);
      return at >= start.getTime() && at < end.getTime();
    })
    .sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
}

/** "1:05" from milliseconds. */
export function hm(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * CSV rows (header first): times as ISO, the duration in decimal hours and as h:mm, names the
 * server let the user read (an item they can no longer read has an empty name).
 */
export function csvRows(answer: MyTimeAnswer, entries: readonly MyTimeEntry[], header: string[], now: number): string[][] {
  const rows = entries.map((e) => {
    const ms = entryMs(e, now);
    return [
      e.started_at,
      e.ended_at ?? '',
      (ms / 3_600_000).toFixed(2),
      hm(ms),
      answer.boardNames?.[e.board_id] ?? '',
      (e.item_id && answer.itemNames?.[e.item_id]) || '',
      (e.attribute_id && answer.attributeNames[e.attribute_id]) || '',
      e.description ?? '',
    ];
  });
  return [header, ...rows];
}
