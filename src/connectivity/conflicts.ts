import { useSyncExternalStore } from 'react';
import type { ConflictChoice, InboxEntry, UnsyncedExport } from '../../sync-worker/client';

/**
 * The conflict inbox as the app shows it (issue #30 part 2): the worker keeps the rows (its
 * `conflicts` and `refusedEdits` tables, schema/sync-conflicts.ts); this store asks it for the
 * list on sign-in and whenever its `conflicts` or `not-saved` event says the tables changed (every
 * tab gets those, so a conflict resolved in one tab leaves every tab). It also holds whether the
 * panel is open, so the sidebar, the palette and the toast can open it. No React but the hooks.
 */
export interface ConflictSource {
  list(): Promise<InboxEntry[]>;
  resolve(seq: number, choice: ConflictChoice): Promise<'resolved' | 'gone' | 'missing'>;
  /** The "Download unsynced changes" file, assembled by the worker (issue #30 part 7). */
  exportFile(): Promise<UnsyncedExport>;
}

export interface ConflictState {
  entries: InboxEntry[];
  /** Conflict rows only (refused edits are counted by "Not saved" too). */
  conflicts: number;
  /** Items with a conflict row, for the marker on their cell or card. */
  items: ReadonlySet<string>;
  open: boolean;
}

const EMPTY: ConflictState = { entries: [], conflicts: 0, items: new Set(), open: false };

export function createConflictStore() {
  let state = EMPTY;
  let source: ConflictSource | null = null;
  let asked = 0;
  const listeners = new Set<() => void>();
  const set = (next: Partial<ConflictState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };
  const setEntries = (entries: InboxEntry[]) => {
    const conflicts = entries.filter((e) => e.type === 'conflict');
    set({ entries, conflicts: conflicts.length, items: new Set(conflicts.map((e) => e.item_id).filter((id): id is string => Boolean(id))) });
  };
  const store = {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setSource(next: ConflictSource | null) {
      source = next;
      if (!next) setEntries([]);
      else void store.refresh();
    },
    /** Asks the worker again; a late older answer never replaces a newer one. */
    async refresh(): Promise<void> {
      if (!source) return;
      const mine = ++asked;
      const list = await source.list().catch(() => null);
      if (list && mine === asked) setEntries(list);
    },
    async resolve(seq: number, choice: ConflictChoice) {
      if (!source) return 'missing' as const;
      const result = await source.resolve(seq, choice);
      await store.refresh();
      return result;
    },
    /** The worker's unsynced changes as one file (rejects when no worker is signed in). */
    async exportFile(): Promise<UnsyncedExport> {
      if (!source) throw new Error('The sync worker is not signed in.');
      return source.exportFile();
    },
    openPanel() {
      set({ open: true });
      void store.refresh();
    },
    closePanel() {
      set({ open: false });
    },
  };
  return store;
}

export type ConflictStore = ReturnType<typeof createConflictStore>;

/** The app's inbox (fed by src/api/worker-session.ts). */
export const conflictInbox = createConflictStore();

export function useConflicts(store: ConflictStore = conflictInbox): ConflictState {
  return useSyncExternalStore(store.subscribe, store.get, () => EMPTY);
}
