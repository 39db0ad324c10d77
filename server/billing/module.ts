import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { billingRoutes } from './routes';
import { billingExtraRoutes } from './extra-routes';

/** Plans, subscription states and trials (issue #18, decision 0240). */
export function billingModule(app: FastifyInstance, ctx: AppContext) {
  billingRoutes(app, ctx);
  billingExtraRoutes(app, ctx);
}
