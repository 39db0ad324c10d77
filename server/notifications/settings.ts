import {
  DEFAULT_CHANNEL_SETTINGS,
  NOTIFICATION_TYPES,
  type ChannelSettings,
  type NotificationChannel,
  type NotificationSettings,
  type NotificationType,
} from '../../schema/notifications';
import type { Db } from '../sync/store';

/**
 * Each user's choice per notification type and channel (in-app, email, push). No row means the
 * defaults (DEFAULT_CHANNEL_SETTINGS); a saved row holds all three switches of one type.
 */

/** Every type's switches for one user. */
export async function loadSettings(db: Db, userId: number): Promise<NotificationSettings> {
  const rows = await db.selectFrom('notification_settings').select(['notification_type', 'in_app', 'email', 'push']).where('user_id', '=', userId).execute();
  const saved = new Map(rows.map((r) => [r.notification_type, { in_app: r.in_app, email: r.email, push: r.push }]));
  return Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, saved.get(type) ?? { ...DEFAULT_CHANNEL_SETTINGS }])) as NotificationSettings;
}

/** Applies a partial change (types and switches left out keep their value) and answers the whole set. */
export async function saveSettings(db: Db, userId: number, patch: Partial<Record<NotificationType, Partial<ChannelSettings>>>): Promise<NotificationSettings> {
  const current = await loadSettings(db, userId);
  const rows = Object.entries(patch)
    .filter((entry): entry is [NotificationType, Partial<ChannelSettings>] => entry[1] !== undefined)
    .map(([type, switches]) => ({ user_id: userId, notification_type: type, ...current[type], ...definedOnly(switches) }));
  if (rows.length > 0) {
    await db
      .insertInto('notification_settings')
      .values(rows)
      .onConflict((oc) => oc.columns(['user_id', 'notification_type']).doUpdateSet((eb) => ({ in_app: eb.ref('excluded.in_app'), email: eb.ref('excluded.email'), push: eb.ref('excluded.push') })))
      .execute();
  }
  return loadSettings(db, userId);
}

function definedOnly(switches: Partial<ChannelSettings>): Partial<ChannelSettings> {
  return Object.fromEntries(Object.entries(switches).filter(([, v]) => typeof v === 'boolean'));
}

/** The users among these who want this type on this channel (one query for many recipients). */
export async function usersWanting(db: Db, userIds: number[], type: NotificationType, channel: NotificationChannel): Promise<Set<number>> {
  const wanting = new Set(userIds);
  if (userIds.length === 0) return wanting;
  const rows = await db.selectFrom('notification_settings').select(['user_id', channel]).where('notification_type', '=', type).where('user_id', 'in', [...wanting]).execute();
  for (const row of rows) if (!(row as Record<string, unknown>)[channel]) wanting.delete(row.user_id);
  return wanting;
}
