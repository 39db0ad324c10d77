import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { startOidcProvider, type OidcProvider } from '../helpers/oidc-provider';
import { CERT } from '../helpers/saml-cert';
import { generateLtdCodes } from '../../server/billing/ltd';
import { issueTokens } from '../../server/auth/tokens';
import { attributeSignup, ensureCode } from '../../server/referral/service';
import { addonsAnswerSchema, addonViewSchema, billingSubscriptionSchema, cancellationViewSchema, ltdCodeViewSchema, planViewSchema } from '../../schema/billing';
import { invoiceSchema, nextInvoiceSchema, paymentMethodSchema, quoteSchema } from '../../schema/payments';
import { referralInviteAnswerSchema, referralViewSchema } from '../../schema/referral';
import { ssoDiscoverySchema, ssoStartAnswerSchema, ssoViewSchema } from '../../schema/sso';

/**
 * The payment, referral and single sign-on answers are read by the app with the types of
 * schema/billing.ts, schema/payments.ts, schema/referral.ts and schema/sso.ts. Each real answer
 * here (PGlite and PostgreSQL: database values such as sums, jsonb and timestamps included) is
 * parsed with its shared schema, and the parse must give the answer back unchanged: a field the
 * schema lacks is stripped, so a field added on the server alone fails as surely as one missing,
 * renamed or of another type.
 */
