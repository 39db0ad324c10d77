import { sql, type Selectable } from 'kysely';
import type { Database } from '../db/types';
import type { Db } from '../sync/store';
import type { Notification, NotificationType, SubscribeableType } from '../../schema/notifications';
import { usersWanting } from './settings';

/** The notifications table: writing new ones (idempotently), reading and marking a user's own. */

export type NotificationRow = Selectable<Database['notifications']>;

/** A notification to create, before it has an id. Fields left out are null. */
export interface NotificationDraft {
  user_id: number;
  notification_type: NotificationType;
  /** Unique per user among the notifications of one cause (e.g. `{eventId}:{type}`): a repeat inserts nothing. */
  dedupe_key: string;
  team_id?: number | null;
  board_id?: string | null;
  folder_id?: string | null;
  item_id?: string | null;
  comment_id?: string | null;
  template_id?: string | null;
  subscribeable_type?: SubscribeableType | null;
  subscribeable_id?: string | null;
  actor_id?: number | null;
  created_by_name?: string | null;
  board_name?: string | null;
  item_name?: string | null;
  attribute_name?: string | null;
  template_name?: string | null;
  form_name?: string | null;
  body?: string | null;
  usage?: number | null;
  limit?: number | null;
}

/** Longest body kept (a comment's words): enough for a preview, a mail line and a push. */
export const MAX_BODY_LENGTH = 500;

/**
 * Inserts the drafts whose users want the type in the app (in_app off: nothing is created, so
 * nothing is mailed or pushed either). Drafts already written (same user and dedupe key) are
 * skipped. Answers the rows actually created.
 */
export async function insertNotifications(db: Db, drafts: NotificationDraft[], now: Date): Promise<NotificationRow[]> {
  const wanted: NotificationDraft[] = [];
  const byType = new Map<NotificationType, NotificationDraft[]>();
  for (const draft of drafts) byType.set(draft.notification_type, [...(byType.get(draft.notification_type) ?? []), draft]);
  for (const [type, list] of byType) {
    const users = await usersWanting(
      db,
      list.map((d) => d.user_id),
      type,
      'in_app',
    );
    wanted.push(...list.filter((d) => users.has(d.user_id)));
  }
  if (wanted.length === 0) return [];
  return db
    .insertInto('notifications')
    .values(wanted.map((d) => ({ ...d, body: d.body == null ? null : truncate(d.body, MAX_BODY_LENGTH), created_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
    .returningAll()
    .execute();
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/** The record of workspace.md §3 as the API and the realtime event carry it. */
export function toWire(row: NotificationRow): Notification {
  return {
    id: String(row.id),
    notification_type: row.notification_type as NotificationType,
    team_id: row.team_id,
    board_id: row.board_id,
    folder_id: row.folder_id,
    item_id: row.item_id,
    comment_id: row.comment_id,
    template_id: row.template_id,
    subscribeable_type: row.subscribeable_type as SubscribeableType | null,
    subscribeable_id: row.subscribeable_id,
    read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    created_by_name: row.created_by_name,
    board_name: row.board_name,
    item_name: row.item_name,
    attribute_name: row.attribute_name,
    template_name: row.template_name,
    form_name: row.form_name,
    body: row.body,
    usage: row.usage === null ? null : Number(row.usage),
    limit: row.limit === null ? null : Number(row.limit),
  };
}

/** One page of a user's notifications, newest first; `after` is the last id of the previous page. */
export async function listNotifications(db: Db, userId: number, opts: { after?: string; unread: boolean; limit: number }): Promise<{ data: Notification[]; after: string | null; has_more: boolean }> {
  let query = db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
  if (opts.after !== undefined) query = query.where('id', '<', opts.after);
  if (opts.unread) query = query.where('read_at', 'is', null);
  const rows = await query.orderBy('id', 'desc').limit(opts.limit + 1).execute();
  const hasMore = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit).map(toWire);
  return { data: page, after: hasMore ? page[page.length - 1]!.id : null, has_more: hasMore };
}

/**
 * The user's unread count, and the newest notification id it was counted through (ids only grow):
 * a client that hears a notification live can tell one the count already holds from a new one.
 */
export async function unreadCount(db: Db, userId: number): Promise<{ unread: number; lastId: number | null }> {
  const row = await db
    .selectFrom('notifications')
    .select([sql<string>`count(*) filter (where read_at is null)`.as('n'), sql<string | null>`max(id)`.as('last')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { unread: Number(row.n), lastId: row.last === null ? null : Number(row.last) };
}

/** Marks the user's own notifications among these ids read (at `now`) or unread; answers the ones that changed. */
export async function markNotifications(db: Db, userId: number, ids: string[], read: boolean, now: Date): Promise<Notification[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ read_at: read ? now : null })
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .where('read_at', read ? 'is' : 'is not', null)
    .returningAll()
    .execute();
  return rows.map(toWire).sort((a, b) => Number(b.id) - Number(a.id));
}

/** Marks every notification created up to `readAt` read; answers how many changed. */
export async function markAllRead(db: Db, userId: number, readAt: Date): Promise<number> {
  const result = await db.updateTable('notifications').set({ read_at: readAt }).where('user_id', '=', userId).where('read_at', 'is', null).where('created_at', '<=', readAt).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
