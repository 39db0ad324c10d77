import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { paymentRoutes } from './routes';
import { cardSetupRoutes } from './card-setup-routes';
import { registerPaymentJobs } from './jobs';
import { paymentProvider } from './registry';

/** Payments: cards, invoices, the next invoice, provider events (decision 0250). */
export function paymentsModule(app: FastifyInstance, ctx: AppContext) {
  paymentRoutes(app, ctx);
  cardSetupRoutes(app, ctx);
  registerPaymentJobs(ctx);
  // Every module has registered its providers by now: an unknown PAYMENT_PROVIDER (or a provider
  // missing its keys) stops the server at start with the reason, not at the first payment.
  app.addHook('onReady', async () => {
    if (ctx.config.billing) paymentProvider(ctx);
  });
}
