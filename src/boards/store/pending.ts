import type { SyncRecord } from '../../../sync-worker/client';
import type { BoardBackend } from './backend';

/**
 * Writes this tab has made that the replica may not show yet. A save goes tab → worker (Comlink)
 * → strict-durability transaction → cross-context change notice → the tab's live queries read
 * again: tens to hundreds of milliseconds. DESIGN.md §8 wants a local edit visible in the same tab
 * within a frame, so the live hooks (live.ts) lay these entries over what they read.
 *
 * This changes only what the tab shows, never what is stored: the worker still writes the record
 * and its queued request in one strict transaction before answering (decision 0035), and an entry
 * whose save fails is dropped at once, so the screen falls back to the replica.
 *
 * An entry gives way to the replica's copy once that copy's row_version reaches `supersededAt`
 * (the version the write produces, or a newer one from elsewhere).
 */
export interface PendingEntry {
  collection: string;
  id: string;
  /** The record to show; null hides it (a delete). */
  record: SyncRecord | null;
  supersededAt: number;
  token: number;
  /** When the backend answered; null while the write is in flight. */
  settledAt: number | null;
}

/** Entries the replica never came to reflect (a write that changed nothing) are let go after this. */
const FORGET_MS = 30_000;

const keyOf = (collection: string, id: string) => `${collection}\u0000${id}`;

export class PendingWrites {
  private readonly entries = new Map<string, PendingEntry>();
  private readonly listeners = new Set<() => void>();
  /** A counter per collection: a value edit does not re-render readers of items or folders. */
  private readonly versions = new Map<string, number>();
  private tokens = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes whenever an entry of `collection` is added, answered or dropped (for useSyncExternalStore). */
  versionOf(collection: string): number {
    return this.versions.get(collection) ?? 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Shows `record` (null: hides the record) until the replica holds version `supersededAt` or
   * newer. Answers a token for settle/drop, so an older call cannot end a newer entry.
   */
  put(collection: string, id: string, record: SyncRecord | null, supersededAt: number): number {
    const token = ++this.tokens;
    this.entries.set(keyOf(collection, id), { collection, id, record, supersededAt, token, settledAt: null });
    this.changed(collection);
    return token;
  }

  /** The backend stored the write: its answer is what the replica will hold. */
  settle(collection: string, id: string, token: number, stored: SyncRecord | null | undefined): void {
    const entry = this.entries.get(keyOf(collection, id));
    if (!entry || entry.token !== token) return;
    entry.settledAt = this.now();
    if (stored !== undefined) {
      entry.record = stored;
      // Not lowered: an edit merged into a request not sent yet keeps the record's version, which
      // the replica's copy from before this edit already has.
      if (stored && Number.isFinite(entry.supersededAt)) entry.supersededAt = Math.max(entry.supersededAt, stored.row_version);
      else if (stored) entry.supersededAt = stored.row_version;
    }
    this.changed(collection);
    this.forgetOld();
  }

  /**
   * Records an action stored (this tab's or another tab's, told by the engine right after its
   * commit, decision 0295): shown until the replica's copy reaches their row_version, so another
   * tab sees an edit without waiting for its own read of IndexedDB. This tab's writes still in
   * flight keep their entry (they are newer than what is told), and so does a newer entry.
   */
  showStored(records: readonly { collection: string; id: string; record: SyncRecord | null }[]): void {
    const touched = new Set<string>();
    const at = this.now();
    for (const { collection, id, record } of records) {
      const key = keyOf(collection, id);
      const before = this.entries.get(key);
      if (before && (before.settledAt === null || (before.record && record && before.supersededAt > record.row_version))) continue;
      const supersededAt = record ? record.row_version : Number.POSITIVE_INFINITY;
      this.entries.set(key, { collection, id, record, supersededAt, token: ++this.tokens, settledAt: at });
      touched.add(collection);
    }
    for (const collection of touched) this.changed(collection);
    if (touched.size) this.forgetOld();
  }

  /** The write failed or changed nothing: show the replica again. */
  drop(collection: string, id: string, token?: number): void {
    const key = keyOf(collection, id);
    const entry = this.entries.get(key);
    if (!entry || (token !== undefined && entry.token !== token)) return;
    this.entries.delete(key);
    this.changed(collection);
  }

  get(collection: string, id: string): PendingEntry | undefined {
    return this.entries.get(keyOf(collection, id));
  }

  /** Every entry of a collection (few: only this tab's unanswered or just-answered writes). */
  of(collection: string): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const entry of this.entries.values()) if (entry.collection === collection) out.push(entry);
    return out;
  }

  /**
   * Whether the replica's copy (undefined: none) should be shown instead of the entry. Once it
   * does and the write was answered, the entry is no longer needed and is let go quietly (every
   * reader would show the replica's copy anyway, so nobody needs to render again).
   */
  replicaWins(entry: PendingEntry, stored: { row_version: number } | undefined): boolean {
    const wins = entry.record === null ? entry.settledAt !== null && stored === undefined : stored !== undefined && stored.row_version >= entry.supersededAt;
    // A second's grace: readers whose own re-read has not arrived yet still need the entry.
    if (wins && entry.settledAt !== null && entry.settledAt < this.now() - 1000) this.entries.delete(keyOf(entry.collection, entry.id));
    return wins;
  }

  private forgetOld(): void {
    const cutoff = this.now() - FORGET_MS;
    for (const [key, entry] of this.entries) if (entry.settledAt !== null && entry.settledAt < cutoff) this.entries.delete(key);
  }

  private changed(collection: string): void {
    this.versions.set(collection, this.versionOf(collection) + 1);
    for (const listener of this.listeners) listener();
  }
}

/**
 * The backend with this tab's writes shown at once: `save` and `remove` put an entry before the
 * call and settle or drop it after. Conflicts and refusals reported later drop the entry too, so
 * the replica's restored copy shows.
 */
export function withPendingWrites(inner: BoardBackend, pending = new PendingWrites()): BoardBackend {
  inner.onProblem((problem) => pending.drop(problem.collection, problem.id));
  inner.onWritten?.((records) => pending.showStored(records));
  return {
    ...inner,
    pending,
    async save(collection, record, options) {
      const token = pending.put(collection, record.id, { ...record, row_version: record.row_version + 1 }, record.row_version + 1);
      try {
        const stored = await inner.save(collection, record, options);
        pending.settle(collection, record.id, token, stored);
        return stored;
      } catch (error) {
        pending.drop(collection, record.id, token);
        throw error;
      }
    },
    async restore(teamId, collection, id) {
      pending.drop(collection, id);
      await inner.restore(teamId, collection, id);
    },
    async remove(collection, id, options) {
      const token = pending.put(collection, id, null, Number.POSITIVE_INFINITY);
      try {
        await inner.remove(collection, id, options);
        pending.settle(collection, id, token, undefined);
      } catch (error) {
        pending.drop(collection, id, token);
        throw error;
      }
    },
  };
}
