import { randomBytes } from 'node:crypto';
import { Messages } from '../../../schema/messages';
import { PaymentDeclinedError, type ChargeInput, type ChargeResult, type DeclineCode, type PaymentMethodInfo, type PaymentProvider, type PaymentSource, type ProviderEvent } from './provider';

/**
 * The local payment provider (decision 0250): the embedded default, no network. It takes test cards
 * only — a real card number is refused, so nothing on a server running it can look like a payment
 * that happened. What a card does is known by its number, like the providers' test modes:
 *
 * | number | brand | outcome |
 * |---|---|---|
 * | 4242 4242 4242 4242 | visa | succeeds |
 * | 5555 5555 5555 4444 | mastercard | succeeds |
 * | 4000 0000 0000 0002 | visa | declined (card_declined) |
 * | 4000 0000 0000 9995 | visa | declined (insufficient_funds) |
 * | 4000 0000 0000 0069 | visa | declined (expired_card) |
 * | 4000 0000 0000 0127 | visa | declined (incorrect_cvc) |
 * | 4000 0000 0000 0119 | visa | fails (processing_error) |
 *
 * Tokens stand for the same cards (`tok_visa`, `tok_mastercard`, `tok_chargeDeclined`,
 * `tok_chargeDeclinedInsufficientFunds`), so API clients can buy without a card form.
 *
 * Attaching checks the number (a known test card, Luhn), the expiry (not past) and the CVC (3 or
 * 4 digits); the outcome of a charge travels in the method's id (`pm_local_<outcome>_<random>`),
 * which is all the provider keeps. Every charge reports an event (charge.succeeded /
 * charge.failed) through `emit`, which the app wires to the job runner (server/billing/payments/events.ts).
 */

type Outcome = 'ok' | DeclineCode;

const TEST_CARDS: Record<string, { brand: string; outcome: Outcome }> = {
  '4242424242424242': { brand: 'visa', outcome: 'ok' },
  '5555555555554444': { brand: 'mastercard', outcome: 'ok' },
  '4000000000000002': { brand: 'visa', outcome: 'card_declined' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
  '4000000000000069': { brand: 'visa', outcome: 'expired_card' },
  '4000000000000127': { brand: 'visa', outcome: 'incorrect_cvc' },
  '4000000000000119': { brand: 'visa', outcome: 'processing_error' },
};

const TOKENS: Record<string, string> = {
  tok_visa: '4242424242424242',
  tok_mastercard: '5555555555554444',
  tok_chargeDeclined: '4000000000000002',
  tok_chargeDeclinedInsufficientFunds: '4000000000009995',
};

/** The message of each refusal (schema/messages.ts, translated in the app). */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: Messages.cardDeclined,
  insufficient_funds: Messages.cardInsufficientFunds,
  expired_card: Messages.cardExpired,
  incorrect_cvc: Messages.cardIncorrectCvc,
  incorrect_number: Messages.cardTestOnly,
  processing_error: Messages.cardProcessingError,
};

const decline = (code: DeclineCode) => new PaymentDeclinedError(code, DECLINE_MESSAGES[code]);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

const id = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;

export interface LocalProviderOptions {
  now(): Date;
  /** Where the provider's events go (the job runner); awaited before a charge answers. */
  emit(event: ProviderEvent): Promise<void>;
}

export function createLocalProvider(opts: LocalProviderOptions): PaymentProvider {
  const event = (type: ProviderEvent['type'], input: ChargeInput, chargeId: string, failure: ProviderEvent['failure']): ProviderEvent => ({
    id: id('evt_local'),
    type,
    created: opts.now(),
    customerId: input.customerId,
    chargeId,
    paymentMethodId: input.paymentMethodId,
    invoiceNumber: input.invoiceNumber,
    amount: input.amount,
    currency: input.currency,
    failure,
  });

  return {
    key: 'local',
    publicKey: 'local',

    async createCustomer() {
      return { customerId: id('cus_local') };
    },

    async attachPaymentMethod(_customerId: string, source: PaymentSource): Promise<PaymentMethodInfo> {
      let number: string;
      let expMonth: number;
      let expYear: number;
      if ('token' in source) {
        const known = TOKENS[source.token];
        if (!known) throw decline('incorrect_number');
        number = known;
        const now = opts.now();
        expMonth = 12;
        expYear = now.getUTCFullYear() + 3;
      } else {
        number = source.card.number.replace(/[\s-]/g, '');
        expMonth = source.card.exp_month;
        expYear = source.card.exp_year < 100 ? 2000 + source.card.exp_year : source.card.exp_year;
        if (!/^\d+$/.test(number) || !luhnValid(number) || !TEST_CARDS[number]) throw decline('incorrect_number');
        if (!/^\d{3,4}$/.test(source.card.cvc)) throw decline('incorrect_cvc');
        const now = opts.now();
        const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
        if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12 || expYear * 12 + expMonth < month) throw decline('expired_card');
      }
      const card = TEST_CARDS[number]!;
      return { providerMethodId: `${id(`pm_local_${card.outcome}`)}`, brand: card.brand, last4: number.slice(-4), expMonth, expYear };
    },

    async detachPaymentMethod() {
      // Nothing is kept on the provider's side.
    },

    async charge(input: ChargeInput): Promise<ChargeResult> {
      const outcome = /^pm_local_([a-z_]+?)_[A-Za-z0-9_-]{12}$/.exec(input.paymentMethodId)?.[1] as Outcome | undefined;
      const chargeId = id('ch_local');
      if (!outcome) throw decline('processing_error');
      if (outcome !== 'ok') {
        const code = outcome as DeclineCode;
        await opts.emit(event('charge.failed', input, chargeId, { code, message: DECLINE_MESSAGES[code] }));
        throw decline(code);
      }
      await opts.emit(event('charge.succeeded', input, chargeId, null));
      return { chargeId, status: 'succeeded' };
    },

    async parseWebhook(): Promise<ProviderEvent> {
      throw new Error('The local payment provider takes no webhooks: it reports its events through the job runner.');
    },
  };
}
