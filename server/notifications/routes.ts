import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { requireUser, requireUserId } from '../auth/guard';
import { notFound, parseBody, unauthorized } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { emptyReadContext } from '../sync/reads';
import { findRecord } from '../sync/store';
import {
  deviceTokenBody,
  notificationChannel,
  NotificationEvents,
  notificationIdsBody,
  notificationListQuery,
  notificationSettingsBody,
  readAllBody,
} from '../../schema/notifications';
import { followByHand, isFollowing, setFollowing } from './follows';
import { judgeNames } from './judge-names';
import { deleteDeviceToken, saveDeviceToken } from './push';
import { outboundRule } from '../outbound';
import { loadSettings, saveSettings } from './settings';
import { listNotifications, markAllRead, markNotifications, unreadCount } from './store';
import { vapidKeys } from './vapid';

/**
 * The notifications API (workspace.md §4, docs/api.md "Notifications"): a user's own list, count
 * and read marks, device tokens, per-type settings, and following items. Nothing here creates a
 * notification: only the event consumer and jobs do (server/notifications/consumer.ts, emit.ts).
 */
export function notificationApiRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/notifications', async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const query = parseBody(notificationListQuery, request.query);
    const page = await listNotifications(ctx.db, userId, { after: query.after, unread: query.unread === '1' || query.unread === 'true', limit: query.limit ?? 25 });
    // Judged by the read rule now: an item the user can no longer read shows no names.
    return { ...page, data: await judgeNames(ctx.db, userId, page.data) };
  });

  app.get('/api/notifications/unread-count', async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const { unread, lastId } = await unreadCount(ctx.db, userId);
    // last_id: the newest notification the count was taken through (sync-worker/notifications.ts).
    return { unread_count: unread, last_id: lastId };
  });

  // Ids that are not the caller's (or do not exist) are left alone without saying so: the answer
  // lists what changed, and each change reaches the caller's other tabs.
  for (const [path, read] of [
    ['/api/notifications/read', true],
    ['/api/notifications/unread', false],
  ] as const) {
    app.put(path, async (request) => {
      const userId = await requireUserId(ctx.db, request);
      const body = parseBody(notificationIdsBody, request.body);
      const changed = await judgeNames(ctx.db, userId, await markNotifications(ctx.db, userId, body.notification_ids, read, ctx.now()));
      for (const n of changed) await ctx.broadcaster.publish(notificationChannel(userId), NotificationEvents.saved, n);
      return { data: changed };
    });
  }

  app.put('/api/notifications/read-all', async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const body = parseBody(readAllBody, request.body);
    const now = ctx.now();
    // A time in the future would pre-read nothing more (only existing rows change) but would
    // store a read time that has not happened: it is capped at now.
    const asked = body.read_at ? new Date(body.read_at) : now;
    const readAt = asked > now ? now : asked;
    await markAllRead(ctx.db, userId, readAt);
    const answer = { read_at: readAt.toISOString() };
    await ctx.broadcaster.publish(notificationChannel(userId), NotificationEvents.allRead, answer);
    return answer;
  });

  app.post('/api/notifications/device-tokens', async (request, reply) => {
    const userId = await requireUserId(ctx.db, request);
    const body = parseBody(deviceTokenBody, request.body);
    await saveDeviceToken(ctx.db, userId, request.sessionId ?? null, body.token, ctx.now(), outboundRule(ctx.config, 'webPush'));
    return reply.status(204).send();
  });

  app.delete('/api/notifications/device-tokens', async (request, reply) => {
    const userId = await requireUserId(ctx.db, request);
    const body = parseBody(deviceTokenBody, request.body);
    await deleteDeviceToken(ctx.db, userId, body.token);
    return reply.status(204).send();
  });

  app.get('/api/notifications/vapid-public-key', async (request) => {
    await requireUserId(ctx.db, request);
    return { public_key: vapidKeys(ctx.config).publicKey };
  });

  app.get('/api/me/notification-settings', async (request) => {
    const userId = await requireUserId(ctx.db, request);
    return { data: await loadSettings(ctx.db, userId) };
  });

  app.put('/api/me/notification-settings', async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const body = parseBody(notificationSettingsBody, request.body);
    return { data: await saveSettings(ctx.db, userId, body) };
  });

  type ItemParams = { Params: { teamId: string; itemId: string } };

  /** The caller and the item, when the caller may read it (404 unknown item, 403 one they may not read). */
  async function readableItem(request: FastifyRequest<ItemParams>) {
    const user = await requireUser(ctx.db, request);
    const teamId = teamIdParam(request.params.teamId);
    const item = await findRecord(ctx.db, 'item', request.params.itemId);
    if (!item || item.team_id !== teamId || item.deleted_at !== null) throw notFound();
    const scope = await readScope(ctx, request, teamId, item.board_id);
    if (!scope.view.canRead('item', item.data, emptyReadContext())) throw unauthorized();
    return { userId: user.id, teamId, itemId: item.id, boardId: item.board_id };
  }

  app.get<ItemParams>('/api/:teamId/items/:itemId/follow', async (request) => {
    const { userId, itemId } = await readableItem(request);
    return { following: await isFollowing(ctx.db, itemId, userId) };
  });

  app.put<ItemParams>('/api/:teamId/items/:itemId/follow', async (request) => {
    const { userId, teamId, itemId, boardId } = await readableItem(request);
    await followByHand(ctx.db, { teamId, itemId, boardId, userId }, ctx.now());
    return { following: true };
  });

  app.delete<ItemParams>('/api/:teamId/items/:itemId/follow', async (request) => {
    const { userId, teamId, itemId } = await readableItem(request);
    await setFollowing(ctx.db, teamId, itemId, userId, false, ctx.now());
    return { following: false };
  });
}
