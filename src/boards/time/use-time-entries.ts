import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useBoardBackend } from '../store/backend';
import type { TimeEntry } from './time-model';

/**
 * Live reads of time entries from the replica: whatever the engine stores — a timer started in
 * this tab, another tab, or another browser (TimeEntrySaved on the personal channel) — shows in
 * every open tab through Dexie's change notices.
 */

/** One item's time entries (every attribute), as the replica holds them. */
export function useItemTimeEntries(itemId: string): TimeEntry[] | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(async () => (await db.records.where('[collection+item_id]').equals(['time_entry', itemId]).toArray()) as unknown as TimeEntry[], [db, itemId]);
}

/** The current time, ticking every `everyMs` while `active` (a running timer on screen). */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
