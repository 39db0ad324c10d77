import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Card entry with PAYMENT_PROVIDER=stripe in Chromium against the real server (issue #18, decision
 * 0300). A stand-in for Stripe runs in this process (no network): its API answers the server's SDK
 * calls (STRIPE_API_BASE points there) and its "Checkout page" takes a card number in a form of its
 * own and sends the browser back to success_url, as Stripe Checkout in setup mode does. The test
 * checks the card number never goes to Cairn's server, the card comes back saved and chosen, and
 * paying with it makes a paid invoice.
 */

interface Session {
  id: string;
  customer: string;
  mode: string;
  status: 'open' | 'complete';
  setup_intent: string | null;
  success_url: string;
  cancel_url: string;
}

function standInStripe() {
  const sessions = new Map<string, Session>();
  const intents = new Map<string, object>();
  const methods = new Map<string, object>();
  const charges: URLSearchParams[] = [];
  let n = 0;
  let base = '';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const params = new URLSearchParams(raw);
      const json = (body: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
        res.end(JSON.stringify(body));
      };
      const missing = () => json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } }, 404);
      const p = url.pathname;
      let m: RegExpExecArray | null;
      if (req.method === 'POST' && p === '/v1/customers') return json({ id: `cus_e2e${++n}`, object: 'customer' });
      if (req.method === 'POST' && (m = /^\/v1\/customers\/(\w+)$/.exec(p))) return json({ id: m[1], object: 'customer' });
      if (req.method === 'POST' && p === '/v1/checkout/sessions') {
        const s: Session = { id: `cs_test_e2e${++n}`, customer: params.get('customer')!, mode: params.get('mode')!, status: 'open', setup_intent: null, success_url: params.get('success_url')!, cancel_url: params.get('cancel_url')! };
        sessions.set(s.id, s);
        return json({ ...s, object: 'checkout.session', url: `${base}/c/pay/${s.id}` });
      }
      if (req.method === 'GET' && (m = /^\/v1\/checkout\/sessions\/(\w+)$/.exec(p))) return sessions.has(m[1]) ? json({ ...sessions.get(m[1]), object: 'checkout.session' }) : missing();
      if (req.method === 'GET' && (m = /^\/v1\/setup_intents\/(\w+)$/.exec(p))) return intents.has(m[1]) ? json(intents.get(m[1])) : missing();
      if (req.method === 'GET' && (m = /^\/v1\/payment_methods\/(\w+)$/.exec(p))) return methods.has(m[1]) ? json(methods.get(m[1])) : missing();
      if (req.method === 'POST' && p === '/v1/payment_intents') {
        charges.push(params);
        return json({ id: `pi_e2e${++n}`, object: 'payment_intent', status: 'succeeded', amount: Number(params.get('amount')), currency: params.get('currency') });
      }
      // The hosted card page.
      if ((m = /^\/c\/pay\/(\w+)$/.exec(p)) && sessions.has(m[1])) {
        const s = sessions.get(m[1])!;
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(
            `<!doctype html><html lang="en"><title>Stand-in Stripe Checkout</title><h1>Add a card</h1><form method="post"><label>Card number <input name="number"></label><button>Save card</button></form><a href="${s.cancel_url}">Back</a></html>`,
          );
        }
        const digits = params.get('number')!.replace(/\D/g, '');
        const pm = `pm_e2e${++n}`;
        methods.set(pm, { id: pm, object: 'payment_method', customer: s.customer, card: { brand: digits.startsWith('5') ? 'mastercard' : 'visa', last4: digits.slice(-4), exp_month: 12, exp_year: 2034 } });
        const seti = `seti_e2e${++n}`;
        intents.set(seti, { id: seti, object: 'setup_intent', status: 'succeeded', payment_method: pm, customer: s.customer });
        s.status = 'complete';
        s.setup_intent = seti;
        res.writeHead(303, { location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
        return res.end();
      }
      missing();
    });
  });
  return {
    sessions,
    charges,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('card entry on Stripe’s page (PAYMENT_PROVIDER=stripe)', () => {
  const stripe = standInStripe();
  let world: BoardWorld;
  let page: Page;
  let errors: string[];
  const sentToCairn: string[] = [];

  beforeAll(async () => {
    const apiBase = await stripe.start();
    world = await startWorld({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_e2e', STRIPE_WEBHOOK_SECRET: 'whsec_e2e', STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e', STRIPE_API_BASE: apiBase });
    ({ page, errors } = await signedInPage(world, USERS.full));
    page.on('request', (request) => {
      if (request.url().startsWith(world.server.url)) sentToCairn.push(`${request.url()} ${request.postData() ?? ''}`);
    });
  });
  afterAll(async () => {
    await world?.close();
    await stripe.close();
  });

  it('enters a card on the provider’s page from checkout, comes back with it chosen and pays; adds another from billing', async () => {
    await page.goto(`${world.server.url}/checkout?plan=pro&price=pro-month-usd`);
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    // No card form of ours: the card is typed on Stripe's page.
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByText('You will enter the card on Stripe’s secure page, then come back here to pay.').waitFor();
    await page.getByRole('button', { name: 'Enter a card' }).click();

    await page.getByRole('heading', { name: 'Add a card' }).waitFor();
    const session = [...stripe.sessions.values()].at(-1)!;
    expect(session.mode).toBe('setup');
    expect(session.success_url).toBe(`${world.server.url}/checkout?plan=pro&price=pro-month-usd&card_setup={CHECKOUT_SESSION_ID}`);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();

    // Back on checkout: the card is saved and chosen, the address no longer carries the session.
    await page.getByText('Card saved: VISA ending in 4242. Check the total and pay.').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('card_setup')).toBeNull();
    expect(await page.getByRole('radio', { name: 'VISA ending in 4242' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Pay $10.00' }).click();
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await page.getByText(/^Invoice INV-\d{6}: \$10\.00 paid\.$/).waitFor();
    expect(stripe.charges).toHaveLength(1);
    expect(stripe.charges[0].get('payment_method')).toMatch(/^pm_e2e/);
    expect(stripe.charges[0].get('amount')).toBe('1000');

    // From billing's payment methods: another card, back on billing.
    await page.goto(`${world.server.url}/profile/billing`);
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    await page.getByRole('button', { name: 'Add a card on Stripe’s secure page' }).click();
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    await expect.poll(() => page.locator('.payment-methods li span').allTextContents()).toEqual(['MASTERCARD ending in 4444, expires 12/2034', 'VISA ending in 4242, expires 12/2034']);

    // A reload of the return address (the session finished again) stores nothing twice.
    await page.goto(`${world.server.url}/profile/billing?card_setup=${[...stripe.sessions.values()].at(-1)!.id}`);
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    await expect.poll(() => page.locator('.payment-methods li').count()).toBe(2);

    // No card number ever went to Cairn's server.
    expect(sentToCairn.some((line) => /4242\s?4242|5555\s?5555/.test(line))).toBe(false);
    expect(errors).toEqual([]);
  });
});
