import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { billingRoutes } from './routes';
import { paymentsModule } from './payments/module';
import { billingExtraRoutes } from './extra-routes';
import { stripeWebhookRoutes } from './payments/stripe-webhook';

/** Plans, subscription states and trials (issue #18, decision 0240). */
export function billingModule(app: FastifyInstance, ctx: AppContext) {
  billingRoutes(app, ctx);
  paymentsModule(app, ctx);
  billingExtraRoutes(app, ctx);
  stripeWebhookRoutes(app, ctx);
}
