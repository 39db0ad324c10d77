/**
 * The unread notification count, kept live by the worker for every tab (issue #11 part 4,
 * workspace.md §4). One place knows the count, so every tab shows the same number and only one
 * request per browser asks the server for it.
 *
 * - `UnreadCounter` (pure): the count state machine. Realtime events move it by deltas; a fetched
 *   count replaces it only when nothing changed while the fetch was under way (otherwise the
 *   snapshot may or may not include that change, and adopting it could count an event twice).
 * - `WorkerNotifications`: one per signed-in session. Fetches `/api/notifications/unread-count`
 *   on sign-in and after every realtime (re)connect, reads "notification saved" / "all
 *   notifications read" from `private-App.User.{id}` (handed over by worker-realtime.ts), marks
 *   read / unread / all read for the tabs, and emits `notifications` to every tab.
 */
import type { Clock } from './clock';
import type { Emitter } from './events';
import type { HttpClient } from './http';
import type { UserDb } from './db';
import { NotificationEvents, type Notification } from '../schema/notifications';

/** A notification as the server sends it (workspace.md §3; schema/notifications.ts). */
export type NotificationRecord = Notification;

/** What tabs hear: the count (null while unknown) and, when an event caused it, what changed. */
export interface NotificationsEvent {
  unread: number | null;
  change?: { kind: 'saved'; notification: NotificationRecord } | { kind: 'all-read'; read_at: string };
}

/** Realtime event names on private-App.User.{id} (workspace.md §7). */
export const NOTIFICATION_SAVED = NotificationEvents.saved;
export const ALL_NOTIFICATIONS_READ = NotificationEvents.allRead;

/** How many notification ids the counter remembers the read state of (enough for any open list). */
const KNOWN_LIMIT = 1000;
/** A count that may be off is fetched again this long after the last change (bursts ask once). */
export const RECOUNT_DELAY_MS = 300;

/** `certain`: the count follows from what we knew; `uncertain`: ask the server. */
export type CountChange = 'unchanged' | 'certain' | 'uncertain';

export class UnreadCounter {
  private count: number | null = null;
  /** id → unread, for the notifications this session has seen. */
  private readonly known = new Map<string, boolean>();
  /** Bumped on every change; a fetch that started at another value is stale. */
  private version = 0;
  /**
   * The newest notification id the adopted count was taken through. A live "saved" of an unseen
   * id at or below it may already be in that count (its event came after the count's answer):
   * counting it again showed 2 for 1 unread (tests/engine/notifications), so the count is asked
   * again instead.
   */
  private countedThrough: number | null = null;

  get value(): number | null {
    return this.count;
  }

  /** The count remembered from an earlier session, until the server answers (an offline start). */
  assume(count: number): boolean {
    if (this.count !== null) return false;
    this.count = Math.max(0, Math.floor(count));
    return true;
  }

  /** Call before fetching the count; hand the token to `fetched`. */
  beginFetch(): number {
    return this.version;
  }

  /** Adopts a fetched count unless something changed meanwhile (then false: fetch again). */
  fetched(count: number, token: number, lastId: number | null = null): boolean {
    if (token !== this.version) return false;
    this.count = Math.max(0, Math.floor(count));
    this.countedThrough = lastId;
    return true;
  }

  /** A notification was created or its read state changed (realtime, or our own mark call). */
  saved(notification: Pick<NotificationRecord, 'id' | 'read_at'>): CountChange {
    return this.set(String(notification.id), notification.read_at === null || notification.read_at === undefined, 'new-if-unknown');
  }

  /** Our own mark call succeeded for these ids. */
  marked(ids: readonly (string | number)[], read: boolean): CountChange {
    let result: CountChange = 'unchanged';
    for (const id of ids) result = worse(result, this.set(String(id), !read, 'unknown-before'));
    return result;
  }

  allRead(): CountChange {
    this.version++;
    for (const id of this.known.keys()) this.known.set(id, false);
    const before = this.count;
    this.count = 0;
    return before === 0 ? 'unchanged' : 'certain';
  }

  /**
   * `new-if-unknown`: an id we never saw is a new notification (realtime "saved" of a fresh one:
   * unread adds one, read adds nothing — unless it is in fact an older one marked elsewhere, which
   * only a read one can be, so that case asks the server). `unknown-before`: a mark of an id we
   * never saw: its earlier state is unknown, so ask.
   */
  private set(id: string, unread: boolean, unknownMeans: 'new-if-unknown' | 'unknown-before'): CountChange {
    this.version++;
    const before = this.known.get(id);
    this.remember(id, unread);
    if (before === undefined) {
      if (unknownMeans === 'unknown-before' || !unread) return 'uncertain';
      if (this.count === null) return 'uncertain';
      const numeric = Number(id);
      if (this.countedThrough !== null && Number.isFinite(numeric) && numeric <= this.countedThrough) return 'uncertain';
      this.count += 1;
      return 'certain';
    }
    if (before === unread) return 'unchanged';
    if (this.count === null) return 'uncertain';
    this.count = Math.max(0, this.count + (unread ? 1 : -1));
    return 'certain';
  }

  private remember(id: string, unread: boolean) {
    this.known.delete(id);
    this.known.set(id, unread);
    if (this.known.size > KNOWN_LIMIT) this.known.delete(this.known.keys().next().value!);
  }
}

function worse(a: CountChange, b: CountChange): CountChange {
  if (a === 'uncertain' || b === 'uncertain') return 'uncertain';
  return a === 'certain' || b === 'certain' ? 'certain' : 'unchanged';
}

