/**
 * Fallback without SharedWorker (older Android Chrome, some private windows): every tab starts a
 * dedicated worker; the one holding the Web Lock is the leader and runs the only SyncRuntime (the
 * only writer and the only one talking to the server). The others forward every call to it over
 * a BroadcastChannel and relay its events to their tab. Same API as the SharedWorker.
 *
 * When the leader's tab closes, its lock is released, the next worker takes it and its runtime
 * resumes the session from the user's database (token and queue are stored there).
 */
import type { SyncListener, SyncRuntime, SyncWorkerApi } from './api';
import type { Clock } from './clock';

export const LEADER_LOCK = 'cairn-sync-leader';
export const BUS_NAME = 'cairn-sync';
/** A forwarded call with no answer (the leader went away mid-call) fails after this long. */
export const FORWARD_TIMEOUT_MS = 30_000;

export interface LockManagerLike {
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
}

export interface BusLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

type Message =
  | { type: 'call'; id: string; method: string; args: unknown[] }
  | { type: 'reply'; id: string; ok: boolean; value?: unknown; error?: { name: string; message: string } }
  | { type: 'event'; event: string; payload: unknown };

export interface ForwarderOptions {
  locks: LockManagerLike;
  bus: BusLike;
  createRuntime: () => SyncRuntime;
  newId: () => string;
  clock: Clock;
  timeoutMs?: number;
}

const FORWARDED: (keyof SyncWorkerApi)[] = [
  'signIn', 'signOut', 'currentUser', 'openBoard', 'refresh', 'save', 'delete', 'addDraft', 'discardDraft', 'flushDraft',
  'drafts', 'conflicts', 'dismissConflict', 'conflictInbox', 'resolveConflict', 'exportUnsynced', 'failedRequests', 'notSaved', 'retryNotSaved', 'discardNotSaved', 'retryFailed', 'setQueueing', 'flush',
  'setPassword', 'connectionStatus', 'reportOnline', 'reportServerReach', 'request', 'notificationCount', 'markNotifications', 'markAllNotificationsRead',
];

export class LeaderForwarder {
  private runtime: SyncRuntime | null = null;
  private pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: unknown }>();
  private listeners = new Map<number, SyncListener>();
  private nextListener = 1;
  private resign: (() => void) | null = null;

  constructor(private readonly opts: ForwarderOptions) {
    opts.bus.addEventListener('message', (event) => this.onMessage(event.data as Message));
    void opts.locks.request(LEADER_LOCK, () => this.lead());
    for (const method of FORWARDED) {
      (this as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] = (...args: unknown[]) => this.call(method, args);
    }
  }

  get isLeader(): boolean {
    return this.runtime !== null;
  }

  async subscribe(listener: SyncListener): Promise<number> {
    const id = this.nextListener++;
    this.listeners.set(id, listener);
    return id;
  }

  async unsubscribe(id: number): Promise<void> {
    this.listeners.delete(id);
  }

  /** Gives up leadership (the tab is closing); another worker takes the lock. */
  close(): void {
    this.resign?.();
    this.opts.bus.close();
  }

  /** Holds the lock for as long as this worker lives. */
  private lead(): Promise<void> {
    const runtime = this.opts.createRuntime();
    this.runtime = runtime;
    // A new leader picks up the session the previous one left in the database (idempotent).
    void runtime.resume().catch(() => false);
    runtime.events.on((event, payload) => {
      this.opts.bus.postMessage({ type: 'event', event, payload } satisfies Message);
      this.deliver(event, payload);
    });
    return new Promise<void>((resolve) => {
      this.resign = () => {
        this.runtime = null;
        resolve();
      };
    });
  }

  private deliver(event: string, payload: unknown): void {
    for (const [id, listener] of this.listeners) {
      Promise.resolve()
        .then(() => (listener as (e: string, p: unknown) => unknown)(event, payload))
        .catch(() => this.listeners.delete(id));
    }
  }

  private async call(method: string, args: unknown[]): Promise<unknown> {
    if (this.runtime) return (this.runtime as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args);
    const id = this.opts.newId();
    return new Promise((resolve, reject) => {
      const timer = this.opts.clock.setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('The sync leader did not answer.'));
      }, this.opts.timeoutMs ?? FORWARD_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.opts.bus.postMessage({ type: 'call', id, method, args } satisfies Message);
    });
  }

  private onMessage(message: Message): void {
    if (message.type === 'call') {
      if (!this.runtime || !FORWARDED.includes(message.method as keyof SyncWorkerApi)) return;
      const target = this.runtime as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      Promise.resolve()
        .then(() => target[message.method]!(...message.args))
        .then(
          (value) => this.opts.bus.postMessage({ type: 'reply', id: message.id, ok: true, value } satisfies Message),
          (error: Error) =>
            this.opts.bus.postMessage({ type: 'reply', id: message.id, ok: false, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } } satisfies Message),
        );
      return;
    }
    if (message.type === 'reply') {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      this.opts.clock.clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(message.value);
      else {
        const error = new Error(message.error?.message);
        error.name = message.error?.name ?? 'Error';
        waiting.reject(error);
      }
      return;
    }
    if (message.type === 'event' && !this.runtime) this.deliver(message.event, message.payload);
  }
}

/** The forwarder has every method of the API (installed in the constructor). */
export type LeaderApi = LeaderForwarder & SyncWorkerApi;
