import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { createStripeProvider, declineCodeOf, IgnoredStripeEvent, neutralEvent, stripeConfigFromEnv } from '../../server/billing/payments/stripe';
import { STRIPE_WEBHOOK_PATH } from '../../server/billing/payments/stripe-webhook';
import { setPaymentProvider } from '../../server/billing/payments/registry';
import { PaymentDeclinedError } from '../../server/billing/payments/provider';

/**
 * The Stripe provider (issue #18, decision 0255), no network: webhook events are Stripe's documented
 * event shapes (tests/fixtures/stripe), signed with the SDK's generateTestHeaderString and verified by
 * constructEvent; API calls go to a fetch function answering like Stripe's API.
 */

const SECRET = 'whsec_test_cairn_fixture_secret';
const fixture = (name: string, invoice: number | string = 1) =>
  fs.readFileSync(path.join(import.meta.dirname, '../fixtures/stripe', `${name}.json`), 'utf8').replaceAll('{{INVOICE}}', String(invoice));
const sign = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A fetch that answers like Stripe's API from a table of handlers, recording every request. */
function fakeStripe(handlers: Record<string, (body: URLSearchParams) => { status?: number; json: unknown }>) {
  const seen: Seen[] = [];
  const fetchFn = async (url: string | URL, init?: RequestInit) => {
    const u = new URL(String(url));
    const body = typeof init?.body === 'string' ? init.body : '';
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    seen.push({ method: init?.method ?? 'GET', url: u.pathname, body, headers });
    const handler = handlers[`${init?.method ?? 'GET'} ${u.pathname}`];
    const answer = handler ? handler(new URLSearchParams(body)) : { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such thing' } } };
    return new Response(JSON.stringify(answer.json), { status: answer.status ?? 200, headers: { 'content-type': 'application/json', 'request-id': 'req_fake' } });
  };
  return { seen, httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch) };
}

const provider = (httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>) =>
  createStripeProvider({ secretKey: 'sk_test_fixture', webhookSecret: SECRET, publishableKey: 'pk_test_fixture', httpClient: httpClient ?? fakeStripe({}).httpClient });

