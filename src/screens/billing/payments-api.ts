import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { Messages } from '../../../schema/messages';
import { api, currentToken, ApiRequestError } from '../../api/client';
import type { BillingSubscription } from './billing-api';
import type { CardInput, InvoiceLine, InvoiceView, LineKind, NextInvoice, PaymentMethodView, PurchaseBody, PurchaseQuote, QuoteBody } from '../../../schema/payments';

/** The payment calls (server/billing/payments/routes.ts, decision 0250, docs/api/billing.md). */

/** The shapes are the server's own (schema/payments.ts); the app imports them as types only. */
export type PaymentMethod = PaymentMethodView;
export type Invoice = InvoiceView;
export type Quote = PurchaseQuote;
export type { CardInput, InvoiceLine, LineKind, NextInvoice };

export const PaymentsApi = {
  methods: async () => (await api.get<{ data: PaymentMethod[] }>('/api/payment/methods')).data,
  addCard: async (card: CardInput) => (await api.post<{ data: PaymentMethod }>('/api/payment/methods', { card })).data,
  removeMethod: (id: number) => api.delete(`/api/payment/methods/${id}`),
  invoices: async () => (await api.get<{ data: Invoice[] }>('/api/payment/invoices')).data,
  next: async () => (await api.get<{ data: NextInvoice | null }>('/api/payment/user/user/invoices/next')).data,
  quote: async (body: QuoteBody) => (await api.post<{ data: Quote }>('/api/payment/quote', body)).data,
  buy: async (body: Omit<PurchaseBody, 'token'>, subscriptionId?: number) =>
    api.post<{ data: BillingSubscription; invoice: Invoice }>(subscriptionId ? `/api/subscription/${subscriptionId}` : '/api/subscription', body),
};

/** Saves an invoice's PDF (fetched with the session's token). */
export async function downloadInvoicePdf(invoice: Invoice): Promise<void> {
  if (!invoice.pdf_url) return;
  const token = currentToken();
  const response = await fetch(invoice.pdf_url, { headers: token ? { Authorization: `Bearer ${token.access_token}` } : {}, credentials: 'same-origin' });
  if (!response.ok) throw new ApiRequestError(response.status, (await response.json().catch(() => null)) as never);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${invoice.number ?? `invoice-${invoice.id}`}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The server's payment refusals (schema/messages.ts) in the user's language. */
export const paymentRefusals = new Map<string, MessageDescriptor>([
  [Messages.cardDeclined, msg`Your card was declined.`],
  [Messages.cardInsufficientFunds, msg`Your card has insufficient funds.`],
  [Messages.cardExpired, msg`Your card has expired.`],
  [Messages.cardIncorrectCvc, msg`Your card’s security code is incorrect.`],
  [Messages.cardTestOnly, msg`This server’s payment provider takes test cards only, such as 4242 4242 4242 4242.`],
  [Messages.cardProcessingError, msg`The payment could not be processed. Try again in a moment.`],
  [Messages.cardRequired, msg`Choose a card to pay with.`],
  [Messages.planNotUpgradable, msg`Your plan cannot be changed to this plan.`],
  [Messages.alreadyOnPlan, msg`You are already on this plan.`],
  [Messages.couponInvalid, msg`This coupon is not valid.`],
  [Messages.couponUsed, msg`You have already used this coupon.`],
  [Messages.currencyFixed, msg`A running subscription keeps its currency.`],
  [Messages.paymentInProgress, msg`A payment for this subscription is in progress. Try again in a moment.`],
  [Messages.buyFreePlan, msg`The free plan is not bought: cancel the subscription instead.`],
  [Messages.planNotFound, msg`Plan not found. Please contact support.`],
  [Messages.planNoLongerAvailable, msg`This plan is no longer available.`],
]);

/** A stored refusal message (an invoice's failure) in the user's language. */
export function refusalOfMessage(message: string, i18n: I18n): string | null {
  const known = paymentRefusals.get(message);
  return known ? i18n._(known) : null;
}

/** A payment refusal's words in the user's language, or null when it is not one of ours. */
export function refusalText(error: unknown, i18n: I18n): string | null {
  if (!(error instanceof ApiRequestError)) return null;
  const known = error.body?.message ? paymentRefusals.get(error.body.message) : undefined;
  return known ? i18n._(known) : null;
}

/** Money from minor units. */
export function formatMoney(locale: string, minor: number, currency: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
}

/** An invoice line's words in the user's language. */
export function lineText(line: InvoiceLine, i18n: I18n, date: (iso: string | null | undefined) => string): string {
  const plan = line.plan_name ?? line.plan ?? '';
  const interval = line.interval === 'month' ? i18n._(msg`monthly`) : line.interval === 'year' ? i18n._(msg`yearly`) : i18n._(msg`lifetime`);
  const from = date(line.from);
  const to = date(line.to);
  switch (line.kind) {
    case 'plan':
      return line.to ? i18n._(msg`${plan} (${interval}), ${from} – ${to}`) : i18n._(msg`${plan}, lifetime`);
    case 'proration_charge':
      return i18n._(msg`Remaining time on ${plan} until ${to}`);
    case 'proration_credit':
      return i18n._(msg`Unused time on ${plan} from ${from}`);
    case 'coupon': {
      const code = line.coupon ?? '';
      const percent = line.percent ?? 0;
      return i18n._(msg`Coupon ${code} (${percent} % off)`);
    }
    case 'credit_applied':
      return i18n._(msg`Credit from earlier changes`);
    case 'credit_carried':
      return i18n._(msg`Credit carried to your next invoice`);
    default:
      return line.description;
  }
}
