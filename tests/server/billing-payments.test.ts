import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { noteInput, waitingFor } from '../helpers/trail';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { Messages } from '../../schema/messages';
import { issueTokens } from '../../server/auth/tokens';
import { quote, share, periodEnd } from '../../server/billing/payments/proration';
import { luhnValid } from '../../server/billing/payments/local';
import { getPlan, planAsInput, savePlan } from '../../server/billing/plans';

/** Payments with the local provider (decision 0250), on PGlite and PostgreSQL (TEST_DATABASE_URL). */

const DAY = 24 * 60 * 60 * 1000;
const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };

async function tokenNow(server: TestServer, userId: number) {
  return (await issueTokens(server.ctx.db, userId, server.ctx.now())).access_token;
}

describe('proration arithmetic (minor units)', () => {
  it('shares an amount half up without floats, and knows calendar months', () => {
    expect(share(1000, 15, 30)).toBe(500);
    expect(share(1000, 1, 3)).toBe(333);
    expect(share(1000, 2, 3)).toBe(667);
    expect(share(999, 1, 2)).toBe(500); // 499.5 rounds up
    expect(share(19200, 0, 10)).toBe(0);
    expect(share(19200, 11, 10)).toBe(19200);
    // A large amount over a year of milliseconds stays exact.
    expect(share(9_999_999, 365 * DAY - 1, 365 * DAY)).toBe(9_999_999);
    expect(() => share(10.5, 1, 2)).toThrow(RangeError);
    expect(periodEnd(new Date('2026-01-31T10:00:00Z'), 'month')!.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(new Date('2028-02-29T00:00:00Z'), 'year')!.toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(periodEnd(new Date(), 'lifetime')).toBeNull();
  });

  it('credits the unused part and charges the remaining part on an upgrade; a downgrade becomes credit', () => {
    const start = new Date('2026-04-01T00:00:00Z');
    const end = new Date('2026-05-01T00:00:00Z'); // 30 days
    const now = new Date('2026-04-16T00:00:00Z'); // half way
    const up = quote({ now, target: { plan: 'business', planName: 'Business', amount: 2000, interval: 'month' }, current: { planName: 'Pro', amount: 1000, interval: 'month', periodStart: start, periodEnd: end, credit: 0 } });
    expect(up.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['proration_credit', -500],
      ['proration_charge', 1000],
    ]);
    expect(up.total).toBe(500);
    expect(up.periodEnd).toEqual(end);
    const down = quote({ now, target: { plan: 'pro', planName: 'Pro', amount: 1000, interval: 'month' }, current: { planName: 'Business', amount: 2000, interval: 'month', periodStart: start, periodEnd: end, credit: 0 } });
    expect(down.total).toBe(0);
    expect(down.creditAfter).toBe(500);
    expect(down.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
    // The credit is taken off the next purchase; a coupon takes its share of the charges.
    const later = quote({ now, target: { plan: 'business', planName: 'Business', amount: 2000, interval: 'month' }, current: { planName: 'Pro', amount: 1000, interval: 'month', periodStart: start, periodEnd: end, credit: 500 }, couponPercent: 20, coupon: 'SPRING' });
    expect(later.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['proration_credit', -500],
      ['proration_charge', 1000],
      ['coupon', -200],
      ['credit_applied', -300],
    ]);
    expect(later.total).toBe(0);
    expect(later.creditAfter).toBe(200);
    // Another interval starts a new period at the full price.
    const yearly = quote({ now, target: { plan: 'pro', planName: 'Pro', amount: 9600, interval: 'year' }, current: { planName: 'Pro', amount: 1000, interval: 'month', periodStart: start, periodEnd: end, credit: 0 } });
    expect(yearly.total).toBe(9100);
    expect(yearly.periodStart).toEqual(now);
    expect(yearly.periodEnd!.toISOString()).toBe('2027-04-16T00:00:00.000Z');
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });
});

describe('provider configuration', () => {
  it('an unknown PAYMENT_PROVIDER is a configuration error naming the choices', async () => {
    const { paymentProvider } = await import('../../server/billing/payments/registry');
    const before = process.env.PAYMENT_PROVIDER;
    process.env.PAYMENT_PROVIDER = 'nope';
    try {
      expect(() => paymentProvider({} as never)).toThrow(/PAYMENT_PROVIDER must be one of local.*not "nope"/);
    } finally {
      if (before === undefined) delete process.env.PAYMENT_PROVIDER;
      else process.env.PAYMENT_PROVIDER = before;
    }
  });
});

