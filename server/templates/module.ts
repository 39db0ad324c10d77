import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { templateRoutes } from './routes';

/**
 * Templates (issue #16, decision 0165): the templates API and the built-in gallery. The
 * "template shared" notification comes from the notifications consumer
 * (server/templates/notify.ts), not from here.
 */
export function templatesModule(app: FastifyInstance, ctx: AppContext): void {
  templateRoutes(app, ctx);
}
