import type { AppContext } from '../context';
import { outboundRule } from '../outbound';
import type { JobQueue } from '../jobs/types';
import { NotificationEvents, notificationChannel, type NotificationType } from '../../schema/notifications';
import { queueMail } from './mail';
import type { DeliverPayload } from './notify';
import { pushPayload, sendPush, type PushSubscriptionJson } from './push';
import { usersWanting } from './settings';
import { toWire, type NotificationRow } from './store';
import { vapidKeys } from './vapid';
import { judgeNames } from './judge-names';
import { localeSettingOf, translator } from '../i18n/catalogs';

/**
 * After new notifications commit: each goes to its user's open tabs ("notification saved" on
 * private-App.User.{id}), the user's mail is queued where they want mail for that type, and one
 * push job per device is queued where they want push. Each step is its own job so a slow push
 * service or mail server never holds up the live count.
 */

export const PUSH_JOB = 'notifications.push';
export interface PushJobPayload {
  notification_id: string;
  subscription_id: string;
}

export async function deliverNotifications(ctx: AppContext, jobs: JobQueue, payload: DeliverPayload): Promise<void> {
  if (payload.ids.length === 0) return;
  const rows = await ctx.db.selectFrom('notifications').selectAll().where('id', 'in', payload.ids).orderBy('id').execute();
  await publishSaved(ctx, rows);
  const now = ctx.now();
  for (const [type, list] of groupByType(rows)) {
    const users = list.map((r) => r.user_id);
    for (const userId of await usersWanting(ctx.db, users, type, 'email')) await queueMail(jobs, ctx.db, userId, now);
    const pushUsers = await usersWanting(ctx.db, users, type, 'push');
    if (pushUsers.size === 0) continue;
    // Only subscriptions of sessions still signed in (a revoked session's device is no longer its user's).
    const subscriptions = await ctx.db
      .selectFrom('push_subscriptions')
      .leftJoin('access_tokens', 'access_tokens.id', 'push_subscriptions.session_id')
      .select(['push_subscriptions.id', 'push_subscriptions.user_id'])
      .where('push_subscriptions.user_id', 'in', [...pushUsers])
      .where((eb) => eb.or([eb('push_subscriptions.session_id', 'is', null), eb('access_tokens.revoked_at', 'is', null)]))
      .execute();
    for (const row of list) {
      if (!pushUsers.has(row.user_id)) continue;
      for (const sub of subscriptions.filter((s) => s.user_id === row.user_id)) {
        const job: PushJobPayload = { notification_id: String(row.id), subscription_id: String(sub.id) };
        await jobs.enqueue(PUSH_JOB, job, { key: `push:${row.id}:${sub.id}` });
      }
    }
  }
}

/** "notification saved" with each notification, on its user's channel. */
export async function publishSaved(ctx: AppContext, rows: NotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const events = rows.map((row) => ({ channel: notificationChannel(row.user_id), event: NotificationEvents.saved, data: toWire(row) }));
  if (ctx.broadcaster.publishMany) await ctx.broadcaster.publishMany(events);
  else for (const e of events) await ctx.broadcaster.publish(e.channel, e.event, e.data);
}

function groupByType(rows: NotificationRow[]): Map<NotificationType, NotificationRow[]> {
  const groups = new Map<NotificationType, NotificationRow[]>();
  for (const row of rows) {
    const type = row.notification_type as NotificationType;
    groups.set(type, [...(groups.get(type) ?? []), row]);
  }
  return groups;
}

/** One push to one device, unless the notification was read meanwhile. A device the push service forgot is removed. */
export async function pushToDevice(ctx: AppContext, payload: PushJobPayload): Promise<void> {
  const row = await ctx.db.selectFrom('notifications').selectAll().where('id', '=', payload.notification_id).executeTakeFirst();
  if (!row || row.read_at !== null) return;
  const sub = await ctx.db.selectFrom('push_subscriptions').select(['id', 'user_id', 'token']).where('id', '=', payload.subscription_id).executeTakeFirst();
  if (!sub || sub.user_id !== row.user_id) return;
  // In the recipient's language, with names judged by the read rule now (the push may run later).
  const locale = await localeSettingOf(ctx.db, row.user_id);
  const [notification] = await judgeNames(ctx.db, row.user_id, [toWire(row)]);
  const result = await sendPush(vapidKeys(ctx.config), JSON.parse(sub.token) as PushSubscriptionJson, pushPayload(notification!, translator(locale)), outboundRule(ctx.config, 'webPush'));
  if (result.outcome === 'gone') {
    await ctx.db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
    return;
  }
  if (result.outcome === 'failed') {
    await ctx.db.updateTable('push_subscriptions').set({ last_error: result.detail ?? 'failed' }).where('id', '=', sub.id).execute();
    throw new Error(`push to subscription ${sub.id} failed: ${result.detail}`);
  }
  await ctx.db.updateTable('notifications').set({ pushed_at: ctx.now() }).where('id', '=', row.id).execute();
}
