/**
 * The payment provider interface (issue #18 "payments behind one interface", decision 0250).
 *
 * Cairn owns subscriptions, proration and invoices (numbered, lines, totals in minor units); a
 * provider only keeps customers and their payment methods, moves money for an invoice Cairn has
 * computed, and reports what happened afterwards as events. That keeps the interface small and
 * the same for the local provider (server/billing/payments/local.ts, no network, the default) and
 * a Stripe provider (PaymentIntents on a saved PaymentMethod; webhooks verified with the SDK).
 *
 * Amounts are integers in minor units (cents) with an ISO 4217 upper-case currency; no float
 * ever touches money. Provider ids are opaque strings.
 */

import type { CardInput } from '../../../schema/payments';

/** A card as the local provider's form sends it (schema/payments.ts, shared with the app). Real providers never see this (they get a token). */
export type { CardInput };

/**
 * What the client sends to add a payment method: the local provider's card fields, or a token the
 * provider's own client library produced in the browser (Stripe: a PaymentMethod id `pm_…`).
 */
export type PaymentSource = { card: CardInput } | { token: string };

/** A saved payment method as Cairn stores and shows it — never the full number nor the CVC. */
export interface PaymentMethodInfo {
  /** The provider's id for it (local: `pm_local_…`; Stripe: `pm_…`). */
  providerMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CustomerInput {
  userId: number;
  email: string;
  name: string;
}

/** One invoice line, already computed by Cairn (proration included). */
export interface ChargeLine {
  description: string;
  amount: number;
}

export interface ChargeInput {
  customerId: string;
  paymentMethodId: string;
  amount: number;
  currency: string;
  /** Cairn's invoice reference (`invoice-<id>`; the printed number is given once paid); providers keep it as metadata and send it back in events. */
  invoiceNumber: string;
  description: string;
  lines: ChargeLine[];
  /** The same key for a retried request never charges twice. */
  idempotencyKey: string;
}

export interface ChargeResult {
  /** The provider's id for the payment (local: `ch_local_…`; Stripe: the PaymentIntent id). */
  chargeId: string;
  status: 'succeeded' | 'pending';
}

/** Why a payment was refused; `code` is provider-neutral, the message is safe to show. */
export type DeclineCode = 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'incorrect_number' | 'processing_error';

export class PaymentDeclinedError extends Error {
  constructor(
    readonly code: DeclineCode,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentDeclinedError';
  }
}

/** A provider event after verification, in neutral form. Handled by the job runner, never in a route. */
export interface ProviderEvent {
  /** The provider's event id: events are recorded once by (provider, id) — idempotency. */
  id: string;
  type: 'charge.succeeded' | 'charge.failed' | 'charge.refunded' | 'payment_method.detached' | 'customer.deleted' | 'card_setup.completed';
  /** When the provider created it (ordering: an older event never overrides a newer state). */
  created: Date;
  customerId: string | null;
  chargeId: string | null;
  paymentMethodId: string | null;
  /** Cairn's invoice number when the charge carried one. */
  invoiceNumber: string | null;
  amount: number | null;
  currency: string | null;
  failure: { code: DeclineCode; message: string } | null;
  /** card_setup.completed: the provider's card-entry session that finished (decision 0300). */
  setupSessionId?: string | null;
}

/** Where the browser goes to enter a card on the provider's own page (decision 0300). */
export interface CardSetupStart {
  sessionId: string;
  url: string;
}

/** A card-entry session that is unknown or belongs to another customer (shown as a 404, like any other's row). */
export class CardSetupNotFoundError extends Error {
  constructor() {
    super('No such card setup session for this customer');
    this.name = 'CardSetupNotFoundError';
  }
}

export interface PaymentProvider {
  /** 'local' | 'stripe' — stored with every customer, method and invoice. */
  readonly key: string;
  /** What the browser needs to talk to the provider (Stripe: the publishable key); `paymentProviderKey` in /api/app-vars. */
  readonly publicKey: string;

  /** Creates the provider's customer for a user (Cairn stores the id and calls this once). */
  createCustomer(input: CustomerInput): Promise<{ customerId: string }>;

  /** Saves a payment method on a customer; a card the provider refuses throws PaymentDeclinedError. */
  attachPaymentMethod(customerId: string, source: PaymentSource): Promise<PaymentMethodInfo>;

  /** Removes a saved payment method (idempotent: an unknown id is not an error). */
  detachPaymentMethod(customerId: string, providerMethodId: string): Promise<void>;

  /** Charges a saved method for an invoice; a refusal throws PaymentDeclinedError. */
  charge(input: ChargeInput): Promise<ChargeResult>;

  /**
   * Optional (decision 0300): a provider whose cards are entered on its own hosted page (Stripe
   * Checkout in setup mode) starts a session for the customer; the browser goes to `url` and comes
   * back to `successUrl` (with the session id) or `cancelUrl`. The local provider has its own form.
   */
  startCardSetup?(input: { customerId: string; userId: number; successUrl: string; cancelUrl: string }): Promise<CardSetupStart>;

  /**
   * Optional, with startCardSetup: the card a finished session saved on the customer; null while the
   * session is not complete. A session that is unknown or another customer's throws CardSetupNotFoundError.
   */
  finishCardSetup?(customerId: string, sessionId: string): Promise<PaymentMethodInfo | null>;

  /**
   * Verifies and parses a webhook request (signature, payload) into a neutral event; an invalid
   * signature throws. The local provider has no incoming webhooks: it enqueues its events itself.
   */
  parseWebhook(rawBody: string | Buffer, headers: Record<string, string | string[] | undefined>): Promise<ProviderEvent>;
}
