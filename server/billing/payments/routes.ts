import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireUser } from '../../auth/guard';
import { ApiError, notFound, parseBody } from '../../http/errors';
import { int4IdProblem, isInt4Id } from '../../http/int-ids';
import { localeSettingOf, serverLocale, translator } from '../../i18n/catalogs';
import { BILLING_OFF_MESSAGE } from '../routes';
import { addMethodBody, addPaymentMethod, deletePaymentMethod, invoiceView, listInvoices, listPaymentMethods, nextInvoice, ownInvoice, quotePurchase } from './service';
import { invoiceSchema as invoiceShape, nextInvoiceSchema, paymentMethodSchema as methodShape, quoteBody, quoteSchema } from '../../../schema/payments';

/**
 * Payment routes (decision 0250, docs/api/billing.md): the caller's saved cards, invoices (list
 * and PDF) and the next invoice. Buying is POST /api/subscription[/{id}] (server/billing/routes.ts).
 * Every route acts on the caller's own rows; another person's card or invoice is a 404, like an
 * unknown one.
 */

const tag = 'Billing';
const invoicePdf = () => import('./invoice-pdf');

/** The answers' shapes are the ones the app reads (schema/payments.ts). */

const idOf = (raw: string) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  // Above the database's integer range (N11): a 422 naming the field, not a failed query.
  if (!isInt4Id(id)) throw new ApiError(422, `Validation Error: ${int4IdProblem('id')}`, 'validation', [int4IdProblem('id')]);
  return id;
};

export function paymentRoutes(app: FastifyInstance, ctx: AppContext) {
  const billingOn = () => {
    if (!ctx.config.billing) throw new ApiError(422, BILLING_OFF_MESSAGE, 'billing_off');
  };

  app.get('/api/payment/methods', { config: { docs: { tag, summary: 'The caller’s saved cards', description: 'Brand, last four digits and expiry; never a card number.', response: z.object({ data: z.array(methodShape) }) } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await listPaymentMethods(ctx, user.id) };
  });

  app.post(
    '/api/payment/methods',
    {
      config: {
        docs: {
          tag,
          summary: 'Save a card',
          description: 'The local provider takes `{card: {number, exp_month, exp_year, cvc}}` with its test cards (4242 4242 4242 4242 …) or `{token}` (`tok_visa`); another provider takes the token its browser library made. A refused card is a 402 whose `type` says why (card_declined, incorrect_number, incorrect_cvc, expired_card).',
          status: 201,
          body: addMethodBody,
          response: z.object({ data: methodShape }),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(ctx.db, request);
      billingOn();
      const body = parseBody(addMethodBody, request.body);
      const method = await addPaymentMethod(ctx, user.id, body.card ? { card: body.card } : { token: body.token! });
      return reply.status(201).send({ data: method });
    },
  );

  app.delete<{ Params: { id: string } }>('/api/payment/methods/:id', { config: { docs: { tag, summary: 'Remove a saved card', status: 204 } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    await deletePaymentMethod(ctx, user.id, idOf(request.params.id));
    return reply.status(204).send();
  });

  app.get('/api/payment/invoices', { config: { docs: { tag, summary: 'The caller’s invoices, newest first', description: 'Paid, refunded and failed ones; amounts in minor units, tax-free.', response: z.object({ data: z.array(invoiceShape) }) } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await listInvoices(ctx.db, user.id) };
  });

  app.get<{ Params: { id: string } }>('/api/payment/invoices/:id/pdf', { config: { docs: { tag, summary: 'An invoice as a PDF', description: 'In the caller’s language. Only paid and refunded invoices have one (404 otherwise).' } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    const row = await ownInvoice(ctx.db, user.id, idOf(request.params.id));
    if (row.status !== 'paid' && row.status !== 'refunded') throw notFound();
    const locale = serverLocale(await localeSettingOf(ctx.db, user.id));
    const { renderInvoicePdf } = await invoicePdf();
    const pdf = await renderInvoicePdf({
      invoice: invoiceView(row),
      customer: { name: user.name, email: user.email },
      seller: process.env.APP_NAME || 'Cairn',
      locale,
      rtl: locale === 'ar',
      l10n: translator(locale),
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${row.number ?? `invoice-${row.id}`}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  app.post(
    '/api/payment/quote',
    {
      config: {
        docs: {
          tag,
          summary: 'What buying or changing a plan would cost now',
          description: '`{plan, price?, coupon?, subscription_id?}` → `{data: {subscription_id, plan, price, currency, subtotal, discount, credit_applied, total, lines, period_end}}`, priced exactly as `POST /api/subscription` would (proration, coupon, credit) with the same refusals; nothing is charged or stored.',
          body: quoteBody,
          response: z.object({ data: quoteSchema }),
        },
      },
    },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      billingOn();
      const { subscription_id, ...body } = parseBody(quoteBody, request.body);
      return { data: await quotePurchase(ctx, user.id, body, subscription_id) };
    },
  );

  app.get(
    '/api/payment/user/user/invoices/next',
    {
      config: {
        docs: {
          tag,
          summary: 'The next invoice of the caller’s renewing subscription',
          description: '`{data: {subscription_id, date, amount, currency, lines}}`, or `{data: null}` when nothing renews (no purchase, lifetime deal, cancelled).',
          response: z.object({ data: nextInvoiceSchema.nullable() }),
        },
      },
    },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      return { data: await nextInvoice(ctx, user.id) };
    },
  );
}
