import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { EmbeddedBroadcaster, PusherBroadcaster, embeddedServerOf } from './broadcaster';
import { registerRealtimeServer } from './subscriptions';
import { registerHttpPublishApi } from './http-api';
import { multiAuthRoutes } from './multi-auth';
import { APP_VERSION_EVENT, type AppVersionPayload } from '../../schema/app-version-event';

/**
 * The realtime module: channel authorisation for every deployment, and — when the app's
 * broadcaster is the embedded one — the Pusher WebSocket endpoint at /app/{key} on the app's own
 * HTTP server plus the signed HTTP publish API at /apps/{appId}/….
 */
export async function realtimeRoutes(app: FastifyInstance, ctx: AppContext) {
  multiAuthRoutes(app, ctx);
  const embedded = embeddedServerOf(ctx.broadcaster);
  if (!embedded) {
    // External service: events queued for it go out before the process ends.
    const external = ctx.broadcaster;
    if (external instanceof PusherBroadcaster) app.addHook('preClose', () => external.idle());
    return;
  }
  // Record events are judged per reader against this database; revocations reach this server (decision 0090).
  if (ctx.broadcaster instanceof EmbeddedBroadcaster) ctx.broadcaster.useContext(ctx);
  const unregister = registerRealtimeServer(ctx.db, embedded);
  // A server push event with the running version on each user channel (shell.md §4, S4.11): a
  // client built for another version prompts to reload when it (re)connects.
  embedded.welcome = (channel) => (/^private-App\.User\.\d+$/.test(channel) ? { event: APP_VERSION_EVENT, data: JSON.stringify({ version: ctx.config.appVersion } satisfies AppVersionPayload) } : null);
  embedded.attach(app.server);
  await registerHttpPublishApi(app, embedded);
  // Before the HTTP server closes: open WebSockets would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    unregister();
    if (ctx.broadcaster instanceof EmbeddedBroadcaster) await ctx.broadcaster.idle();
    await embedded.close();
  });
}
