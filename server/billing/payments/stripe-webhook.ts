import Stripe from 'stripe';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError, notFound } from '../../http/errors';
import { recordProviderEvent } from './events';
import { paymentProvider, paymentProviderKey, registerPaymentProvider } from './registry';
import { createStripeProvider, IgnoredStripeEvent, stripeConfigFromEnv } from './stripe';

/**
 * The Stripe provider's registration (PAYMENT_PROVIDER=stripe) and its webhook endpoint
 * POST /api/payment/webhooks/stripe (decision 0255). The route only verifies and records: the
 * signature is checked by the SDK on the exact bytes received, the event is recorded once per
 * event id (a second delivery of the same id records nothing: idempotency) and the job runner
 * handles it (payments.event, which moves an invoice only forward, so an older event arriving after
 * a newer one changes nothing). Answers: 200 {received, duplicate} or {received, ignored} for
 * event types Cairn does not use; 401 without a signature or with a bad one (Stripe retries, then
 * alerts); 404 when the server does not use Stripe.
 */

export const STRIPE_WEBHOOK_PATH = '/api/payment/webhooks/stripe';

export function stripeWebhookRoutes(app: FastifyInstance, ctx: AppContext) {
  registerPaymentProvider('stripe', () => createStripeProvider(stripeConfigFromEnv(process.env)));
  // A server told to use Stripe without its keys stops at start with the missing names, not at the first payment.
  if (paymentProviderKey() === 'stripe') stripeConfigFromEnv(process.env);
  void app.register(async (scope) => {
    // The signature covers the exact bytes: this route takes the body unparsed.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    scope.post(
      STRIPE_WEBHOOK_PATH,
      { config: { docs: { tag: 'Billing', summary: 'Stripe webhook events (signed with the endpoint’s secret; PAYMENT_PROVIDER=stripe only)', auth: 'app-signature' } } },
      async (request) => {
        // Unsigned: 401 whatever the provider (nothing about the configuration is told).
        if (!request.headers['stripe-signature']) throw new ApiError(401, 'The request carries no Stripe signature.', 'bad_signature');
        const provider = paymentProvider(ctx);
        if (provider.key !== 'stripe') throw notFound();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from(typeof request.body === 'string' ? request.body : '');
        let event;
        try {
          event = await provider.parseWebhook(raw, request.headers);
        } catch (error) {
          if (error instanceof IgnoredStripeEvent) return { received: true, ignored: true };
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new ApiError(401, 'The Stripe signature does not match this endpoint’s secret.', 'bad_signature');
          throw error;
        }
        const recorded = await recordProviderEvent(ctx, 'stripe', event);
        return { received: true, duplicate: !recorded };
      },
    );
  });
}
