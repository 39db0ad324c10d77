import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { activityRoutes } from '../activity/routes';

/**
 * The events module: the activity log's route, and the event consumers' cursors created once
 * every module has registered its consumers (the app is ready). Running the jobs is main.ts's
 * (tests drain them).
 */
export function eventsRoutes(app: FastifyInstance, ctx: AppContext): void {
  activityRoutes(app, ctx);
  app.addHook('onReady', () => ctx.jobs.prepare());
  app.addHook('onClose', () => ctx.jobs.stop());
}
