import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { whitelabelRoutes } from './routes';

/** White label: settings, assets, custom domain, custom SMTP, tenant resolution by Host (decision 0265). */
export function whitelabelModule(app: FastifyInstance, ctx: AppContext) {
  whitelabelRoutes(app, ctx);
}