describe('payments', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const addCard = async (token: string, card: Record<string, unknown> = VISA) => api(server.app, 'POST', '/api/payment/methods', { token, body: { card } });

  it('saves a test card without its number, refuses a real one, a bad CVC and an expired card', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Carla Card' });
    const res = await addCard(u.token);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099, provider: 'local' });
    const stored = await server.ctx.db.selectFrom('payment_methods').selectAll().where('user_id', '=', u.user.id).execute();
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');
    const real = await addCard(u.token, { ...VISA, number: '4111 1111 1111 1111' });
    expect(real.statusCode).toBe(402);
    expect(real.json()).toMatchObject({ type: 'incorrect_number', message: Messages.cardTestOnly });
    expect((await addCard(u.token, { ...VISA, cvc: '1' })).statusCode).toBe(422);
    const expired = await addCard(u.token, { ...VISA, exp_year: 2020 });
    expect(expired.json()).toMatchObject({ type: 'expired_card', message: Messages.cardExpired });
    const list = await api(server.app, 'GET', '/api/payment/methods', { token: u.token });
    expect(list.json().data).toHaveLength(1);
    // Someone else cannot delete it; its owner can.
    const other = await createUserWithToken(server.ctx, { name: 'Mallory' });
    const id = res.json().data.id;
    expect((await api(server.app, 'DELETE', `/api/payment/methods/${id}`, { token: other.token })).statusCode).toBe(404);
    expect((await api(server.app, 'DELETE', `/api/payment/methods/${id}`, { token: u.token })).statusCode).toBe(204);
    expect((await api(server.app, 'GET', '/api/payment/methods', { token: u.token })).json().data).toEqual([]);
    expect((await api(server.app, 'GET', '/api/payment/methods')).statusCode).toBe(401);
  });

  it('buys a plan from a trial: the subscription copies the plan’s limits, the invoice is numbered, invoice.paid is in the outbox', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Petra Purchase' });
    expect((await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } })).statusCode).toBe(200);
    const card = (await addCard(u.token)).json().data;
    const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: card.id } });
    expect(res.statusCode).toBe(200);
    const { data: sub, invoice } = res.json();
    expect(sub).toMatchObject({ deal: 'pro', state: 'active', on_trial: false, trial_ends_at: null, ends_at: null });
    expect(sub.limits).toMatchObject({ workspaces: 5, members: 50, proViews: true });
    expect(invoice).toMatchObject({ status: 'paid', total: 1000, subtotal: 1000, currency: 'USD', card: { brand: 'visa', last4: '4242' }, plan: 'pro' });
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    expect(invoice.lines).toEqual([expect.objectContaining({ kind: 'plan', amount: 1000, plan: 'pro' })]);
    const event = await server.ctx.db.selectFrom('domain_events').selectAll().where('type', '=', 'invoice.paid').where('record_id', '=', String(invoice.id)).executeTakeFirstOrThrow();
    expect(event.team_id).toBeNull();
    expect(event.after).toMatchObject({ invoice_id: invoice.id, user_id: u.user.id, subscription_id: sub.id, amount: 1000, currency: 'USD' });
    // The provider's charge.succeeded event went through the job runner and changed nothing more.
    await server.ctx.jobs.drain();
    const events = await server.ctx.db.selectFrom('payment_events').selectAll().execute();
    expect(events.some((e) => e.type === 'charge.succeeded' && e.handled_at !== null)).toBe(true);
    expect(await server.ctx.db.selectFrom('domain_events').select('id').where('type', '=', 'invoice.paid').where('record_id', '=', String(invoice.id)).execute()).toHaveLength(1);
    const list = (await api(server.app, 'GET', '/api/payment/invoices', { token: u.token })).json().data;
    expect(list.map((i: { id: number }) => i.id)).toEqual([invoice.id]);
    // The next invoice: a month later, the plan's price.
    const next = (await api(server.app, 'GET', '/api/payment/user/user/invoices/next', { token: u.token })).json().data;
    expect(next).toMatchObject({ subscription_id: sub.id, amount: 1000, currency: 'USD' });
    expect(new Date(next.date).getTime() - server.ctx.now().getTime()).toBeGreaterThan(27 * DAY);
    expect(next.lines[0]).toMatchObject({ kind: 'plan', amount: 1000 });
    // Buying the same plan and price again is refused.
    const again = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: card.id } });
    expect(again.json()).toMatchObject({ type: 'already_on_plan', message: Messages.alreadyOnPlan });
  });

  it('a declined card and insufficient funds say why and change nothing', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Dora Declined' });
    for (const [number, type, message] of [
      ['4000 0000 0000 0002', 'card_declined', Messages.cardDeclined],
      ['4000000000009995', 'insufficient_funds', Messages.cardInsufficientFunds],
    ] as const) {
      const card = (await addCard(u.token, { ...VISA, number })).json().data;
      const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', price: 'business-year-usd', card_id: card.id } });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({ type, message });
    }
    const sub = (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data[0];
    expect(sub.deal).toBe('free');
    const invoices = (await api(server.app, 'GET', '/api/payment/invoices', { token: u.token })).json().data;
    expect(invoices.map((i: { status: string; number: string | null; failure: { code: string } }) => [i.status, i.number, i.failure.code])).toEqual([
      ['failed', null, 'insufficient_funds'],
      ['failed', null, 'card_declined'],
    ]);
    expect(await server.ctx.db.selectFrom('domain_events').select('id').where('type', '=', 'invoice.paid').where('actor_id', '=', u.user.id).execute()).toEqual([]);
    // No card at all.
    const none = await createUserWithToken(server.ctx, { name: 'Nina Nocard' });
    expect((await api(server.app, 'POST', '/api/subscription', { token: none.token, body: { plan: 'pro' } })).json()).toMatchObject({ type: 'card_required' });
  });

  it('upgrades mid-period with proration, downgrades into credit, and uses the credit next time', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Uma Upgrade' });
    const card = (await addCard(u.token)).json().data;
    const bought = (await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: card.id } })).json();
    const subId = bought.data.id;
    const pay = await server.ctx.db.selectFrom('subscription_payments').selectAll().where('subscription_id', '=', subId).executeTakeFirstOrThrow();
    const whole = new Date(pay.period_end!).getTime() - new Date(pay.period_start).getTime();
    server.advance(10 * DAY);
    try {
      let token = await tokenNow(server, u.user.id);
      const left = new Date(pay.period_end!).getTime() - server.ctx.now().getTime();
      // The quote says what the purchase will charge, and stores nothing.
      const quoted = await api(server.app, 'POST', '/api/payment/quote', { token, body: { plan: 'business', price: 'business-month-usd', subscription_id: subId } });
      expect(quoted.statusCode).toBe(200);
      const invoicesBefore = (await api(server.app, 'GET', '/api/payment/invoices', { token })).json().data.length;
      const up = await api(server.app, 'POST', `/api/subscription/${subId}`, { token, body: { plan: 'business', price: 'business-month-usd' } });
      expect(quoted.json().data).toMatchObject({ subscription_id: subId, total: up.json().invoice.total, lines: up.json().invoice.lines });
      expect((await api(server.app, 'GET', '/api/payment/invoices', { token })).json().data.length).toBe(invoicesBefore + 1);
      expect(up.statusCode).toBe(200);
      const credit = Math.round((1000 * left) / whole);
      const charge = Math.round((2000 * left) / whole);
      expect(up.json().invoice.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
        ['proration_credit', -credit],
        ['proration_charge', charge],
      ]);
      expect(up.json().invoice.total).toBe(charge - credit);
      expect(up.json().data).toMatchObject({ deal: 'business', limits: { workspaces: 20, members: 500 } });
      // Business is not upgradable; moving to the lifetime deal (a higher tier of Pro's level) from Business is a downgrade by level.
      server.advance(5 * DAY);
      token = await tokenNow(server, u.user.id);
      const left2 = new Date(pay.period_end!).getTime() - server.ctx.now().getTime();
      const down = await api(server.app, 'POST', `/api/subscription/${subId}`, { token, body: { plan: 'pro', price: 'pro-month-usd' } });
      expect(down.statusCode).toBe(200);
      const expectCredit = Math.round((2000 * left2) / whole) - Math.round((1000 * left2) / whole);
      expect(down.json().invoice).toMatchObject({ total: 0 });
      expect(down.json().invoice.lines.at(-1)).toMatchObject({ kind: 'credit_carried', amount: expectCredit });
      expect(down.json().data.deal).toBe('pro');
      const next = (await api(server.app, 'GET', '/api/payment/user/user/invoices/next', { token })).json().data;
      expect(next.amount).toBe(Math.max(0, 1000 - expectCredit));
      expect(next.lines.at(-1)).toMatchObject({ kind: 'credit_applied' });
      // A different currency is refused on a running subscription.
      const eur = await api(server.app, 'POST', `/api/subscription/${subId}`, { token, body: { plan: 'business', price: 'business-month-eur' } });
      expect(eur.json()).toMatchObject({ message: Messages.currencyFixed });
    } finally {
      server.advance(-15 * DAY);
    }
  });

  it('follows the upgrade rules: a lifetime deal cannot change; archived and unknown plans are refused', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Lars Lifetime' });
    const card = (await addCard(u.token)).json().data;
    const ltd = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'ltd', card_id: card.id } });
    expect(ltd.statusCode).toBe(200);
    expect(ltd.json().invoice.lines[0]).toMatchObject({ kind: 'plan', amount: 29900, to: null });
    const up = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', card_id: card.id } });
    expect(up.json()).toMatchObject({ type: 'plan_not_upgradable', message: Messages.planNotUpgradable });
    const quoteRefused = await api(server.app, 'POST', '/api/payment/quote', { token: u.token, body: { plan: 'business' } });
    expect(quoteRefused.json()).toMatchObject({ type: 'plan_not_upgradable' });
    const otherSub = await api(server.app, 'POST', '/api/payment/quote', { token: u.token, body: { plan: 'pro', subscription_id: 999999 } });
    expect(otherSub.statusCode).toBe(422);
    expect((await api(server.app, 'GET', '/api/payment/user/user/invoices/next', { token: u.token })).json().data).toBeNull();
    expect((await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'nope', card_id: card.id } })).json()).toMatchObject({ type: 'plan_not_found', message: Messages.planNotFound });
    const pro = planAsInput((await getPlan(server.ctx.db, 'pro'))!);
    await savePlan(server.ctx.db, { ...pro, id: 'old-pro', archived: true, prices: [{ id: 'old-pro-month-usd', interval: 'month', currency: 'USD', amount: 500 }] });
    expect((await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'old-pro', card_id: card.id } })).json()).toMatchObject({ type: 'plan_unavailable', message: Messages.planNoLongerAvailable });
    expect((await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'free', card_id: card.id } })).json()).toMatchObject({ type: 'validation', message: Messages.buyFreePlan });
  });

  it('takes a coupon once', async () => {
    await server.ctx.db.insertInto('coupons').values({ code: 'HALF', percent_off: 50 }).execute();
    const u = await createUserWithToken(server.ctx, { name: 'Cora Coupon' });
    const card = (await addCard(u.token)).json().data;
    const bad = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', card_id: card.id, coupon: 'NOPE' } });
    expect(bad.json()).toMatchObject({ type: 'coupon_invalid', message: Messages.couponInvalid });
    const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-year-usd', card_id: card.id, coupon: 'half' } });
    expect(res.json().invoice).toMatchObject({ subtotal: 9600, discount: 4800, total: 4800 });
    const again = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', price: 'business-year-usd', card_id: card.id, coupon: 'HALF' } });
    expect(again.json()).toMatchObject({ type: 'coupon_used', message: Messages.couponUsed });
  });

  it('serves an invoice PDF to its owner only', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Pia Pdf' });
    const bought = (await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', token: 'tok_visa' } })).json();
    const pdf = await api(server.app, 'GET', `/api/payment/invoices/${bought.invoice.id}/pdf`, { token: u.token });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
    // In the reader's language, right to left and CJK included (the export's fonts).
    for (const locale of ['ar', 'zh']) {
      await server.ctx.db.updateTable('users').set({ locale }).where('id', '=', u.user.id).execute();
      const localized = await api(server.app, 'GET', `/api/payment/invoices/${bought.invoice.id}/pdf`, { token: u.token });
      expect(localized.statusCode).toBe(200);
      expect(localized.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    const other = await createUserWithToken(server.ctx, { name: 'Mallory' });
    expect((await api(server.app, 'GET', `/api/payment/invoices/${bought.invoice.id}/pdf`, { token: other.token })).statusCode).toBe(404);
    expect((await api(server.app, 'GET', '/api/payment/invoices', { token: other.token })).json().data).toEqual([]);
    // Another person's subscription cannot be bought on.
    const theirs = await api(server.app, 'POST', `/api/subscription/${bought.data.id}`, { token: other.token, body: { plan: 'business', token: 'tok_visa' } });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().message).toContain('must be a subscription you own');
    const sub = await server.ctx.db.selectFrom('subscriptions').select('deal').where('id', '=', bought.data.id).executeTakeFirstOrThrow();
    expect(sub.deal).toBe('pro');
  });

  describe('renewals at the period’s end', () => {
    const buyMonthly = async (name: string, card = VISA) => {
      const u = await createUserWithToken(server.ctx, { name });
      const method = (await addCard(u.token, card)).json().data;
      const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', price: 'pro-month-usd', card_id: method.id } });
      expect(res.statusCode).toBe(200);
      const pay = await server.ctx.db.selectFrom('subscription_payments').selectAll().where('subscription_id', '=', res.json().data.id).executeTakeFirstOrThrow();
      return { u, subId: res.json().data.id as number, periodEnd: new Date(pay.period_end!), method };
    };
    const moveTo = (date: Date) => server.advance(date.getTime() - server.ctx.now().getTime() + 60_000);

    it('charges the next period, numbers the invoice, schedules the one after; a cancelled one is not renewed', async () => {
      const start = server.ctx.now();
      const a = await buyMonthly('Rita Renew');
      const b = await buyMonthly('Carl Cancel');
      const cancelled = await api(server.app, 'POST', `/api/subscription/${b.subId}/cancel`, { token: b.u.token, body: { reasons: ['too_expensive'] } });
      expect(cancelled.statusCode).toBe(200);
      try {
        moveTo(a.periodEnd);
        await server.ctx.jobs.drain();
        const invoices = await server.ctx.db.selectFrom('invoices').selectAll().where('subscription_id', '=', a.subId).orderBy('id').execute();
        expect(invoices.map((i) => [i.status, i.total])).toEqual([
          ['paid', 1000],
          ['paid', 1000],
        ]);
        expect(invoices[1]!.number).toMatch(/^INV-\d{6}$/);
        const pay = await server.ctx.db.selectFrom('subscription_payments').selectAll().where('subscription_id', '=', a.subId).executeTakeFirstOrThrow();
        expect(new Date(pay.period_start).getTime()).toBe(a.periodEnd.getTime());
        expect(new Date(pay.period_end!).getTime()).toBeGreaterThan(a.periodEnd.getTime() + 27 * DAY);
        const token = await tokenNow(server, a.u.user.id);
        expect((await api(server.app, 'GET', '/api/subscription/all', { token })).json().data[0]).toMatchObject({ deal: 'pro', state: 'active' });
        // Two invoice.paid events: the purchase and the renewal.
        expect(await server.ctx.db.selectFrom('domain_events').select('id').where('type', '=', 'invoice.paid').where('actor_id', '=', a.u.user.id).execute()).toHaveLength(2);
        // The cancelled one ran to its end and was not charged again.
        expect(await server.ctx.db.selectFrom('invoices').select('id').where('subscription_id', '=', b.subId).execute()).toHaveLength(1);
        const bToken = await tokenNow(server, b.u.user.id);
        expect((await api(server.app, 'GET', '/api/subscription/all', { token: bToken })).json().data[0].state).toBe('expired');
      } finally {
        server.advance(start.getTime() - server.ctx.now().getTime());
      }
    });

    it('takes a waiting free month off the renewal, and a card declined at renewal ends the plan', async () => {
      const start = server.ctx.now();
      const a = await buyMonthly('Fred Freemonth');
      const offer = await api(server.app, 'POST', `/api/subscription/${a.subId}/cancellation-coupon`, { token: a.u.token, body: { offer: 'free_month' } });
      expect(offer.statusCode).toBe(200);
      const next = (await api(server.app, 'GET', '/api/payment/user/user/invoices/next', { token: a.u.token })).json().data;
      expect(next.amount).toBe(0);
      expect(next.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
        ['plan', 1000],
        ['coupon', -1000],
      ]);
      // A card the provider accepts when saved and refuses when charged.
      const d = await buyMonthly('Dan Declined');
      const bad = (await addCard(d.u.token, { ...VISA, number: '4000 0000 0000 9995' })).json().data;
      await server.ctx.db.updateTable('subscription_payments').set({ payment_method_id: bad.id }).where('subscription_id', '=', d.subId).execute();
      try {
        moveTo(new Date(Math.max(a.periodEnd.getTime(), d.periodEnd.getTime())));
        await server.ctx.jobs.drain();
        const renewed = await server.ctx.db.selectFrom('invoices').selectAll().where('subscription_id', '=', a.subId).orderBy('id', 'desc').executeTakeFirstOrThrow();
        expect(renewed).toMatchObject({ status: 'paid', total: 0, discount: 1000 });
        const coupon = await server.ctx.db.selectFrom('cancellation_coupons').selectAll().where('subscription_id', '=', a.subId).executeTakeFirstOrThrow();
        expect(coupon.consumed_at).not.toBeNull();
        const failed = await server.ctx.db.selectFrom('invoices').selectAll().where('subscription_id', '=', d.subId).orderBy('id', 'desc').executeTakeFirstOrThrow();
        expect(failed).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds', number: null });
        const token = await tokenNow(server, d.u.user.id);
        expect((await api(server.app, 'GET', '/api/subscription/all', { token })).json().data[0]).toMatchObject({ deal: 'pro', state: 'expired' });
      } finally {
        server.advance(start.getTime() - server.ctx.now().getTime());
      }
    });
  });

  it('a paid invoice credits the referrer 20 % through the invoice.paid event (the referral consumer)', async () => {
    const referrer = await createUserWithToken(server.ctx, { name: 'Rhea Referrer' });
    const u = await createUserWithToken(server.ctx, { name: 'Ivo Invited' });
    await server.ctx.db.insertInto('referrals').values({ user_id: u.user.id, referrer_id: referrer.user.id, code: 'rhea', created_at: server.ctx.now() }).execute();
    const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', price: 'business-year-usd', token: 'tok_visa' } });
    expect(res.statusCode).toBe(200);
    await server.ctx.jobs.drain();
    const credits = await server.ctx.db.selectFrom('referral_credits').selectAll().where('referrer_id', '=', referrer.user.id).execute();
    expect(credits.map((c) => [String(c.invoice_id), Number(c.amount), c.currency])).toEqual([[String(res.json().invoice.id), 3840, 'USD']]);
  });

  it('app-vars names the provider’s public key', async () => {
    expect((await api(server.app, 'GET', '/api/app-vars')).json().paymentProviderKey).toBe('local');
  });
});