function expectShape<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${z.prettifyError(parsed.error)}\nin ${JSON.stringify(value)}`);
  expect(parsed.data, 'a field the shared schema does not know').toEqual(value);
  return parsed.data;
}

const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };

describe('wire shapes shared by the server and the app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ config: { ssoAllowPrivateIssuers: true, publicUrl: 'http://cairn.example.test' } });
  });
  afterAll(() => server.close());

  it('catches a drift: an unknown field or a wrong value fails the check', () => {
    const method = { id: 1, provider: 'local', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099, created_at: '2026-11-27T00:00:00.000Z' };
    expect(expectShape(paymentMethodSchema, method)).toEqual(method);
    expect(() => expectShape(paymentMethodSchema, { ...method, fingerprint: 'x' })).toThrow();
    expect(() => expectShape(paymentMethodSchema, { ...method, exp_year: '2099' })).toThrow();
    const view = { subscription_id: 1, cancellation: { reasons: ['too_costly'], comment: null, cancelled_at: method.created_at, ends_at: null }, can_cancel: false, offers: [], coupon_used: false, coupon: null, money_back_days: 14 };
    expect(() => expectShape(cancellationViewSchema, view)).toThrow(/reasons/);
  });

  it('plans, subscriptions, trials, payments, invoices, quotes and the next invoice', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Wanda Wire' });
    const plans = (await api(server.app, 'GET', '/api/plans')).json().data as unknown[];
    expect(plans.length).toBeGreaterThan(1);
    for (const plan of plans) expectShape(planViewSchema, plan);

    const trial = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } });
    expect(trial.statusCode, trial.body).toBe(200);
    const sub = expectShape(billingSubscriptionSchema, trial.json().data);
    expect(sub.state).toBe('trial');
    expect(sub.trial).not.toBeNull();

    const card = await api(server.app, 'POST', '/api/payment/methods', { token: u.token, body: { card: VISA } });
    expect(card.statusCode, card.body).toBe(201);
    const method = expectShape(paymentMethodSchema, card.json().data);
    for (const m of (await api(server.app, 'GET', '/api/payment/methods', { token: u.token })).json().data) expectShape(paymentMethodSchema, m);

    const quote = await api(server.app, 'POST', '/api/payment/quote', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd' } });
    expect(quote.statusCode, quote.body).toBe(200);
    expectShape(quoteSchema, quote.json().data);

    const bought = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: method.id } });
    expect(bought.statusCode, bought.body).toBe(200);
    expectShape(z.object({ data: billingSubscriptionSchema, invoice: invoiceSchema }), bought.json());
    expect(bought.json().invoice.status).toBe('paid');

    // An upgrade mid-period: proration lines (credit and charge) with their dates.
    server.advance(10 * 24 * 3600 * 1000);
    try {
      const token = (await issueTokens(server.ctx.db, u.user.id, server.ctx.now())).access_token;
      const up = await api(server.app, 'POST', '/api/payment/quote', { token, body: { plan: 'business', price: 'business-month-usd', subscription_id: sub.id } });
      expect(up.statusCode, up.body).toBe(200);
      expect(expectShape(quoteSchema, up.json().data).lines.map((l) => l.kind)).toEqual(['proration_credit', 'proration_charge']);
      const upgraded = await api(server.app, 'POST', `/api/subscription/${sub.id}`, { token, body: { plan: 'business', price: 'business-month-usd' } });
      expect(upgraded.statusCode, upgraded.body).toBe(200);
      expectShape(z.object({ data: billingSubscriptionSchema, invoice: invoiceSchema }), upgraded.json());
      const invoices = (await api(server.app, 'GET', '/api/payment/invoices', { token })).json().data as unknown[];
      expect(invoices).toHaveLength(2);
      for (const invoice of invoices) expectShape(invoiceSchema, invoice);
      const next = (await api(server.app, 'GET', '/api/payment/user/user/invoices/next', { token })).json().data;
      expect(next).not.toBeNull();
      expectShape(nextInvoiceSchema, next);
      for (const s of (await api(server.app, 'GET', '/api/subscription/all', { token })).json().data) expectShape(billingSubscriptionSchema, s);
    } finally {
      server.advance(-10 * 24 * 3600 * 1000);
    }
  });

  it('the cancel flow: the standing cancellation, the offers and a taken coupon', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Carl Cancel' });
    const method = (await api(server.app, 'POST', '/api/payment/methods', { token: u.token, body: { card: VISA } })).json().data;
    const bought = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: method.id } });
    expect(bought.statusCode, bought.body).toBe(200);
    const id = bought.json().data.id as number;
    const before = expectShape(cancellationViewSchema, (await api(server.app, 'GET', `/api/subscription/${id}/cancellation`, { token: u.token })).json().data);
    expect(before.offers).toEqual(['free_month', 'year_discount']);

    const cancelled = await api(server.app, 'POST', `/api/subscription/${id}/cancel`, { token: u.token, body: { reasons: ['too_expensive', 'other'], comment: 'Too dear' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(expectShape(billingSubscriptionSchema, cancelled.json().data).state).toBe('cancelled');
    const standing = expectShape(cancellationViewSchema, (await api(server.app, 'GET', `/api/subscription/${id}/cancellation`, { token: u.token })).json().data);
    expect(standing.cancellation?.reasons).toEqual(['too_expensive', 'other']);

    const kept = await api(server.app, 'POST', `/api/subscription/${id}/cancellation-coupon`, { token: u.token, body: { offer: 'year_discount' } });
    expect(kept.statusCode, kept.body).toBe(200);
    expectShape(billingSubscriptionSchema, kept.json().data);
    const withCoupon = expectShape(cancellationViewSchema, (await api(server.app, 'GET', `/api/subscription/${id}/cancellation`, { token: u.token })).json().data);
    expect(withCoupon.coupon?.offer).toBe('year_discount');
  });

  it('lifetime-deal codes and add-ons', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Lana Lifetime' });
    const [code] = await generateLtdCodes(server.ctx.db, 1, { now: server.ctx.now() });
    expectShape(ltdCodeViewSchema, (await api(server.app, 'GET', `/api/ltd-codes/${code}`)).json().data);
    const redeemed = await api(server.app, 'POST', `/api/ltd-codes/${code}/redeem`, { token: u.token });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const sub = expectShape(billingSubscriptionSchema, redeemed.json().data);
    expect(expectShape(ltdCodeViewSchema, (await api(server.app, 'GET', `/api/ltd-codes/${code}`, { token: u.token })).json().data).redeemed_by_you).toBe(true);

    const offered = expectShape(addonsAnswerSchema, (await api(server.app, 'GET', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token })).json());
    expect(offered.eligible).toBe(true);
    expect(offered.available.length).toBeGreaterThan(0);
    expect((await api(server.app, 'POST', '/api/payment/methods', { token: u.token, body: { card: VISA } })).statusCode).toBe(201);
    const bought = await api(server.app, 'POST', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token, body: { addon: 'storage-50' } });
    expect(bought.statusCode, bought.body).toBe(200);
    const addon = expectShape(addonViewSchema, bought.json().data);
    const replaced = await api(server.app, 'POST', `/api/subscriptions/${sub.id}/add-ons/${addon.id}`, { token: u.token, body: { addon: 'storage-200' } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(expectShape(addonViewSchema, replaced.json().data).old_addon_id).toBe(addon.id);
    expect(expectShape(addonsAnswerSchema, (await api(server.app, 'GET', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token })).json()).data).toHaveLength(1);
    // The subscription's limits with the add-on (effective limits) keep their shape.
    for (const s of (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data) expectShape(billingSubscriptionSchema, s);
  });

  it('referral: the view with sign-ups, invitations and credits, a chosen code, an invitation', async () => {
    const referrer = await createUserWithToken(server.ctx, { name: 'Rita Referrer' });
    const code = await ensureCode(server.ctx.db, referrer.user.id, server.ctx.now());
    const friend = await createUserWithToken(server.ctx, { name: 'Fred Friend' });
    await attributeSignup(server.ctx.db, friend.user.id, code, server.ctx.now());
    // The friend buys: the referral-credits consumer credits 20 % to the referrer.
    const method = (await api(server.app, 'POST', '/api/payment/methods', { token: friend.token, body: { card: VISA } })).json().data;
    expect((await api(server.app, 'POST', '/api/subscription', { token: friend.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: method.id } })).statusCode).toBe(200);
    await server.ctx.jobs.drain();

    const invite = await api(server.app, 'POST', '/api/referral/invite', { token: referrer.token, body: { emails: `new-${Date.now()}@example.test, ${referrer.user.email}` } });
    expect(invite.statusCode, invite.body).toBe(200);
    const answer = expectShape(referralInviteAnswerSchema, invite.json().data);
    expect(answer.skipped).toEqual([{ email: referrer.user.email.toLowerCase(), reason: 'own_address' }]);

    const view = expectShape(referralViewSchema, (await api(server.app, 'GET', '/api/referral', { token: referrer.token })).json().data);
    expect(view.signups).toBe(1);
    expect(view.credits).toHaveLength(1);
    // Held while the invoice is in its refund window (issue #26, N12).
    expect(view.held).toEqual([{ currency: 'USD', amount: 200 }]);
    expect(view.earnings).toEqual([]);
    expect(view.invitations).toHaveLength(1);
    const chosen = await api(server.app, 'PUT', '/api/referral', { token: referrer.token, body: { code: `rita-${referrer.user.id}` } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expectShape(referralViewSchema, chosen.json().data);
  });

  describe('single sign-on', () => {
    let provider: OidcProvider;
    beforeAll(async () => {
      provider = await startOidcProvider();
    });
    afterAll(() => provider?.close());

    it('the settings (empty, both halves, removed), the connection test and the start of a sign-in', async () => {
      const owner = await createUserWithToken(server.ctx, { email: 'owner@wire.example.test' });
      const teamId = (await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Wire' } })).json().data.id as number;
      const empty = expectShape(ssoViewSchema, (await api(server.app, 'GET', `/api/${teamId}/sso`, { token: owner.token })).json().data);
      expect(empty.oidc).toBeNull();

      const body = {
        oidc: { issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, enabled: true, enforce: false, allowed_domains: ['wire.example.test'] },
        saml: { entity_id: 'https://idp.example.test', sso_url: 'https://idp.example.test/sso', certificate: CERT },
      };
      const saved = await api(server.app, 'PUT', `/api/${teamId}/sso`, { token: owner.token, body });
      expect(saved.statusCode, saved.body).toBe(200);
      const view = expectShape(ssoViewSchema, saved.json().data);
      expect(view.saml?.certificate_subject).toBe('CN=idp.example.test');
      expectShape(ssoViewSchema, (await api(server.app, 'GET', `/api/${teamId}/sso`, { token: owner.token })).json().data);

      const tested = await api(server.app, 'POST', `/api/${teamId}/sso/test`, { token: owner.token, body: {} });
      expect(tested.statusCode, tested.body).toBe(200);
      expectShape(ssoDiscoverySchema, tested.json().data);

      const started = await api(server.app, 'POST', '/api/auth/sso/start', { body: { team_id: teamId } });
      expect(started.statusCode, started.body).toBe(200);
      expect(expectShape(ssoStartAnswerSchema, started.json().data).team_id).toBe(teamId);

      const removed = await api(server.app, 'DELETE', `/api/${teamId}/sso`, { token: owner.token });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(expectShape(ssoViewSchema, removed.json().data).updated_at).toBeNull();
    });
  });
});
