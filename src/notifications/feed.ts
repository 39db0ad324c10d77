import { useSyncExternalStore } from 'react';
import type { NotificationsEvent, SyncConnection } from '../../sync-worker/client';
import { workerSignedInAs } from '../api/worker-session';
import { NotificationsApi } from './api';
import { previewMode } from '../navigation/preview-instance';
import { onNotificationsInvalidated } from './invalidation';

/**
 * This tab's view of the worker's notifications (sync-worker/notifications.ts): the unread count
 * for the frame's button, the events for an open panel and the desktop bridge, and the mark calls.
 * Marks go through the worker, so every tab's count moves at once; they are swallowed on failure
 * (workspace.md §4) and answer whether they worked.
 */
type Listener = () => void;
type EventListener = (event: NotificationsEvent) => void;

let unread: number | null = null;
let connection: SyncConnection | null = null;
let stopCurrent: (() => void) | null = null;
let startedFor: number | null = null;
const listeners = new Set<Listener>();
const eventListeners = new Set<EventListener>();
/** Counts the worker's notifications events, so a count asked before one of them is not applied after it. */
let eventsHeard = 0;

function setUnread(value: number | null) {
  if (value === unread) return;
  unread = value;
  for (const listener of listeners) listener();
}

/** Follows the worker for `userId` (idempotent); call with null on sign-out. */
export function followNotifications(userId: number | null): void {
  if (userId === startedFor) return;
  stopCurrent?.();
  stopCurrent = null;
  connection = null;
  startedFor = userId;
  setUnread(null);
  if (userId === null) return;
  let stopped = false;
  let heard = false;
  stopCurrent = () => {
    stopped = true;
  };
  void (async () => {
    // The worker may not hold the session yet (no token at this moment): ask again a little later.
    let conn: SyncConnection | null = null;
    for (let wait = 500; !conn && !stopped; wait = Math.min(wait * 2, 10_000)) {
      conn = await workerSignedInAs(userId).catch(() => null);
      if (!conn) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (!conn || stopped) return;
    connection = conn;
    const off = await conn.subscribe((event, payload) => {
      if (event !== 'notifications' || stopped) return;
      heard = true;
      eventsHeard++;
      const e = payload as NotificationsEvent;
      setUnread(e.unread);
      for (const listener of eventListeners) listener(e);
    });
    if (stopped) return void off();
    stopCurrent = () => {
      stopped = true;
      void off();
    };
    const count = await conn.api.notificationCount().catch(() => null);
    // An event that arrived meanwhile is newer than this answer.
    if (!stopped && !heard) setUnread(count);
  })();
}

/**
 * The "Syncing" moment invalidates notifications (shell.md §4, S4.5; ./invalidation.ts): what
 * arrived while the tab was away is fetched again, the unread count from the worker here and an
 * open panel's list by the panel.
 */
onNotificationsInvalidated(() => {
  const conn = connection;
  if (!conn) return;
  const before = eventsHeard;
  void conn.api.notificationCount().then(
    (count) => {
      if (connection === conn && eventsHeard === before) setUnread(count);
    },
    () => undefined,
  );
});

export const notificationFeed = {
  unread: () => unread,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Every notifications event of the worker (new, read state changed, all read). */
  onEvent(listener: EventListener) {
    eventListeners.add(listener);
    return () => void eventListeners.delete(listener);
  },
  /** Called when notifications are invalidated (the "Syncing" moment): reload what is shown. */
  onInvalidate: onNotificationsInvalidated,
};

export function useUnreadCount(): number | null {
  return useSyncExternalStore(notificationFeed.subscribe, notificationFeed.unread, notificationFeed.unread);
}

export async function markNotifications(ids: string[], read: boolean): Promise<boolean> {
  if (ids.length === 0) return true;
  // Preview (pretend) mode changes nothing on the server, and the worker would (decision 0280).
  if (previewMode.on) return false;
  if (connection) return connection.api.markNotifications(ids, read).catch(() => false);
  // No worker session in this tab yet: the server still hears it; the count follows its event.
  return NotificationsApi.mark(ids, read).then(
    () => true,
    () => false,
  );
}

export async function markAllNotificationsRead(): Promise<boolean> {
  if (previewMode.on) return false;
  if (connection) return connection.api.markAllNotificationsRead().catch(() => false);
  return NotificationsApi.markAllRead().then(
    () => true,
    () => false,
  );
}

/** For `?notification={id}` (navigation/install.ts): marks it read through the worker. */
export const markReadByParam = (body: { notification_ids: string[] }) => markNotifications(body.notification_ids, true);
