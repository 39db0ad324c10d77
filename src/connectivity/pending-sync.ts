import { useSyncExternalStore } from 'react';
import type { FailedRequestSummary } from '../../sync-worker/client';

/**
 * How many of the user's edits wait in the sync worker's queue (issue #30 part 5), for the
 * "N changes waiting to sync" line. The worker is the source: asked on sign-in, then told by its
 * debounced `failed-requests` event after every write and every send (every tab gets it).
 */
export interface PendingSource {
  list(): Promise<FailedRequestSummary[]>;
}

export function createPendingSyncStore() {
  let count = 0;
  let source: PendingSource | null = null;
  const listeners = new Set<() => void>();
  const set = (next: number) => {
    if (next === count) return;
    count = next;
    for (const listener of listeners) listener();
  };
  const store = {
    get: () => count,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setSource(next: PendingSource | null) {
      source = next;
      if (!next) set(0);
      else void store.list().then((rows) => set(rows.length));
    },
    /** The worker's `failed-requests` event: `pending` is every queued request. */
    told(pending: number) {
      set(pending);
    },
    /** What waits, oldest first (the dialog reads it when opened). */
    async list(): Promise<FailedRequestSummary[]> {
      if (!source) return [];
      const rows = await source.list().catch(() => null);
      if (rows) set(rows.length);
      return rows ?? [];
    },
  };
  return store;
}

export const pendingSync = createPendingSyncStore();

export function usePendingCount(): number {
  return useSyncExternalStore(pendingSync.subscribe, pendingSync.get, () => 0);
}
