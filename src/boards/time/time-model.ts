import type { TimeEntryRecord } from '../../../schema/records';
import { timeTrackingSettings } from '../../../schema/records';

/**
 * Time entries as the app shows them (workspace.md §4, time entry): who may see which, which of
 * the user's running entries a start ends, and durations. Pure, so the cell, the card, the item
 * panel and "My time" agree, and unit tests can drive them.
 */

export type TimeEntry = TimeEntryRecord & { collection?: string; team_id?: number };

/** An attribute as far as time tracking cares. */
export interface TimeAttribute {
  id: string;
  settings?: unknown;
}

export function settingsOfTime(attribute: TimeAttribute): { allowParallel: boolean; sharedEntries: boolean } {
  const parsed = timeTrackingSettings.safeParse(attribute.settings ?? {});
  return parsed.success ? parsed.data : { allowParallel: false, sharedEntries: true };
}

/** The entries of one attribute a viewer sees: everyone's when sharedEntries is on, else only their own; newest first. */
export function visibleEntries(entries: readonly TimeEntry[], attribute: TimeAttribute, viewerId: number | null): TimeEntry[] {
  const shared = settingsOfTime(attribute).sharedEntries;
  return entries.filter((e) => e.attribute_id === attribute.id && (shared || (viewerId !== null && e.created_by === viewerId))).sort(newestFirst);
}

export const newestFirst = (a: TimeEntry, b: TimeEntry) => String(b.started_at).localeCompare(String(a.started_at));

/** The viewer's running entry on this item and attribute, if any. */
export function runningEntry(entries: readonly TimeEntry[], attributeId: string, itemId: string, viewerId: number | null): TimeEntry | null {
  if (viewerId === null) return null;
  return entries.find((e) => e.ended_at === null && e.created_by === viewerId && e.attribute_id === attributeId && e.item_id === itemId) ?? null;
}

/**
 * The user's running entries a new start ends: of the same attribute on any item, or on the same
 * item only when the attribute allows parallel timers (the server applies the same rule).
 */
export function entriesToEnd(boardEntries: readonly TimeEntry[], attribute: TimeAttribute, itemId: string, userId: number): string[] {
  const parallel = settingsOfTime(attribute).allowParallel;
  return boardEntries.filter((e) => e.ended_at === null && e.created_by === userId && e.attribute_id === attribute.id && (!parallel || e.item_id === itemId)).map((e) => e.id);
}

/** Milliseconds an entry covers (up to `now` while it runs; never negative). */
export function durationMs(entry: Pick<TimeEntry, 'started_at' | 'ended_at'>, now: number): number {
  const start = Date.parse(String(entry.started_at));
  const end = entry.ended_at ? Date.parse(String(entry.ended_at)) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : 0;
}

export function totalMs(entries: readonly Pick<TimeEntry, 'started_at' | 'ended_at'>[], now: number): number {
  return entries.reduce((sum, e) => sum + durationMs(e, now), 0);
}

/** "1:02:03" — hours, minutes, seconds (a running timer). */
export function clockText(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** "1:02" — hours and minutes (totals). */
export function hoursText(ms: number): string {
  const m = Math.floor(ms / 60_000);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}