describe('coupons CLI', () => {
  it('creates, lists and disables coupons of an embedded database, and refuses bad input', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { runCouponCli } = await import('../../server/billing/payments/coupon-cli');
    const { openDatabase } = await import('../../server/db/index');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-coupons-'));
    // The first and the last command open the embedded database in DATA_DIR as the CLI does (the
    // first migrates a new cluster); those between share one open database: each boot of the
    // embedded PostgreSQL costs seconds of CPU, and five of them took past 120 s in a CI run.
    let shared: Awaited<ReturnType<typeof openDatabase>> | undefined;
    const run = async (...argv: string[]) => {
      const lines: string[] = [];
      noteInput('coupons command', argv.join(' '));
      const code = await waitingFor(`coupons ${argv.join(' ')}${shared ? '' : ' (opens the embedded database and migrates it)'}`, runCouponCli(argv, { DATA_DIR: dir }, (line) => lines.push(line), shared));
      return { code, text: lines.join('\n') };
    };
    try {
      expect(await run('create', 'spring', '25')).toEqual({ code: 0, text: 'created coupon SPRING: 25 % off once' });
      shared = await waitingFor('the embedded database to open', openDatabase({ databaseUrl: null, dataDir: dir }));
      expect((await run('create', 'SPRING', '30')).code).toBe(1);
      expect(await run('create', 'X', '25')).toMatchObject({ code: 1 });
      expect(await run('create', 'AUTUMN', '0')).toEqual({ code: 1, text: 'percent: must be a whole number from 1 to 100' });
      expect(await run('disable', 'spring')).toEqual({ code: 0, text: 'disabled coupon SPRING' });
      expect((await run('disable', 'NOPE')).code).toBe(1);
      await shared.close();
      shared = undefined;
      // Opened afresh from DATA_DIR: the edits are on disk.
      expect((await run('list')).text).toBe('SPRING\t25 % off once\tdisabled\tused 0');
      expect((await run('frobnicate')).code).toBe(2);
    } finally {
      await shared?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, HEAVY_TEST_TIMEOUT_MS);
});
