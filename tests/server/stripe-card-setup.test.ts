import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { createStripeProvider, neutralEvent } from '../../server/billing/payments/stripe';
import { STRIPE_WEBHOOK_PATH } from '../../server/billing/payments/stripe-webhook';
import { setPaymentProvider } from '../../server/billing/payments/registry';

/**
 * Card entry with Stripe Checkout in setup mode (issue #18, decision 0300) on the real server and
 * database, with an in-process fake of Stripe's API (no network): the fake keeps customers, Checkout
 * Sessions, SetupIntents and PaymentMethods, and "completes" a session the way Stripe's page would.
 */

const SECRET = 'whsec_test_cairn_card_setup';

interface FakeSession {
  id: string;
  customer: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  setup_intent: string | null;
  success_url: string;
  cancel_url: string;
  payment_method_types: string[];
}

/** A fake Stripe API keeping its objects in memory; `complete(session, last4)` is the customer typing a card on Stripe's page. */
function fakeStripe() {
  const seen: { method: string; path: string; params: URLSearchParams }[] = [];
  const sessions = new Map<string, FakeSession>();
  const intents = new Map<string, { id: string; object: 'setup_intent'; status: string; payment_method: string | null; customer: string }>();
  const methods = new Map<string, { id: string; object: 'payment_method'; customer: string | null; card: { brand: string; last4: string; exp_month: number; exp_year: number } }>();
  let n = 0;
  const missing = { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } } };
  const route = (method: string, p: string, params: URLSearchParams): { status?: number; json: unknown } => {
    let m: RegExpExecArray | null;
    if (method === 'POST' && p === '/v1/customers') return { json: { id: `cus_fake${++n}`, object: 'customer' } };
    if (method === 'POST' && (m = /^\/v1\/customers\/(cus_\w+)$/.exec(p))) return { json: { id: m[1], object: 'customer' } };
    if (method === 'POST' && p === '/v1/checkout/sessions') {
      const id = `cs_test_fake${++n}`;
      const session: FakeSession = {
        id,
        customer: params.get('customer')!,
        mode: params.get('mode')!,
        status: 'open',
        setup_intent: null,
        success_url: params.get('success_url')!,
        cancel_url: params.get('cancel_url')!,
        payment_method_types: params.getAll('allowed_payment_method_types[0]'),
      };
      sessions.set(id, session);
      return { json: { ...session, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` } };
    }
    if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/(\w+)$/.exec(p))) {
      const s = sessions.get(m[1]);
      return s ? { json: { ...s, object: 'checkout.session', url: null } } : missing;
    }
    if (method === 'GET' && (m = /^\/v1\/setup_intents\/(\w+)$/.exec(p))) return intents.get(m[1]) ? { json: intents.get(m[1]) } : missing;
    if (method === 'GET' && (m = /^\/v1\/payment_methods\/(\w+)$/.exec(p))) return methods.get(m[1]) ? { json: methods.get(m[1]) } : missing;
    return missing;
  };
  const fetchFn = async (url: string | URL, init?: RequestInit) => {
    const u = new URL(String(url));
    const method = init?.method ?? 'GET';
    const params = new URLSearchParams(typeof init?.body === 'string' ? init.body : u.search);
    seen.push({ method, path: u.pathname, params });
    const answer = route(method, u.pathname, params);
    return new Response(JSON.stringify(answer.json), { status: answer.status ?? 200, headers: { 'content-type': 'application/json', 'request-id': 'req_fake' } });
  };
  const complete = (sessionId: string, last4 = '4242') => {
    const s = sessions.get(sessionId)!;
    const pm = `pm_fake${++n}`;
    methods.set(pm, { id: pm, object: 'payment_method', customer: s.customer, card: { brand: 'visa', last4, exp_month: 12, exp_year: 2031 } });
    const seti = `seti_fake${++n}`;
    intents.set(seti, { id: seti, object: 'setup_intent', status: 'succeeded', payment_method: pm, customer: s.customer });
    s.status = 'complete';
    s.setup_intent = seti;
    return { pm, seti };
  };
  return { seen, sessions, complete, httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch) };
}

describe('card entry on Stripe’s page (Checkout in setup mode)', () => {
  let server: TestServer;
  const fake = fakeStripe();
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const start = (token: string, return_to: string) => api(server.app, 'POST', '/api/payment/card-setup', { token, body: { return_to } });
  const finish = (token: string, session_id: string) => api(server.app, 'POST', '/api/payment/card-setup/finish', { token, body: { session_id } });
  const cards = async (userId: number) => (await sql<{ id: number; provider_method_id: string }>`select id, provider_method_id from payment_methods where user_id = ${userId} order by id`.execute(server.ctx.db)).rows;

  it('is refused with the local provider, which keeps its own card form', async () => {
    const u = await createUserWithToken(server.ctx);
    const res = await start(u.token, '/profile/billing');
    expect(res.statusCode).toBe(422);
    expect(res.json().type).toBe('card_setup_unsupported');
  });

  it('starts a setup-mode session for the caller’s customer that comes back to the page it left', async () => {
    setPaymentProvider(server.ctx, createStripeProvider({ secretKey: 'sk_test_fixture', webhookSecret: SECRET, publishableKey: 'pk_test_fixture', httpClient: fake.httpClient }));
    const u = await createUserWithToken(server.ctx);
    const res = await start(u.token, '/checkout?plan=pro&price=pro-month&card_setup=cancelled');
    expect(res.statusCode).toBe(201);
    const { session_id, url } = res.json().data;
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${session_id}`);
    const created = fake.seen.find((s) => s.method === 'POST' && s.path === '/v1/checkout/sessions')!;
    const base = server.ctx.config.publicUrl.replace(/\/+$/, '');
    expect(created.params.get('mode')).toBe('setup');
    expect(created.params.get('customer')).toMatch(/^cus_fake/);
    expect(created.params.get('allowed_payment_method_types[0]')).toBe('card');
    expect(created.params.get('success_url')).toBe(`${base}/checkout?plan=pro&price=pro-month&card_setup={CHECKOUT_SESSION_ID}`);
    expect(created.params.get('cancel_url')).toBe(`${base}/checkout?plan=pro&price=pro-month&card_setup=cancelled`);
    expect(created.params.get('client_reference_id')).toBe(String(u.user.id));
    // Never another site.
    for (const bad of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'checkout']) expect((await start(u.token, bad)).statusCode).toBe(422);
    // Signed out: 401.
    expect((await api(server.app, 'POST', '/api/payment/card-setup', { body: { return_to: '/' } })).statusCode).toBe(401);
  });

  it('saves the card of a finished session once, refuses another user’s session and an unfinished one', async () => {
    const ada = await createUserWithToken(server.ctx, { name: 'Ada' });
    const bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    const cyd = await createUserWithToken(server.ctx, { name: 'Cyd' });
    const adaSession = (await start(ada.token, '/profile/billing')).json().data.session_id as string;
    const bobSession = (await start(bob.token, '/profile/billing')).json().data.session_id as string;

    // Back from Stripe without having entered a card: nothing is saved.
    const early = await finish(ada.token, adaSession);
    expect(early.statusCode).toBe(409);
    expect(early.json().type).toBe('card_setup_incomplete');
    expect(await cards(ada.user.id)).toEqual([]);

    const { pm } = fake.complete(adaSession, '4444');
    // Someone else's session id is unknown to them, whether they have a customer (Bob) or not (Cyd), and to no one it is anything.
    expect((await finish(bob.token, adaSession)).statusCode).toBe(404);
    expect((await finish(cyd.token, adaSession)).statusCode).toBe(404);
    expect((await finish(ada.token, bobSession)).statusCode).toBe(404);
    expect((await finish(ada.token, 'cs_test_nosuch')).statusCode).toBe(404);
    expect((await finish(ada.token, '../customers')).statusCode).toBe(404);
    expect(await cards(bob.user.id)).toEqual([]);

    const done = await finish(ada.token, adaSession);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ provider: 'stripe', brand: 'visa', last4: '4444', exp_month: 12, exp_year: 2031 });
    // The same session finished again (a reload of the return page) answers the same card, stored once.
    const again = await finish(ada.token, adaSession);
    expect(again.json().data.id).toBe(done.json().data.id);
    expect(await cards(ada.user.id)).toEqual([{ id: done.json().data.id, provider_method_id: pm }]);
    // It is the customer's default for off-session charges, and the saved card lists it.
    const update = fake.seen.filter((s) => s.method === 'POST' && /^\/v1\/customers\/cus_/.test(s.path)).at(-1)!;
    expect(update.params.get('invoice_settings[default_payment_method]')).toBe(pm);
    const listed = await api(server.app, 'GET', '/api/payment/methods', { token: ada.token });
    expect(listed.json().data.map((m: { last4: string }) => m.last4)).toEqual(['4444']);
  });

  it('saves the card from the checkout.session.completed webhook too, once, whichever path comes first', async () => {
    const eve = await createUserWithToken(server.ctx, { name: 'Eve' });
    const session = (await start(eve.token, '/profile/billing')).json().data.session_id as string;
    const { pm, seti } = fake.complete(session, '1881');
    const customer = fake.sessions.get(session)!.customer;
    const body = fs
      .readFileSync(path.join(import.meta.dirname, '../fixtures/stripe/checkout.session.completed.json'), 'utf8')
      .replaceAll('{{SESSION}}', session)
      .replaceAll('{{CUSTOMER}}', customer)
      .replaceAll('{{SETUP_INTENT}}', seti);
    expect(neutralEvent(JSON.parse(body))).toMatchObject({ type: 'card_setup.completed', customerId: customer, setupSessionId: session });
    const deliver = () =>
      api(server.app, 'POST', STRIPE_WEBHOOK_PATH, { body: body as never, headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) } });
    expect((await deliver()).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver()).json()).toEqual({ received: true, duplicate: true });
    await server.ctx.jobs.drain();
    const saved = await cards(eve.user.id);
    expect(saved).toEqual([{ id: expect.any(Number), provider_method_id: pm }]);
    // The browser comes back after the webhook: the same card, still one row.
    const back = await finish(eve.token, session);
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toMatchObject({ id: saved[0].id, last4: '1881' });
    expect(await cards(eve.user.id)).toHaveLength(1);

    // A payment-mode session's completion is not a card set-up: answered, not recorded.
    const paymentMode = body.replace('"mode": "setup"', '"mode": "payment"').replace('evt_1QfixtureCheckoutSetup01', 'evt_1QfixtureCheckoutPay01');
    const res = await api(server.app, 'POST', STRIPE_WEBHOOK_PATH, {
      body: paymentMode as never,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: paymentMode, secret: SECRET }) },
    });
    expect(res.json()).toEqual({ received: true, ignored: true });
  });
});
