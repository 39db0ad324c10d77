import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { notificationApiRoutes } from './routes';

/**
 * The notifications module (decision 0111): its API, and — once the job runner is there — the
 * event consumer that creates notifications and the jobs that deliver them.
 */
export function notificationsModule(app: FastifyInstance, ctx: AppContext) {
  notificationApiRoutes(app, ctx);
}
