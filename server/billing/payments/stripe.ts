import Stripe from 'stripe';
import { ConfigError } from '../../secrets';
import { Messages } from '../../../schema/messages';
import { CardSetupNotFoundError, PaymentDeclinedError, type ChargeInput, type ChargeResult, type DeclineCode, type PaymentMethodInfo, type PaymentProvider, type PaymentSource, type ProviderEvent } from './provider';

/**
 * The Stripe payment provider (issue #18, decision 0255) with the official `stripe` SDK, chosen by
 * PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY
 * (docs/operations.md "Payments"). Cairn computes invoices (decision 0250); Stripe keeps the
 * customer and its saved PaymentMethods and moves the money as one PaymentIntent per invoice
 * (confirmed off-session, with Cairn's idempotency key and invoice number in its metadata).
 *
 * The browser never sends card numbers here: the card is entered on Stripe's own Checkout page in
 * setup mode (startCardSetup / finishCardSetup, decision 0300), or Stripe's own client turned it into
 * a PaymentMethod (`pm_…`) that arrives as `{token}`. Webhooks (POST /api/payment/webhooks/stripe) are verified
 * with the SDK's constructEvent (signature and a 5-minute tolerance) and turned into the neutral
 * ProviderEvent, then recorded once per event id and handled by the job runner (events.ts).
 */

export interface StripeProviderConfig {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
  /** Tests: an HTTP client answering like Stripe's API (Stripe.createFetchHttpClient(fakeFetch)); no network. */
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
  /** STRIPE_API_BASE: another address for Stripe's API (stripe-mock, or the e2e tests' stand-in); unset in production. */
  apiBase?: URL;
}

export function stripeConfigFromEnv(env: NodeJS.ProcessEnv): StripeProviderConfig {
  const missing = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'].filter((name) => !env[name]?.trim());
  if (missing.length) throw new ConfigError(`PAYMENT_PROVIDER=stripe needs ${missing.join(', ')}.`);
  const base = env.STRIPE_API_BASE?.trim();
  let apiBase: URL | undefined;
  if (base) {
    try {
      apiBase = new URL(base);
    } catch {
      throw new ConfigError(`STRIPE_API_BASE must be an address like http://127.0.0.1:12111, not "${base}".`);
    }
  }
  return { secretKey: env.STRIPE_SECRET_KEY!.trim(), webhookSecret: env.STRIPE_WEBHOOK_SECRET!.trim(), publishableKey: env.STRIPE_PUBLISHABLE_KEY!.trim(), ...(apiBase ? { apiBase } : {}) };
}

/** A verified Stripe event of a type Cairn does not act on: the webhook answers 200 and records nothing. */
export class IgnoredStripeEvent extends Error {
  constructor(readonly eventId: string, readonly eventType: string) {
    super(`Stripe event ${eventType} is not used`);
    this.name = 'IgnoredStripeEvent';
  }
}

const DECLINES: Record<DeclineCode, string> = {
  card_declined: Messages.cardDeclined,
  insufficient_funds: Messages.cardInsufficientFunds,
  expired_card: Messages.cardExpired,
  incorrect_cvc: Messages.cardIncorrectCvc,
  incorrect_number: Messages.cardDeclined,
  processing_error: Messages.cardProcessingError,
};

/** Stripe's error and decline codes onto the neutral ones. */
export function declineCodeOf(code: string | null | undefined, declineCode?: string | null): DeclineCode {
  for (const c of [declineCode, code]) {
    if (c === 'insufficient_funds') return 'insufficient_funds';
    if (c === 'expired_card') return 'expired_card';
    if (c === 'incorrect_cvc' || c === 'invalid_cvc') return 'incorrect_cvc';
    if (c === 'incorrect_number' || c === 'invalid_number') return 'incorrect_number';
    if (c === 'processing_error') return 'processing_error';
  }
  return 'card_declined';
}

const declined = (code: DeclineCode) => new PaymentDeclinedError(code, DECLINES[code]);
const idOf = (value: unknown): string | null => (typeof value === 'string' ? value : value && typeof value === 'object' && 'id' in value ? String((value as { id: unknown }).id) : null);

/** A verified Stripe event as Cairn's neutral event (or IgnoredStripeEvent for types it does not use). */
export function neutralEvent(event: Stripe.Event): ProviderEvent {
  const created = new Date(event.created * 1000);
  const base = { id: event.id, created, customerId: null, chargeId: null, paymentMethodId: null, invoiceNumber: null, amount: null, currency: null, failure: null };
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      const error = pi.last_payment_error;
      const failed = event.type === 'payment_intent.payment_failed';
      const code = failed ? declineCodeOf(error?.code, error?.decline_code) : null;
      return {
        ...base,
        type: failed ? 'charge.failed' : 'charge.succeeded',
        customerId: idOf(pi.customer),
        chargeId: pi.id,
        paymentMethodId: idOf(pi.payment_method),
        invoiceNumber: pi.metadata?.invoice_number ?? null,
        amount: failed ? pi.amount : pi.amount_received || pi.amount,
        currency: pi.currency.toUpperCase(),
        failure: code ? { code, message: DECLINES[code] } : null,
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      return {
        ...base,
        type: 'charge.refunded',
        customerId: idOf(charge.customer),
        // Cairn knows the payment by its PaymentIntent id (what charge() answered).
        chargeId: idOf(charge.payment_intent) ?? charge.id,
        paymentMethodId: idOf(charge.payment_method),
        invoiceNumber: charge.metadata?.invoice_number ?? null,
        amount: charge.amount_refunded,
        currency: charge.currency.toUpperCase(),
      };
    }
    case 'payment_method.detached': {
      const pm = event.data.object;
      const previous = (event.data.previous_attributes ?? {}) as { customer?: unknown };
      return { ...base, type: 'payment_method.detached', paymentMethodId: pm.id, customerId: idOf(previous.customer) ?? idOf(pm.customer) };
    }
    case 'customer.deleted':
      return { ...base, type: 'customer.deleted', customerId: event.data.object.id };
    case 'checkout.session.completed': {
      // Card entry on Stripe's page (decision 0300): the second path to saving the card, after the browser's return.
      const session = event.data.object;
      if (session.mode !== 'setup') throw new IgnoredStripeEvent(event.id, event.type);
      return { ...base, type: 'card_setup.completed', customerId: idOf(session.customer), setupSessionId: session.id };
    }
    default:
      throw new IgnoredStripeEvent(event.id, event.type);
  }
}

