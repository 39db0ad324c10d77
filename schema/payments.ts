import { z } from 'zod';
import { PRICE_INTERVALS } from './billing';

/**
 * The payment wire shapes (decisions 0250, 0300), one definition for the server and the app:
 * saved cards, invoices and their lines, the next invoice, a purchase's quote, what a purchase
 * and the provider's card page take. The server validates input with the `…Body` schemas and
 * builds its answers as the types here (its OpenAPI catalog shows the same schemas);
 * tests/server/wire-shapes.test.ts parses the real answers with them. The app imports the types
 * only. Amounts are integers in minor units (cents), credits negative; dates ISO strings.
 */

/** A saved card: brand, last four digits and expiry — never the number. */
export const paymentMethodSchema = z.object({
  id: z.number(),
  provider: z.string(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
  created_at: z.string(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

export const LINE_KINDS = ['plan', 'proration_charge', 'proration_credit', 'coupon', 'credit_applied', 'credit_carried'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export const invoiceLineSchema = z.object({
  kind: z.enum(LINE_KINDS),
  /** English, for API readers; the app and the PDF word lines from `kind` and the fields below. */
  description: z.string(),
  amount: z.number().describe('minor units; credits are negative'),
  plan: z.string().optional(),
  plan_name: z.string().optional(),
  interval: z.enum(PRICE_INTERVALS).optional(),
  from: z.string().optional(),
  to: z.string().nullable().optional(),
  coupon: z.string().optional(),
  percent: z.number().optional(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const INVOICE_STATUSES = ['open', 'paid', 'failed', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The money of an invoice and of a quote: the lines add up to `total` (never below zero; a negative rest is carried as credit). */
const chargeFields = {
  currency: z.string(),
  /** The sum of the charges (positive lines). */
  subtotal: z.number(),
  discount: z.number(),
  credit_applied: z.number(),
  total: z.number(),
  lines: z.array(invoiceLineSchema),
};

export const invoiceSchema = z.object({
  id: z.number(),
  number: z.string().nullable(),
  status: z.enum(INVOICE_STATUSES),
  subscription_id: z.number().nullable(),
  ...chargeFields,
  plan: z.string().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** Paid and refunded invoices only. */
  pdf_url: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof invoiceSchema>;

/** GET /api/payment/user/user/invoices/next (`{data: null}` when nothing renews). */
export const nextInvoiceSchema = z.object({
  subscription_id: z.number(),
  date: z.string(),
  amount: z.number(),
  currency: z.string(),
  lines: z.array(invoiceLineSchema),
});
export type NextInvoice = z.infer<typeof nextInvoiceSchema>;

/** POST /api/payment/quote: what a purchase would cost now, without buying. */
export const quoteSchema = z.object({
  subscription_id: z.number(),
  plan: z.string(),
  price: z.string(),
  ...chargeFields,
  period_end: z.string().nullable(),
});
export type PurchaseQuote = z.infer<typeof quoteSchema>;

/** A card as the local provider's form sends it. Real providers never see this (they get a token). */
export const cardBody = z.object({
  number: z.string().trim().min(12, 'must be a card number').max(30, 'must be a card number').regex(/^[\d\s-]+$/, 'must be a card number'),
  exp_month: z.coerce.number().int('must be a month (1–12)').min(1, 'must be a month (1–12)').max(12, 'must be a month (1–12)'),
  exp_year: z.coerce.number().int('must be a year').min(0, 'must be a year').max(2200, 'must be a year'),
  cvc: z.string().trim().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  name: z.string().trim().max(100).optional(),
});
export type CardInput = z.infer<typeof cardBody>;

/** POST /api/payment/methods: the local provider's card fields, or a token the provider's own browser library made. */
export const addMethodBody = z
  .object({ card: cardBody.optional(), token: z.string().trim().min(1).max(200).optional() })
  .refine((b) => Boolean(b.card) !== Boolean(b.token), { message: 'send either card or token', path: ['card'] });

/** POST /api/subscription[/{id}] without `trial: true`: buy, upgrade or downgrade. */
export const purchaseBody = z.object({
  plan: z.string().trim().min(1, 'is required').max(40),
  price: z.string().trim().max(60).optional(),
  card_id: z.union([z.string().trim().max(200), z.number()]).optional(),
  token: z.string().trim().max(500).optional(),
  coupon: z.string().trim().max(60).optional(),
});
export type PurchaseBody = z.infer<typeof purchaseBody>;

/** POST /api/payment/quote: a purchase's fields without the card, on the subscription named (else the first). */
export const quoteBody = purchaseBody.omit({ card_id: true, token: true }).extend({ subscription_id: z.number().int().positive().optional() });
export type QuoteBody = z.input<typeof quoteBody>;

/** POST /api/payment/card-setup → `{data: CardSetupStart}`. */
export const cardSetupBody = z.object({
  return_to: z.string().min(1).max(2000).describe('A path of this app to come back to, e.g. `/checkout?plan=pro&price=pro-month`'),
});
export const cardSetupStartSchema = z.object({ session_id: z.string(), url: z.string() });
export type CardSetupStart = z.infer<typeof cardSetupStartSchema>;
/** POST /api/payment/card-setup/finish → `{data: PaymentMethodView}`. */
export const finishCardSetupBody = z.object({ session_id: z.string().min(1).max(255) });
