import { api, request } from '../api/client';
import type { Notification, NotificationSettings, NotificationType, ChannelSettings } from '../../schema/notifications';

/**
 * The notification calls a tab makes itself (workspace.md §4; server/notifications/routes.ts).
 * The count and the marks normally go through the worker (feed.ts); these are the online-only
 * reads of the panel and the settings screen, and the fallback marks.
 */
export interface NotificationPage {
  data: Notification[];
  after: string | null;
  has_more: boolean;
}

export const NotificationsApi = {
  list: (options: { unread: boolean; after?: string | null; limit?: number }) => {
    const query = new URLSearchParams({ limit: String(options.limit ?? 20) });
    if (options.unread) query.set('unread', '1');
    if (options.after) query.set('after', options.after);
    return api.get<NotificationPage>(`/api/notifications?${query}`);
  },
  mark: (ids: string[], read: boolean) => api.put(read ? '/api/notifications/read' : '/api/notifications/unread', { notification_ids: ids }),
  markAllRead: () => api.put('/api/notifications/read-all', { read_at: new Date().toISOString() }),
  settings: async () => (await api.get<{ data: NotificationSettings }>('/api/me/notification-settings')).data,
  saveSettings: async (patch: Partial<Record<NotificationType, Partial<ChannelSettings>>>) =>
    (await api.put<{ data: NotificationSettings }>('/api/me/notification-settings', patch)).data,
  vapidPublicKey: async () => (await api.get<{ public_key: string }>('/api/notifications/vapid-public-key')).public_key,
  addDeviceToken: (token: string) => api.post('/api/notifications/device-tokens', { token }),
  /** DELETE with a body: the path is the same for every token. */
  removeDeviceToken: (token: string) => request('DELETE', '/api/notifications/device-tokens', { token }),
};
