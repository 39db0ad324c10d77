import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyRetry } from '../ui/lazy-retry';
import { useLingui } from '@lingui/react/macro';
import { useSession } from '../api/session';
import { followNotifications, useUnreadCount } from './feed';
import './notifications.css';

/** The list opens rarely: its code is a chunk of its own (the shell budget, DESIGN.md §8). */
const NotificationsPanel = lazyRetry(() => import('./NotificationsPanel'));

/** Shown as "99+" past this many; the accessible name still says the number. */
const BADGE_MAX = 99;

/**
 * Follows the worker's notifications for the signed-in user (not guests: workspace.md §6) and
 * shows new ones on the desktop while every tab is hidden. Headless; always in the frame.
 */
export function NotificationsWatcher() {
  const { status, user } = useSession();
  const userId = status === 'signedIn' && !user.guest ? user.id : null;
  useEffect(() => followNotifications(userId), [userId]);
  useEffect(() => {
    if (userId === null) return;
    // Desktop notifications load after the first paint: not part of the shell's first bytes.
    let stop: (() => void) | null = null;
    let live = true;
    void import('./desktop').then(({ startDesktopNotifications }) => {
      if (live) stop = startDesktopNotifications();
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [userId]);
  // The installed app asks for push permission once the profile has loaded (S4.26; push-on-load.ts).
  useEffect(() => {
    if (userId === null) return;
    void import('./push-on-load').then(({ askPushOnLoad }) => askPushOnLoad(false));
  }, [userId]);
  return null;
}

/** The frame's notifications button: the unread count, and the panel. */
export function NotificationsButton() {
  const { t } = useLingui();
  const { status, user } = useSession();
  const unread = useUnreadCount();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (status !== 'signedIn' || user.guest) return null;
  const count = unread ?? 0;
  const label = count > 0 ? t`Notifications, ${count} unread` : t`Notifications`;
  return (
    <>
      <button
        ref={button}
        type="button"
        className="notifications-button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="notifications-button"
      >
        <BellIcon />
        {count > 0 && (
          <span className="notifications-badge" aria-hidden="true" data-testid="notifications-count">
            {count > BADGE_MAX ? `${BADGE_MAX}+` : count}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel anchor={button} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function BellIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}
