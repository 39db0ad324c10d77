import type { SettingsOfKind } from '../../../schema/views';
import { spanOf, valueOfSpan, type DateSpan } from '../model/date-spans';

/**
 * Where the Gantt view reads an item's bar from and how it writes one back: a date-range
 * attribute, or a start and an end date attribute (schema/views.ts resolveViewSettings picks
 * them). Pure.
 */

export type GanttSource = { kind: 'range'; rangeId: string } | { kind: 'dates'; startId: string; endId: string } | null;

export function ganttSourceOf(settings: Pick<SettingsOfKind<'gantt'>, 'range_attribute_id' | 'start_attribute_id' | 'end_attribute_id'>): GanttSource {
  if (settings.range_attribute_id) return { kind: 'range', rangeId: settings.range_attribute_id };
  if (settings.start_attribute_id && settings.end_attribute_id) return { kind: 'dates', startId: settings.start_attribute_id, endId: settings.end_attribute_id };
  return null;
}

export const sourceAttributeIds = (source: GanttSource): string[] => (!source ? [] : source.kind === 'range' ? [source.rangeId] : [...new Set([source.startId, source.endId])]);

/** The bar of an item: a range as it is; start + end dates (either alone is a one-day bar). */
export function barSpanOf(source: GanttSource, valueOf: (attributeId: string) => unknown): DateSpan | null {
  if (!source) return null;
  if (source.kind === 'range') return spanOf(valueOf(source.rangeId), 'date-range');
  const start = spanOf(valueOf(source.startId), 'date');
  const end = spanOf(valueOf(source.endId), 'date');
  if (!start && !end) return null;
  const from = (start ?? end)!.start;
  const to = (end ?? start)!.start;
  // An end before the start (two attributes nothing ties together) draws as the start's day.
  return { start: from, end: to >= from ? to : from, withTime: from.length > 10 || to.length > 10 };
}

/** The values that store a span, by attribute id (one for a range, one or two for dates). */
export function valuesOfSpan(source: Exclude<GanttSource, null>, span: DateSpan): Record<string, unknown> {
  if (source.kind === 'range') return { [source.rangeId]: valueOfSpan(span, 'date-range') };
  if (source.startId === source.endId) return { [source.startId]: span.start };
  return { [source.startId]: span.start, [source.endId]: span.end };
}
