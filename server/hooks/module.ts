import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerEventConsumer } from '../events/consumers';
import { notifyHookDeactivated } from '../notifications/emit';
import { hooksForEvent } from './consumer';
import { DELIVER_JOB, runDeliveryAttempt, type DeliverPayload, type DeliveryRuntime } from './deliveries';
import { outboundRule } from '../outbound';
import { PURGE_JOB, purgeHookLogs, schedulePurge } from './purge';
import { hookRoutes } from './routes';

/**
 * The webhooks module (issue #14, decision 0140): the API, the event consumer that turns domain
 * events into deliveries, the job that sends them, and the hourly purge of old logs.
 */
export function hooksModule(app: FastifyInstance, ctx: AppContext): void {
  hookRoutes(app, ctx);
  registerEventConsumer(ctx, 'hooks', hooksForEvent);
  const runtime: DeliveryRuntime = {
    ...outboundRule(ctx.config, 'webhooks'),
    onDeactivated: async (db, hook, now) => {
      await notifyHookDeactivated({ db, jobs: ctx.jobs, now: () => now }, `hook:${hook.id}:${now.toISOString()}`, { teamId: hook.team_id, userId: hook.user_id, url: hook.url });
    },
  };
  ctx.jobs.register<DeliverPayload>(DELIVER_JOB, (payload) => runDeliveryAttempt(ctx, runtime, payload));
  ctx.jobs.register(PURGE_JOB, async () => {
    await purgeHookLogs(ctx);
    await schedulePurge(ctx, ctx.now());
  });
  app.addHook('onReady', () => schedulePurge(ctx, ctx.now()));
}