export function createStripeProvider(config: StripeProviderConfig): PaymentProvider & { readonly stripe: Stripe } {
  const base = config.apiBase;
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(config.httpClient ? { httpClient: config.httpClient } : {}),
    ...(base ? { host: base.hostname, port: Number(base.port) || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const) } : {}),
  });
  const rethrow = (error: unknown): never => {
    if (error instanceof Stripe.errors.StripeCardError) throw declined(declineCodeOf(error.code, error.decline_code));
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') throw declined('card_declined');
    throw error;
  };
  return {
    key: 'stripe',
    publicKey: config.publishableKey,
    stripe,

    async createCustomer(input) {
      const customer = await stripe.customers.create(
        { email: input.email, name: input.name, metadata: { cairn_user_id: String(input.userId) } },
        { idempotencyKey: `cairn-customer-${input.userId}` },
      );
      return { customerId: customer.id };
    },

    async attachPaymentMethod(customerId: string, source: PaymentSource): Promise<PaymentMethodInfo> {
      // Card numbers never reach this server with Stripe: the browser's Stripe client makes a pm_… token.
      if (!('token' in source) || !/^pm_[A-Za-z0-9_]+$/.test(source.token)) throw declined('incorrect_number');
      try {
        const pm = await stripe.paymentMethods.attach(source.token, { customer: customerId });
        await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
        if (!pm.card) throw declined('card_declined');
        return { providerMethodId: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
      } catch (error) {
        return rethrow(error);
      }
    },

    async detachPaymentMethod(_customerId: string, providerMethodId: string) {
      try {
        await stripe.paymentMethods.detach(providerMethodId);
      } catch (error) {
        // Already gone (or never attached): detaching is idempotent.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
    },

    async charge(input: ChargeInput): Promise<ChargeResult> {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency.toLowerCase(),
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            confirm: true,
            off_session: true,
            description: input.description,
            metadata: { invoice_number: input.invoiceNumber },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (pi.status === 'succeeded') return { chargeId: pi.id, status: 'succeeded' };
        if (pi.status === 'processing') return { chargeId: pi.id, status: 'pending' };
        // requires_action (3-D Secure) cannot be completed off-session: the customer sees a refusal.
        throw declined(declineCodeOf(pi.last_payment_error?.code, pi.last_payment_error?.decline_code));
      } catch (error) {
        return rethrow(error);
      }
    },

    async startCardSetup(input) {
      // Stripe Checkout in setup mode (decision 0300): the card is typed on Stripe's page, never here.
      const session = await stripe.checkout.sessions.create({
        mode: 'setup',
        customer: input.customerId,
        allowed_payment_method_types: ['card'],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: String(input.userId),
        metadata: { cairn_user_id: String(input.userId) },
      });
      if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
      return { sessionId: session.id, url: session.url };
    },

    async finishCardSetup(customerId: string, sessionId: string): Promise<PaymentMethodInfo | null> {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(sessionId);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new CardSetupNotFoundError();
        throw error;
      }
      // Another customer's session (another user's id in the address) is as unknown as a made-up one.
      if (session.mode !== 'setup' || idOf(session.customer) !== customerId) throw new CardSetupNotFoundError();
      if (session.status !== 'complete') return null;
      const setupIntentId = idOf(session.setup_intent);
      if (!setupIntentId) return null;
      const intent = await stripe.setupIntents.retrieve(setupIntentId);
      if (intent.status !== 'succeeded') return null;
      const methodId = idOf(intent.payment_method);
      if (!methodId) return null;
      const pm = await stripe.paymentMethods.retrieve(methodId);
      const owner = idOf(pm.customer);
      if (owner && owner !== customerId) throw new CardSetupNotFoundError();
      if (!pm.card) throw declined('card_declined');
      await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
      return { providerMethodId: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
    },

    async parseWebhook(rawBody, headers) {
      const signature = headers['stripe-signature'];
      const header = Array.isArray(signature) ? signature[0] : signature;
      if (!header) throw new Stripe.errors.StripeSignatureVerificationError(header ?? '', rawBody, { message: 'No Stripe-Signature header' });
      // Throws StripeSignatureVerificationError on a bad signature, a wrong secret or a stale timestamp.
      const event = await stripe.webhooks.constructEventAsync(rawBody, header, config.webhookSecret);
      return neutralEvent(event);
    },
  };
}