describe('Stripe provider: events and signatures', () => {
  it('maps Stripe’s documented events onto the neutral ones', () => {
    const ok = neutralEvent(JSON.parse(fixture('payment_intent.succeeded', 7)));
    expect(ok).toMatchObject({ id: 'evt_3QfixtureSucceeded01', type: 'charge.succeeded', chargeId: 'pi_3QfixtureIntent01', customerId: 'cus_Qfixture01', paymentMethodId: 'pm_1QfixtureCard01', invoiceNumber: 'invoice-7', amount: 1000, currency: 'USD', failure: null });
    expect(ok.created.toISOString()).toBe(new Date(1795770000 * 1000).toISOString());
    const failed = neutralEvent(JSON.parse(fixture('payment_intent.payment_failed')));
    expect(failed).toMatchObject({ type: 'charge.failed', chargeId: 'pi_3QfixtureIntent01', failure: { code: 'insufficient_funds' } });
    // A refund names the PaymentIntent (what charge() answered), not the charge object.
    expect(neutralEvent(JSON.parse(fixture('charge.refunded')))).toMatchObject({ type: 'charge.refunded', chargeId: 'pi_3QfixtureIntent01', amount: 1000 });
    expect(neutralEvent(JSON.parse(fixture('payment_method.detached')))).toMatchObject({ type: 'payment_method.detached', paymentMethodId: 'pm_1QfixtureCard01', customerId: 'cus_Qfixture01' });
    expect(() => neutralEvent(JSON.parse(fixture('customer.updated')))).toThrow(IgnoredStripeEvent);
    expect(declineCodeOf('card_declined', 'expired_card')).toBe('expired_card');
    expect(declineCodeOf('card_declined', 'generic_decline')).toBe('card_declined');
  });

  it('verifies the signature with the SDK: a good one passes; a changed body, another secret, an old timestamp or none are refused', async () => {
    const p = provider();
    const body = fixture('payment_intent.succeeded');
    expect((await p.parseWebhook(body, { 'stripe-signature': sign(body) })).id).toBe('evt_3QfixtureSucceeded01');
    expect((await p.parseWebhook(Buffer.from(body), { 'stripe-signature': [sign(body)] })).type).toBe('charge.succeeded');
    const bad = Stripe.errors.StripeSignatureVerificationError;
    await expect(p.parseWebhook(body.replace('"amount": 1000', '"amount": 1'), { 'stripe-signature': sign(body) })).rejects.toBeInstanceOf(bad);
    await expect(p.parseWebhook(body, { 'stripe-signature': sign(body, { secret: 'whsec_other' }) })).rejects.toBeInstanceOf(bad);
    await expect(p.parseWebhook(body, { 'stripe-signature': sign(body, { timestamp: Math.floor(Date.now() / 1000) - 3600 }) })).rejects.toBeInstanceOf(bad);
    await expect(p.parseWebhook(body, {})).rejects.toBeInstanceOf(bad);
  });

  it('reads its configuration and names what is missing', () => {
    expect(() => stripeConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY/);
    expect(stripeConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' })).toMatchObject({ publishableKey: 'pk_test_x' });
  });
});

describe('Stripe provider: API calls (a fake Stripe API, no network)', () => {
  it('charges one PaymentIntent per invoice, confirmed off-session with Cairn’s idempotency key', async () => {
    const fake = fakeStripe({
      'POST /v1/payment_intents': (b) => ({ json: { id: 'pi_new', object: 'payment_intent', status: 'succeeded', amount: Number(b.get('amount')), currency: b.get('currency') } }),
    });
    const result = await provider(fake.httpClient).charge({ customerId: 'cus_1', paymentMethodId: 'pm_1', amount: 1200, currency: 'EUR', invoiceNumber: 'invoice-9', description: 'Pro', lines: [], idempotencyKey: 'invoice-9-charge' });
    expect(result).toEqual({ chargeId: 'pi_new', status: 'succeeded' });
    const req = fake.seen[0];
    const params = new URLSearchParams(req.body);
    expect(params.get('amount')).toBe('1200');
    expect(params.get('currency')).toBe('eur');
    expect(params.get('confirm')).toBe('true');
    expect(params.get('off_session')).toBe('true');
    expect(params.get('metadata[invoice_number]')).toBe('invoice-9');
    expect(req.headers['idempotency-key']).toBe('invoice-9-charge');
    expect(req.headers.authorization).toBe('Bearer sk_test_fixture');
  });

  it('turns a card error into the neutral decline, and never sends card numbers', async () => {
    const fake = fakeStripe({
      'POST /v1/payment_intents': () => ({ status: 402, json: { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } } }),
    });
    const p = provider(fake.httpClient);
    const err = await p.charge({ customerId: 'cus_1', paymentMethodId: 'pm_1', amount: 100, currency: 'USD', invoiceNumber: 'invoice-1', description: 'x', lines: [], idempotencyKey: 'k' }).catch((e) => e);
    expect(err).toBeInstanceOf(PaymentDeclinedError);
    expect(err.code).toBe('insufficient_funds');
    await expect(p.attachPaymentMethod('cus_1', { card: { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' } })).rejects.toBeInstanceOf(PaymentDeclinedError);
    expect(fake.seen).toHaveLength(1);
  });

  it('attaches a PaymentMethod token and makes it the default; detaching an unknown one is not an error', async () => {
    const fake = fakeStripe({
      'POST /v1/payment_methods/pm_card_visa/attach': () => ({ json: { id: 'pm_card_visa', object: 'payment_method', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 } } }),
      'POST /v1/customers/cus_1': () => ({ json: { id: 'cus_1', object: 'customer' } }),
      'POST /v1/customers': () => ({ json: { id: 'cus_new', object: 'customer' } }),
    });
    const p = provider(fake.httpClient);
    expect(await p.attachPaymentMethod('cus_1', { token: 'pm_card_visa' })).toEqual({ providerMethodId: 'pm_card_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
    expect(new URLSearchParams(fake.seen[1].body).get('invoice_settings[default_payment_method]')).toBe('pm_card_visa');
    await expect(p.detachPaymentMethod('cus_1', 'pm_gone')).resolves.toBeUndefined();
    expect(await p.createCustomer({ userId: 5, email: 'a@example.test', name: 'A' })).toEqual({ customerId: 'cus_new' });
    expect(fake.seen.at(-1)!.headers['idempotency-key']).toBe('cairn-customer-5');
  });
});

describe('Stripe webhook endpoint (on the real server and database)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
    setPaymentProvider(server.ctx, provider());
  });
  afterAll(() => server.close());

  const deliver = (body: string, signature = sign(body)) =>
    api(server.app, 'POST', STRIPE_WEBHOOK_PATH, { body: body as never, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });

  const invoiceStatus = async (id: number) => (await sql<{ status: string }>`select status from invoices where id = ${id}`.execute(server.ctx.db)).rows[0].status;

  it('refuses a missing or bad signature and records nothing', async () => {
    const body = fixture('payment_intent.succeeded', 999);
    const res = await deliver(body, sign(body, { secret: 'whsec_wrong' }));
    expect(res.statusCode).toBe(401);
    expect(res.json().type).toBe('bad_signature');
    const unsigned = await api(server.app, 'POST', STRIPE_WEBHOOK_PATH, { body: body as never, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(401);
    const { rows } = await sql<{ n: string }>`select count(*) as n from payment_events where provider = 'stripe'`.execute(server.ctx.db);
    expect(Number(rows[0].n)).toBe(0);
  });

  it('applies the same event once, and an older event after a newer one does not move the invoice back', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Stella Stripe' });
    const { rows } = await sql<{ id: number }>`
      insert into invoices (user_id, status, provider, currency, subtotal, total, lines, change, created_at)
      values (${u.user.id}, 'paid', 'stripe', 'USD', 1000, 1000, '[]'::jsonb, '{}'::jsonb, now()) returning id`.execute(server.ctx.db);
    const invoice = rows[0].id;

    // The refund (newest) arrives first …
    const refund = fixture('charge.refunded', invoice);
    const first = await deliver(refund);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    // … and Stripe retries it: recorded once, handled once.
    expect((await deliver(refund)).json()).toEqual({ received: true, duplicate: true });
    await server.ctx.jobs.drain();
    expect(await invoiceStatus(invoice)).toBe('refunded');
    const events = await sql<{ n: string }>`select count(*) as n from payment_events where provider = 'stripe' and event_id = 'evt_3QfixtureRefunded01'`.execute(server.ctx.db);
    expect(Number(events.rows[0].n)).toBe(1);

    // Then the older failure and the older success: the invoice stays refunded.
    expect((await deliver(fixture('payment_intent.payment_failed', invoice))).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(fixture('payment_intent.succeeded', invoice))).json()).toEqual({ received: true, duplicate: false });
    await server.ctx.jobs.drain();
    expect(await invoiceStatus(invoice)).toBe('refunded');
  });

  it('answers 200 without recording for event types Cairn does not use', async () => {
    const res = await deliver(fixture('customer.updated'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, ignored: true });
  });
});
