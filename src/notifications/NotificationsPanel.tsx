import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Notification } from '../../schema/notifications';
import { matchRoute, pathFor } from '../../schema/routes';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { floatingStyle, useFloating } from '../ui/use-floating';
import { useLayer } from '../ui/use-layer';
import { NotificationsApi } from './api';
import { markAllNotificationsRead, markNotifications, notificationFeed, useUnreadCount } from './feed';
import { notificationTarget } from './targets';
import { openingFor } from './opening';
import { workspaces } from '../api/workspaces-cache';
import { notificationText } from './texts';

const PAGE_SIZE = 20;

type Filter = 'unread' | 'all';

/**
 * The notifications panel (a lazy chunk, opened by NotificationsButton): unread or all, newest
 * first with "Load more"; mark one read/unread, mark all read; a click marks it read and opens its
 * target (targets.ts). Live: the worker's events update rows in place and add new ones on top.
 */
export default function NotificationsPanel({ anchor, onClose }: { anchor: RefObject<HTMLElement | null>; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location });
  const panel = useRef<HTMLDivElement>(null);
  const position = useFloating(true, anchor, panel, { side: 'bottom', align: 'end' });
  const unread = useUnreadCount();
  const [filter, setFilter] = useState<Filter>('unread');
  const [rows, setRows] = useState<Notification[]>([]);
  const [after, setAfter] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  useLayer({ open: true, inside: [panel, anchor], onDismiss: (reason) => { if (reason === 'escape') anchor.current?.focus(); onClose(); } });

  const load = useCallback(async (which: Filter, cursor: string | null) => {
    setLoading(true);
    setFailed(false);
    try {
      const page = await NotificationsApi.list({ unread: which === 'unread', after: cursor, limit: PAGE_SIZE });
      setRows((before) => (cursor ? [...before, ...page.data.filter((n) => !before.some((b) => b.id === n.id))] : page.data));
      setAfter(page.after);
      setHasMore(page.has_more);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => void load(filter, null), [filter, load]);
  // The "Syncing" moment (S4.5): the list is read again from the top.
  useEffect(() => notificationFeed.onInvalidate(() => void load(filter, null)), [filter, load]);

  // Live updates from the worker (this tab's marks, other tabs', other devices', new ones).
  useEffect(
    () =>
      notificationFeed.onEvent((event) => {
        const change = event.change;
        if (!change) return;
        if (change.kind === 'all-read') {
          setRows((before) => before.map((n) => (n.read_at === null && n.created_at <= change.read_at ? { ...n, read_at: change.read_at } : n)));
          return;
        }
        const next = change.notification;
        setRows((before) => {
          if (before.some((n) => n.id === next.id)) return before.map((n) => (n.id === next.id ? next : n));
          // A new one goes on top; an older one marked elsewhere is not ours to insert.
          const isNewest = before.length === 0 || BigInt(next.id) > BigInt(before[0]!.id);
          return isNewest && (filter === 'all' || next.read_at === null) ? [next, ...before] : before;
        });
      }),
    [filter],
  );

  const current = matchRoute(location.pathname);
  const currentBoard = current?.route.name === 'board' || current?.route.name === 'folder' ? String(current.params.rootId ?? '') : null;
  const currentView = (location.search as { view?: unknown }).view;

  const setRead = async (n: Notification, read: boolean) => {
    // Shown at once; put back if the server refused (the mark call itself swallows the error).
    const readAt = read ? new Date().toISOString() : null;
    setRows((before) => before.map((r) => (r.id === n.id ? { ...r, read_at: readAt } : r)));
    if (!(await markNotifications([n.id], read))) setRows((before) => before.map((r) => (r.id === n.id ? { ...r, read_at: n.read_at } : r)));
  };

  const open = (n: Notification) => {
    if (n.read_at === null) void setRead(n, true);
    const target = notificationTarget(n, { boardId: currentBoard, view: typeof currentView === 'string' ? currentView : null });
    if (!target) return;
    onClose();
    // A workspace's white-label link, or an address outside the app, opens in a new window.
    const opening = openingFor(target.href, n.team_id, workspaces.get(), window.location.origin);
    if (opening.kind === 'external') window.open(opening.url, '_blank', 'noopener');
    else void navigate({ href: opening.href });
  };

  const markAll = async () => {
    const readAt = new Date().toISOString();
    const before = rows;
    setRows(rows.map((n) => (n.read_at === null ? { ...n, read_at: readAt } : n)));
    if (!(await markAllNotificationsRead())) setRows(before);
  };

  const empty = filter === 'unread' ? t`You have no unread notifications.` : t`No notifications yet.`;
  const title = t`Notifications`;

  return createPortal(
    <div ref={panel} className="notifications-panel" role="dialog" aria-label={title} style={floatingStyle(position)} data-testid="notifications-panel">
      <header className="notifications-panel__header">
        <h2 className="notifications-panel__title">{title}</h2>
        <Button size="sm" variant="ghost" onClick={() => void markAll()} disabled={unread === 0 && !rows.some((n) => n.read_at === null)}>
          {t`Mark all as read`}
        </Button>
      </header>
      <div className="notifications-panel__filters" role="group" aria-label={t`Show`}>
        <button type="button" aria-pressed={filter === 'unread'} onClick={() => setFilter('unread')}>
          {t`Unread`}
        </button>
        <button type="button" aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
          {t`All`}
        </button>
      </div>
      {failed && rows.length === 0 ? (
        <p className="notifications-panel__empty" role="alert">
          {t`Notifications could not be loaded. Check your connection and try again.`}{' '}
          <Button size="sm" onClick={() => void load(filter, null)}>{t`Try again`}</Button>
        </p>
      ) : rows.length === 0 && !loading ? (
        <p className="notifications-panel__empty">{empty}</p>
      ) : (
        <ul className="notifications-panel__list" aria-label={title}>
          {rows.map((n) => {
            const text = notificationText(n, i18n);
            const isUnread = n.read_at === null;
            return (
              <li key={n.id} className={`notification-row${isUnread ? ' is-unread' : ''}`} data-notification-id={n.id}>
                <button type="button" className="notification-row__open" onClick={() => open(n)}>
                  <span className="notification-row__title">
                    {isUnread && <span className="visually-hidden">{t`Unread:`} </span>}
                    {text.title}
                  </span>
                  {text.body && <span className="notification-row__body">{text.body}</span>}
                  <time className="notification-row__time" dateTime={n.created_at}>
                    {relativeTime(n.created_at, i18n.locale)}
                  </time>
                </button>
                <Button size="sm" variant="ghost" className="notification-row__mark" onClick={() => void setRead(n, isUnread)}>
                  {isUnread ? t`Mark as read` : t`Mark as unread`}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <footer className="notifications-panel__footer">
        {loading ? <Spinner size="sm" /> : hasMore && <Button size="sm" onClick={() => void load(filter, after)}>{t`Load more`}</Button>}
        <Link to={pathFor('profile.notifications')} className="notifications-panel__settings" onClick={onClose}>
          {t`Notification settings`}
        </Link>
      </footer>
    </div>,
    document.body,
  );
}

/** "5 minutes ago" in the tab's language (Intl; nothing to download). */
function relativeTime(iso: string, locale: string): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [[60, 'second'], [60, 'minute'], [24, 'hour'], [7, 'day'], [4.35, 'week'], [12, 'month']];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}
