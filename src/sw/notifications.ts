/// <reference lib="webworker" />
/**
 * Desktop notifications and Web Push in the service worker (issue #11 part 6; decision 0113).
 *
 * - message `show-notification` (from a hidden tab, src/notifications/desktop.ts) and `push` (the
 *   server's Web Push: {title, body, url, tag, notification}): shown with showNotification unless a
 *   tab of the app is visible — the user sees the count there. The tag (`notification-{id}`)
 *   makes several hidden tabs and a push of the same notification one desktop notification.
 * - notificationclick: focuses a tab of the app and opens the notification's target there (its url
 *   carries `?notification={id}`, which marks it read on arrival), or opens a new window.
 */
import { SW_MESSAGES } from './messages';

export interface DesktopNotification {
  title: string;
  body: string;
  /** A path of the app (same origin); anything else opens the app's start page. */
  url: string;
  tag: string;
}

/** What may be shown: strings of bounded length and an in-app path. */
export function desktopNotificationOf(value: unknown, origin: string): DesktopNotification | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.title !== 'string' || v.title.trim() === '') return null;
  const text = (s: unknown, max: number) => (typeof s === 'string' ? s.slice(0, max) : '');
  return { title: text(v.title, 200), body: text(v.body, 500), url: inAppUrl(v.url, origin), tag: text(v.tag, 100) || 'notification' };
}

export function inAppUrl(url: unknown, origin: string): string {
  if (typeof url !== 'string') return origin + '/';
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin ? parsed.href : origin + '/';
  } catch {
    return origin + '/';
  }
}

export function installNotificationHandlers(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('message', (event) => {
    const data = event.data as { type?: string; notification?: unknown } | null;
    if (data?.type !== SW_MESSAGES.showNotification) return;
    const shown = desktopNotificationOf(data.notification, sw.location.origin);
    if (shown) event.waitUntil(showUnlessVisible(sw, shown));
  });

  sw.addEventListener('push', (event) => {
    let payload: unknown = null;
    try {
      payload = event.data?.json();
    } catch {
      payload = null;
    }
    const shown = desktopNotificationOf(payload, sw.location.origin);
    if (shown) event.waitUntil(showUnlessVisible(sw, shown));
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = inAppUrl((event.notification.data as { url?: unknown } | null)?.url, sw.location.origin);
    event.waitUntil(openInApp(sw, url));
  });
}

async function showUnlessVisible(sw: ServiceWorkerGlobalScope, n: DesktopNotification): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.some((client) => client.visibilityState === 'visible')) return;
  await sw.registration.showNotification(n.title, { body: n.body, tag: n.tag, data: { url: n.url } });
}

async function openInApp(sw: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window' });
  const tab = windows.find((client) => client.focused) ?? windows[0];
  if (!tab) {
    await sw.clients.openWindow(url);
    return;
  }
  const focused = await tab.focus().catch(() => tab);
  await focused.navigate(url).catch(() => sw.clients.openWindow(url));
}
