import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { paymentRoutes } from './routes';
import { registerPaymentJobs } from './jobs';

/** Payments: cards, invoices, the next invoice, provider events (decision 0250). */
export function paymentsModule(app: FastifyInstance, ctx: AppContext) {
  paymentRoutes(app, ctx);
  registerPaymentJobs(ctx);
}
