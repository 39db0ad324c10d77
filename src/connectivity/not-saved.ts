import { useSyncExternalStore } from 'react';
import type { RefusedEditView } from '../../sync-worker/client';

/**
 * Edits the server refused for good, as the sync worker keeps them (decision 0094), for the
 * "Not saved" list of the connectivity indicator. The worker is the source: this store asks it for
 * the list on sign-in and whenever it says the list changed (its `not-saved` event reaches every
 * tab, so all tabs follow each other). No React here except the hook at the end.
 */
export interface NotSavedSource {
  list(): Promise<RefusedEditView[]>;
  retry(collection: string, id: string): Promise<void>;
  discard(collection: string, id: string): Promise<void>;
}

export function createNotSavedStore() {
  let entries: RefusedEditView[] = [];
  let source: NotSavedSource | null = null;
  let asked = 0;
  const listeners = new Set<() => void>();
  const set = (next: RefusedEditView[]) => {
    entries = next;
    for (const listener of listeners) listener();
  };

  const store = {
    get: () => entries,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Where the list comes from (the signed-in worker); null after sign-out clears it. */
    setSource(next: NotSavedSource | null) {
      source = next;
      if (!next) set([]);
      else void store.refresh();
    },
    /** Asks the worker again; an older answer that arrives late never replaces a newer one. */
    async refresh(): Promise<void> {
      if (!source) return;
      const mine = ++asked;
      const list = await source.list().catch(() => null);
      if (list && mine === asked) set(list);
    },
    async retry(entry: Pick<RefusedEditView, 'collection' | 'id'>): Promise<void> {
      if (!source) return;
      await source.retry(entry.collection, entry.id);
      await store.refresh();
    },
    async discard(entry: Pick<RefusedEditView, 'collection' | 'id'>): Promise<void> {
      if (!source) return;
      await source.discard(entry.collection, entry.id);
      await store.refresh();
    },
  };
  return store;
}

export type NotSavedStore = ReturnType<typeof createNotSavedStore>;

/** The app's list (fed by src/api/worker-session.ts). */
export const notSaved = createNotSavedStore();

const none: RefusedEditView[] = [];
export function useNotSaved(store: NotSavedStore = notSaved): RefusedEditView[] {
  return useSyncExternalStore(store.subscribe, store.get, () => none);
}
