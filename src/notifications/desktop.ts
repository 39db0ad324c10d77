import type { Notification as NotificationRecord, NotificationSettings, NotificationType } from '../../schema/notifications';
import { SW_MESSAGES } from '../sw/messages';
import type { DesktopNotification } from '../sw/notifications';
import { i18n } from '../i18n/i18n';
import { notificationFeed } from './feed';
import { NotificationsApi } from './api';
import { openingHref } from './targets';

/**
 * Desktop notifications (issue #11 part 6, workspace.md §8): a new unread notification that
 * arrives while this tab is hidden goes to the service worker, which shows it only when no tab of
 * the app is visible (it alone sees every tab) and under the tag `notification-{id}`, so several
 * hidden tabs, and a Web Push of the same notification, make one desktop notification.
 * Shown only with the browser's permission and where the user keeps "desktop/push" on for the type.
 */
let settings: Promise<NotificationSettings | null> | null = null;

/** The settings screen hands over what it saved, so the next notification follows it. */
export function rememberNotificationSettings(value: NotificationSettings | null) {
  settings = value ? Promise.resolve(value) : null;
}

async function wantsDesktop(type: NotificationType): Promise<boolean> {
  settings ??= NotificationsApi.settings().catch(() => null);
  const current = await settings;
  return current?.[type]?.push ?? true;
}

export function startDesktopNotifications(): () => void {
  const off = notificationFeed.onEvent((event) => {
    if (event.change?.kind !== 'saved') return;
    const n = event.change.notification;
    if (n.read_at !== null || document.visibilityState !== 'hidden') return;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    void show(n).catch(() => undefined);
  });
  return () => {
    off();
    settings = null;
  };
}

async function show(n: NotificationRecord): Promise<void> {
  if (!(await wantsDesktop(n.notification_type))) return;
  const { notificationText } = await import('./texts');
  const text = notificationText(n, i18n);
  const message: DesktopNotification = { title: text.title, body: text.body, url: openingHref(n), tag: `notification-${n.id}` };
  const controller = navigator.serviceWorker?.controller;
  if (controller) {
    controller.postMessage({ type: SW_MESSAGES.showNotification, notification: message });
    return;
  }
  // No service worker (dev server): the page shows it itself; a click brings this tab forward.
  const shown = new Notification(message.title, { body: message.body, tag: message.tag });
  shown.onclick = () => {
    window.focus();
    window.location.assign(message.url);
    shown.close();
  };
}
