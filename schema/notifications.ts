import { z } from 'zod';

/**
 * Notifications on the wire (workspace.md §3, §4): the record the API and the realtime channel
 * `private-App.User.{id}` carry, its types, and the per-type delivery settings. Shared by the
 * server (server/notifications) and the app (src/notifications), so both name things alike.
 */

/** Every notification type (workspace.md §2, notification-to-route mapping). */
export const NOTIFICATION_TYPES = [
  /** Added to a members attribute of an item (item, attributes tab). */
  'members_attribute_added',
  /** A form of the board was submitted (item, attributes tab). */
  'form_submitted',
  /** A comment on an item you follow (item, comments tab, comment highlighted). */
  'comment_created',
  /** A reaction to your comment (item, comments tab, comment highlighted). */
  'comment_reaction_created',
  /** Mentioned in a comment (item, comments tab, comment highlighted). */
  'comment_mentioned',
  /** A template was shared with you (template landing page). */
  'template_shared',
  /** An automation's "notify" action on an item (the item). */
  'automation_item',
  /** An automation's "notify" action on a board (the board). */
  'automation_board',
  /** Automation runs at 80 % / 100 % of the monthly limit (board usage tab, automations flag). */
  'automation_runs_warning',
  'automation_runs_exceeded',
  /** Storage at 80 % / 100 % (billing). */
  'storage_warning',
  'storage_exceeded',
  /** Someone subscribed to an item or a folder view (subscribeable_type ITEM or FOLDERVIEW). */
  'user_subscribed',
  /** A webhook was switched off after 50 failed deliveries in a row (its owner; body: the URL). */
  'hook_deactivated',
  /** A background board job (import, duplicate, move) finished / failed; body: what it did or why (decision 0160). */
  'board_job_done',
  'board_job_failed',
  /** A board was moved out of your workspace by someone else (the source workspace's owner; body: the board's name; N3). */
  'board_moved',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const SUBSCRIBEABLE_TYPES = ['ITEM', 'FOLDERVIEW'] as const;
export type SubscribeableType = (typeof SUBSCRIBEABLE_TYPES)[number];

/** One notification as GET /api/notifications and the "notification saved" event carry it. */
export interface Notification {
  /** Decimal string (a bigint on the server). */
  id: string;
  notification_type: NotificationType;
  team_id: number | null;
  board_id: string | null;
  folder_id: string | null;
  item_id: string | null;
  comment_id: string | null;
  template_id: string | null;
  subscribeable_type: SubscribeableType | null;
  subscribeable_id: string | null;
  /** ISO time; null while unread. */
  read_at: string | null;
  created_at: string;
  /** Who caused it, as they were named then (null for the system: limits, Autobot says "Autobot"). */
  created_by_name: string | null;
  board_name: string | null;
  item_name: string | null;
  attribute_name: string | null;
  template_name: string | null;
  form_name: string | null;
  /** Plain text: the comment's text (mentions, comments), an automation's message. */
  body: string | null;
  /** Limit notifications: the figure used and the limit (automation runs, bytes of storage). */
  usage: number | null;
  limit: number | null;
}

/** Realtime event names on `private-App.User.{id}` (workspace.md §7). */
export const NotificationEvents = {
  /** data: the Notification (new, or read/unread changed). */
  saved: 'notification saved',
  /** data: `{ read_at }` — every notification of the user unread before that time is now read. */
  allRead: 'all notifications read',
} as const;

export const notificationChannel = (userId: number) => `private-App.User.${userId}`;

/** Where a notification may reach its user. */
export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelSettings = Record<NotificationChannel, boolean>;
/** GET/PUT /api/me/notification-settings: every type with its three switches. */
export type NotificationSettings = Record<NotificationType, ChannelSettings>;

/** What a user gets without having chosen: everything, everywhere (email is batched). */
export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = { in_app: true, email: true, push: true };

export const MAX_NOTIFICATION_IDS = 500;

/** A notification id in a request body: the decimal string the API gives, or the number. */
const notificationId = z.union([z.string().regex(/^[1-9]\d{0,17}$/, 'must be a notification id'), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)]).transform(String);

export const notificationIdsBody = z.strictObject({
  notification_ids: z.array(notificationId).min(1).max(MAX_NOTIFICATION_IDS),
});

export const readAllBody = z.strictObject({
  /** Everything created up to this time becomes read (so one arriving meanwhile stays unread). Default: now. */
  read_at: z.iso.datetime({ offset: true }).optional(),
});

export const notificationListQuery = z.object({
  /** The `after` cursor of the previous page. */
  after: z.string().regex(/^[1-9]\d{0,17}$/, 'must be a cursor from a previous page').optional(),
  unread: z.enum(['1', '0', 'true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const channelSwitches = z.strictObject({ in_app: z.boolean().optional(), email: z.boolean().optional(), push: z.boolean().optional() });
export const notificationSettingsBody = z.strictObject(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, channelSwitches.optional()])) as Record<NotificationType, z.ZodOptional<typeof channelSwitches>>);

/** Web Push subscriptions come as the browser's PushSubscription JSON; other tokens may follow. */
export const MAX_DEVICE_TOKEN_LENGTH = 4096;
export const deviceTokenBody = z.strictObject({ token: z.string().min(1).max(MAX_DEVICE_TOKEN_LENGTH) });