/** The server's record, whether sent bare or wrapped as {notification} / {data}. */
export function notificationOf(payload: unknown): NotificationRecord | null {
  let value = payload;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const wrapped = value as { notification?: unknown; data?: unknown } | null;
  const record = (wrapped && typeof wrapped === 'object' && (wrapped.notification ?? (isRecord(wrapped.data) ? wrapped.data : null))) || value;
  if (!isRecord(record) || (typeof record.id !== 'string' && typeof record.id !== 'number')) return null;
  if (typeof record.notification_type !== 'string') return null;
  const readAt = record.read_at;
  return { ...(record as unknown as NotificationRecord), id: String(record.id), read_at: typeof readAt === 'string' ? readAt : null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the last known count is kept between sessions (the user's `meta` table). */
export interface CountMemory {
  load(): Promise<number | null>;
  save(count: number): Promise<void>;
}

const MEMORY_KEY = 'notifications.unread';

export function countMemoryIn(db: UserDb): CountMemory {
  return {
    load: async () => {
      const value = (await db.relaxed.meta.get(MEMORY_KEY))?.value;
      return typeof value === 'number' ? value : null;
    },
    save: async (count) => {
      await db.relaxed.meta.put({ key: MEMORY_KEY, value: count });
    },
  };
}

export interface WorkerNotificationsOptions {
  http: HttpClient;
  events: Emitter;
  clock: Clock;
  /** Shows the last known count on an offline start; a fetched count replaces it. */
  memory?: CountMemory;
}

export class WorkerNotifications {
  readonly counter = new UnreadCounter();
  private recountTimer: unknown = null;
  private fetching: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly opts: WorkerNotificationsOptions) {
    void opts.memory
      ?.load()
      .then((count) => {
        if (count !== null && !this.stopped && this.counter.assume(count)) this.emit();
      })
      .catch(() => undefined);
  }

  get unread(): number | null {
    return this.counter.value;
  }

  /** Asks the server for the count (sign-in, reconnect). Concurrent asks share one request. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.fetching) {
      this.again = true;
      return this.fetching;
    }
    this.fetching = this.fetchOnce().finally(() => {
      this.fetching = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.scheduleRecount();
      }
    });
    return this.fetching;
  }

  /** An event on private-App.User.{id}. Other events there (TimeEntrySaved…) are not ours. */
  onRealtime(event: string, data: unknown): void {
    if (this.stopped) return;
    if (event === NOTIFICATION_SAVED) {
      const notification = notificationOf(data);
      if (!notification) return;
      this.after(this.counter.saved(notification), { kind: 'saved', notification });
    } else if (event === ALL_NOTIFICATIONS_READ) {
      const readAt = (data as { read_at?: unknown } | null)?.read_at;
      this.after(this.counter.allRead(), { kind: 'all-read', read_at: typeof readAt === 'string' ? readAt : new Date(this.opts.clock.now()).toISOString() });
    }
  }

  /**
   * PUT /api/notifications/read or /unread for the signed-in user's own notifications. Errors are
   * swallowed (workspace.md §4): a refused mark changes nothing here, and the count is asked again.
   */
  async mark(ids: readonly (string | number)[], read: boolean): Promise<boolean> {
    if (ids.length === 0) return true;
    const ok = await this.put(read ? '/api/notifications/read' : '/api/notifications/unread', { notification_ids: ids.map(String) });
    if (ok) this.after(this.counter.marked(ids, read));
    else this.scheduleRecount();
    return ok;
  }

  /** PUT /api/notifications/read-all with {read_at}. */
  async markAllRead(): Promise<boolean> {
    const readAt = new Date(this.opts.clock.now()).toISOString();
    const ok = await this.put('/api/notifications/read-all', { read_at: readAt });
    if (ok) this.after(this.counter.allRead(), { kind: 'all-read', read_at: readAt });
    else this.scheduleRecount();
    return ok;
  }

  stop(): void {
    this.stopped = true;
    if (this.recountTimer !== null) this.opts.clock.clearTimeout(this.recountTimer);
    this.recountTimer = null;
  }

  private async put(path: string, body: unknown): Promise<boolean> {
    try {
      const response = await this.opts.http.request('put', path, { body });
      return response.ok;
    } catch {
      return false;
    }
  }

  private async fetchOnce(): Promise<void> {
    const token = this.counter.beginFetch();
    let count: number | null = null;
    let lastId: number | null = null;
    try {
      const response = await this.opts.http.request<{ unread_count?: unknown; last_id?: unknown }>('get', '/api/notifications/unread-count');
      const value = response.ok ? response.body?.unread_count : undefined;
      if (typeof value === 'number' && Number.isFinite(value)) count = value;
      const last = response.ok ? response.body?.last_id : undefined;
      lastId = typeof last === 'number' && Number.isFinite(last) ? last : null;
    } catch {
      return; // offline: keep what we have; the reconnect asks again
    }
    if (count === null || this.stopped) return;
    if (this.counter.fetched(count, token, lastId)) this.emit();
    else this.again = true;
  }

  private after(change: CountChange, what?: NotificationsEvent['change']) {
    if (change === 'uncertain') this.scheduleRecount();
    if (change !== 'unchanged' || what) this.emit(what);
  }

  private scheduleRecount() {
    if (this.stopped) return;
    if (this.recountTimer !== null) this.opts.clock.clearTimeout(this.recountTimer);
    this.recountTimer = this.opts.clock.setTimeout(() => {
      this.recountTimer = null;
      void this.refresh();
    }, RECOUNT_DELAY_MS);
  }

  private emit(change?: NotificationsEvent['change']) {
    const count = this.counter.value;
    if (count !== null) void this.opts.memory?.save(count).catch(() => undefined);
    this.opts.events.emit('notifications', change ? { unread: this.counter.value, change } : { unread: this.counter.value });
  }
}
