/**
 * The engine's events, delivered to every tab (through Comlink in api.ts). Names are what the
 * app subscribes to; payloads are plain data so they cross postMessage.
 */
import type { SyncRecord } from './types';
import type { ConflictsChanged, NamedConflict } from '../schema/sync-conflicts';
import type { NotificationsEvent } from './notifications';

export interface FailedRequestSummary {
  key: string;
  collection: string;
  id: string;
  method: string;
  error: string | null;
  reserved_at: number | null;
}

export interface EngineEvents {
  connection: { status: 'connected' | 'disconnected' };
  /** A conflict row was recorded (one per field both sides changed; decision 0345), with its item and field names. */
  conflict: NamedConflict;
  /** The conflicts table changed (recorded, resolved): every tab updates its inbox count at once. */
  conflicts: ConflictsChanged;
  /** The server refused a request for good (4xx); the previous copy was restored. */
  rejected: { collection: string; id: string; method: string; status: number; message: string };
  /** The number of refused edits kept for the user (decision 0094) changed. */
  'not-saved': { count: number };
  /**
   * The browser refused to store an edit (quota): `held` edits wait in memory and are written to
   * the durable queue as soon as space frees (0 once they all are).
   */
  'quota-exceeded': { message: string; held: number };
  /** Edits held in memory for lack of space are now in the durable queue. */
  'storage-freed': { written: number };
  /** force: x-force-reload (reload at once); headers: both values as sent, for the shell's rules (src/sw/update-rules.ts). */
  'update-required': { force: boolean; headers: { 'x-update-required': string | null; 'x-force-reload': string | null } };
  /** The server pushed the version it runs (realtime, on each user-channel subscription; S4.11): tabs compare it with their build. */
  'server-version': { version: string | null };
  'session-expired': Record<string, never>;
  /**
   * The server answers from another database than the replica was loaded from, or is behind our
   * cursor (reset, restored from a backup): the replica was dropped and is being loaded again;
   * queued edits were kept and go to the new server (decision 0102). Told once per start-over.
   */
  'server-reset': { reason: 'identity' | 'cursor'; queued: number };
  /** Debounced list of requests waiting after a failure (shell.md §4: 500 ms). */
  'failed-requests': { count: number; pending: number; failed: FailedRequestSummary[] };
  /** The delayed full sync after a reconnect started (the app toasts "syncing"). */
  syncing: Record<string, never>;
  /**
   * What an action stored, right after its transaction committed (decision 0295): every tab shows
   * these copies at once, before its own read of the replica catches up (that read waits for the
   * change notice and for IndexedDB). Sent for actions of up to WRITTEN_SHOWN records; `null` is a
   * deleted record.
   */
  written: { records: { collection: string; id: string; record: SyncRecord | null }[] };
  /** A board's records were (re)loaded from its index address. */
  loaded: { teamId: number; boardId: string };
  /** The unread notification count (null while unknown) and the notification event that moved it (notifications.ts). */
  notifications: NotificationsEvent;
  /**
   * An event of a workspace's own channels (shell.md §7: team.{id}.users — member.saved,
   * member.removed, team.saved, team.deleted — and team.{id}.permissions — saved), passed on as
   * sent so the app reloads what it shows of that workspace (src/navigation/team-events.ts).
   */
  team: { teamId: number; channel: 'users' | 'permissions'; event: string; data: unknown };
}

/** Actions writing more records than this are not announced in `written` (a bulk edit waits for the replica). */
export const WRITTEN_SHOWN = 50;

export type EventName = keyof EngineEvents;
export type Listener<K extends EventName = EventName> = (event: K, payload: EngineEvents[K]) => void;

/** A small emitter: one listener list for every event name, so Comlink needs one callback. */
export class Emitter {
  private listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<K extends EventName>(event: K, payload: EngineEvents[K]): void {
    for (const listener of [...this.listeners]) {
      try {
        (listener as Listener<K>)(event, payload);
      } catch {
        // A broken listener (a closed tab's port) must not stop the others.
      }
    }
  }
}
