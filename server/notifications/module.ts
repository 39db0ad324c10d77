import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerEventConsumer } from '../events/consumers';
import { notificationsForEvent } from './consumer';
import { deliverNotifications, pushToDevice, PUSH_JOB, type PushJobPayload } from './deliver';
import { MAIL_JOB, sendNotificationMail, type MailPayload } from './mail';
import { DELIVER_JOB, type DeliverPayload } from './notify';
import { notificationApiRoutes } from './routes';

/**
 * The notifications module (decision 0111): its API; the event consumer that creates
 * notifications from domain events; the jobs that deliver them (realtime, batched mail, push).
 */
export function notificationsModule(app: FastifyInstance, ctx: AppContext) {
  notificationApiRoutes(app, ctx);
  registerEventConsumer(ctx, 'notifications', (event, c) => notificationsForEvent(event, c));
  ctx.jobs.register<DeliverPayload>(DELIVER_JOB, (payload) => deliverNotifications(ctx, ctx.jobs, payload));
  ctx.jobs.register<MailPayload>(MAIL_JOB, (payload) => sendNotificationMail(ctx, payload));
  ctx.jobs.register<PushJobPayload>(PUSH_JOB, (payload) => pushToDevice(ctx, payload));
}
