import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { Messages } from '../../schema/messages';
import { generateLtdCodes, normaliseLtdCode } from '../../server/billing/ltd';
import { runLtdCli } from '../../server/billing/ltd-cli';
import { currentPeriodEnd, pendingCancellationCoupon } from '../../server/billing/cancellation';
import { issueTokens } from '../../server/auth/tokens';

/**
 * Lifetime deals, add-ons, cancellation and retention offers (issue #18, decision 0255), on PGlite
 * and PostgreSQL, every state change on the server's injected clock.
 */

const DAY = 24 * 60 * 60 * 1000;

describe('lifetime deals, add-ons, cancellation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const tokenNow = async (userId: number) => (await issueTokens(server.ctx.db, userId, server.ctx.now())).access_token;
  const subs = async (token: string) => (await api(server.app, 'GET', '/api/subscription/all', { token })).json().data as any[];

  /** A user whose free subscription has become a lifetime deal. */
  async function ltdUser(name: string) {
    const u = await createUserWithToken(server.ctx, { name });
    const [code] = await generateLtdCodes(server.ctx.db, 1, { now: server.ctx.now() });
    const res = await api(server.app, 'POST', `/api/ltd-codes/${code}/redeem`, { token: u.token });
    expect(res.statusCode).toBe(200);
    return { ...u, sub: res.json().data };
  }

  describe('lifetime-deal codes', () => {
    it('redeems a code once: the subscription moves onto the ltd plan for good; used and unknown codes are refused clearly', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Lena Lifetime' });
      const codes = await generateLtdCodes(server.ctx.db, 2, { now: server.ctx.now(), note: 'batch 1' });
      expect(codes[0]).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
      expect(new Set(codes).size).toBe(2);

      // Anyone may ask whether a code is unused (the screen shows it before sign-in).
      const peek = await api(server.app, 'GET', `/api/ltd-codes/${codes[0].toLowerCase()}`);
      expect(peek.statusCode).toBe(200);
      expect(peek.json().data).toMatchObject({ code: codes[0], plan: 'ltd', plan_name: 'Lifetime deal', redeemed: false });

      // Anonymous callers cannot redeem.
      expect((await api(server.app, 'POST', `/api/ltd-codes/${codes[0]}/redeem`)).statusCode).toBe(401);

      const before = (await subs(u.token))[0];
      expect(before.deal).toBe('free');
      const res = await api(server.app, 'POST', `/api/ltd-codes/${codes[0]}/redeem`, { token: u.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: before.id, deal: 'ltd', state: 'active', ends_at: null, trial_ends_at: null });
      expect(res.json().data.limits).toMatchObject({ workspaces: 3, members: 25, storage: 50, WhitelabelLimit: 1 });

      const used = await api(server.app, 'POST', `/api/ltd-codes/${codes[0]}/redeem`, { token: u.token });
      expect(used.statusCode).toBe(422);
      expect(used.json()).toMatchObject({ type: 'ltd_code_used', message: Messages.ltdCodeUsed });
      expect((await api(server.app, 'GET', `/api/ltd-codes/${codes[0]}`, { token: u.token })).json().data).toMatchObject({ redeemed: true, redeemed_by_you: true, subscription_id: before.id });

      const unknown = await api(server.app, 'POST', '/api/ltd-codes/NOPE-NOPE-NOPE-NOPE/redeem', { token: u.token });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ type: 'ltd_code_unknown', message: Messages.ltdCodeUnknown });

      // A second code stacks: every subscription is bought, so it makes a new lifetime subscription.
      const second = await api(server.app, 'POST', `/api/ltd-codes/${codes[1]}/redeem`, { token: u.token });
      expect(second.statusCode).toBe(200);
      expect(second.json().data.id).not.toBe(before.id);
      expect((await subs(u.token)).map((s) => s.deal)).toEqual(['ltd', 'ltd']);

      // Months later it is still active: a lifetime deal has no end.
      server.advance(400 * DAY);
      try {
        const later = (await subs(await tokenNow(u.user.id)))[0];
        expect(later).toMatchObject({ deal: 'ltd', state: 'active', active: true });
      } finally {
        server.advance(-400 * DAY);
      }
    });

    it('moves a trial onto the lifetime plan (the trial ends), and two redemptions of one code at once give one winner', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Tom Trial-then-LTD' });
      await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } });
      const [code] = await generateLtdCodes(server.ctx.db, 1, { now: server.ctx.now() });
      const other = await createUserWithToken(server.ctx, { name: 'Rita Racer' });
      const [a, b] = await Promise.all([
        api(server.app, 'POST', `/api/ltd-codes/${code}/redeem`, { token: u.token }),
        api(server.app, 'POST', `/api/ltd-codes/${code}/redeem`, { token: other.token }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
      const winner = a.statusCode === 200 ? u : other;
      expect((await subs(winner.token))[0]).toMatchObject({ deal: 'ltd', state: 'active', trial_ends_at: null });
      expect(normaliseLtdCode(` ${code.toLowerCase()} `)).toBe(code);
    });

    it('the CLI generates and lists codes', async () => {
      const run = async (...argv: string[]) => {
        const lines: string[] = [];
        // The test server's database (the CLI opens DATABASE_URL / DATA_DIR otherwise).
        const code = await runLtdCli(argv, {}, (line) => lines.push(line), { now: () => server.ctx.now(), open: async () => ({ db: server.ctx.db, close: async () => undefined }) });
        return { code, lines };
      };
      expect(await run('generate', '0')).toEqual({ code: 2, lines: ['count must be a whole number from 1 to 10000'] });
      expect((await run('nonsense')).code).toBe(2);
      expect(await run('generate', '2', '--plan', 'nope')).toEqual({ code: 1, lines: ['no plan nope'] });
      const made = await run('generate', '3', '--note', 'reseller batch');
      expect(made.code).toBe(0);
      expect(made.lines).toHaveLength(3);
      const listed = (await run('list', '--unused')).lines.filter((line) => line.includes('reseller batch'));
      expect(listed.map((line) => line.split('\t')[0]).sort()).toEqual([...made.lines].sort());
      expect(listed[0]).toMatch(/^[A-Z2-9-]{19}\tltd\treseller batch\t.*\tunused$/);
      // Redeemed codes leave the unused list and say by whom.
      const u = await createUserWithToken(server.ctx, { name: 'Cleo CLI' });
      await api(server.app, 'POST', `/api/ltd-codes/${made.lines[0]}/redeem`, { token: u.token });
      expect((await run('list', '--unused')).lines.join('\n')).not.toContain(made.lines[0]);
      expect((await run('list')).lines.find((line) => line.startsWith(made.lines[0]))).toMatch(new RegExp(`redeemed .* by user ${u.user.id} onto subscription \\d+$`));
    });
  });

  describe('add-ons', () => {
    it('lists, buys, replaces and deletes add-ons; each changes the effective limits', async () => {
      const u = await ltdUser('Adam Addon');
      const id = u.sub.id;
      // Add-ons are charged through the payment provider (the local one here): a card is needed first.
      const noCard = await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: u.token, body: { addon: 'storage-50' } });
      expect(noCard.statusCode).toBe(422);
      expect(noCard.json()).toMatchObject({ type: 'card_required', message: Messages.cardRequired });
      const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };
      expect((await api(server.app, 'POST', '/api/payment/methods', { token: u.token, body: { card } })).statusCode).toBeLessThan(300);
      let list = (await api(server.app, 'GET', `/api/subscriptions/${id}/add-ons`, { token: u.token })).json();
      expect(list).toMatchObject({ data: [], eligible: true });
      expect(list.available.map((a: any) => a.id)).toContain('storage-50');

      const bought = await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: u.token, body: { addon: 'storage-50' } });
      expect(bought.statusCode).toBe(200);
      const addon = bought.json().data;
      expect(addon).toMatchObject({ ltd_id: id, old_addon_id: null, addon: 'storage-50', amount: 2900, currency: 'USD', payment_status: 'paid' });
      await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: u.token, body: { addon: 'workspaces-1' } });
      let sub = (await subs(u.token))[0];
      expect(sub.limits).toMatchObject({ storage: 100, workspaces: 4, members: 25 });

      // Replace storage-50 with storage-200: the old one ends, the new one names it, the charge is the difference.
      const replaced = await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons/${addon.id}`, { token: u.token, body: { addon: 'storage-200' } });
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json().data).toMatchObject({ addon: 'storage-200', old_addon_id: addon.id, amount: 7900 - 2900 });
      sub = (await subs(u.token))[0];
      expect(sub.limits).toMatchObject({ storage: 250, workspaces: 4 });
      list = (await api(server.app, 'GET', `/api/subscriptions/${id}/add-ons`, { token: u.token })).json();
      expect(list.data.map((a: any) => a.addon).sort()).toEqual(['storage-200', 'workspaces-1']);
      // The replaced one cannot be replaced again.
      expect((await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons/${addon.id}`, { token: u.token, body: { addon: 'storage-200' } })).statusCode).toBe(422);

      // The extra workspace is usable: four workspaces fit, a fifth does not.
      for (const name of ['W1', 'W2', 'W3', 'W4']) expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name } })).statusCode).toBe(201);
      expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'W5' } })).statusCode).toBe(403);

      const ws = list.data.find((a: any) => a.addon === 'workspaces-1');
      const del = await api(server.app, 'DELETE', `/api/subscriptions/${id}/add-ons/${ws.id}`, { token: u.token });
      expect(del.statusCode).toBe(204);
      expect((await subs(u.token))[0].limits).toMatchObject({ workspaces: 3, storage: 250 });
      expect((await api(server.app, 'DELETE', `/api/subscriptions/${id}/add-ons/${ws.id}`, { token: u.token })).statusCode).toBe(404);

      // Bad input and someone else's subscription.
      const unknown = await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: u.token, body: { addon: 'rocket' } });
      expect(unknown.json()).toMatchObject({ type: 'addon_unknown', message: Messages.addonUnknown });
      expect((await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: u.token, body: {} })).statusCode).toBe(422);
      const other = await createUserWithToken(server.ctx, { name: 'Olga Other' });
      expect((await api(server.app, 'POST', `/api/subscriptions/${id}/add-ons`, { token: other.token, body: { addon: 'storage-50' } })).statusCode).toBe(422);
      expect((await api(server.app, 'GET', `/api/subscriptions/${id}/add-ons`, { token: other.token })).statusCode).toBe(422);
      expect((await api(server.app, 'GET', `/api/subscriptions/${id}/add-ons`)).statusCode).toBe(401);
    });

    it('a declined card buys nothing', async () => {
      const u = await ltdUser('Dora Declined');
      const card = { number: '4000 0000 0000 9995', exp_month: 12, exp_year: 2099, cvc: '123' };
      expect((await api(server.app, 'POST', '/api/payment/methods', { token: u.token, body: { card } })).statusCode).toBeLessThan(300);
      const res = await api(server.app, 'POST', `/api/subscriptions/${u.sub.id}/add-ons`, { token: u.token, body: { addon: 'members-10' } });
      expect(res.statusCode).toBe(402);
      expect(res.json().type).toBe('insufficient_funds');
      expect((await api(server.app, 'GET', `/api/subscriptions/${u.sub.id}/add-ons`, { token: u.token })).json().data).toEqual([]);
      expect((await subs(u.token))[0].limits.members).toBe(25);
    });

    it('refuses add-ons on a subscription that is not a lifetime deal', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Fred Free' });
      const sub = (await subs(u.token))[0];
      const list = (await api(server.app, 'GET', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token })).json();
      expect(list).toEqual({ data: [], available: [], eligible: false });
      const res = await api(server.app, 'POST', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token, body: { addon: 'storage-50' } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ type: 'addons_not_allowed', message: Messages.addonsNotAllowed });
      await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } });
      expect((await api(server.app, 'POST', `/api/subscriptions/${sub.id}/add-ons`, { token: u.token, body: { addon: 'storage-50' } })).json().type).toBe('addons_not_allowed');
    });
  });

  describe('cancellation and retention offers', () => {
    /** A subscription on a running paid plan (the payments part sells them; here the row is set directly). */
    async function paidUser(name: string) {
      const u = await createUserWithToken(server.ctx, { name });
      const sub = (await subs(u.token))[0];
      await server.ctx.db.updateTable('subscriptions').set({ deal: 'pro', limits: JSON.stringify({ workspaces: 5, members: 50, storage: 100, AutomationRunsLimit: 25000, WhitelabelLimit: 0, proViews: true }), created_at: server.ctx.now() }).where('id', '=', sub.id).execute();
      return { ...u, id: sub.id as number };
    }

    it('cancel needs a reason; a paid plan runs to the end of its period, then is expired with the free plan’s limits', async () => {
      const u = await paidUser('Carl Cancel');
      const none = await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: [] } });
      expect(none.statusCode).toBe(422);
      expect(none.json().data).toEqual([`reasons: ${Messages.cancelReasonRequired}`]);
      expect((await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: ['bored'] } })).statusCode).toBe(422);

      const view = (await api(server.app, 'GET', `/api/subscription/${u.id}/cancellation`, { token: u.token })).json().data;
      expect(view).toMatchObject({ can_cancel: true, cancellation: null, offers: ['free_month', 'year_discount'], coupon_used: false, money_back_days: 14 });

      server.advance(10 * DAY);
      try {
        u.token = await tokenNow(u.user.id);
        const res = await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: ['too_expensive', 'other'], comment: 'Too dear' } });
        expect(res.statusCode).toBe(200);
        const sub = res.json().data;
        expect(sub).toMatchObject({ state: 'cancelled', active: true, deal: 'pro' });
        // It ends a month after it started (the end of the current period), not now.
        const end = new Date(sub.ends_at).getTime();
        expect(end - (server.ctx.now().getTime() - 10 * DAY)).toBeGreaterThanOrEqual(28 * DAY);
        expect(sub.limits).toMatchObject({ workspaces: 5 });
        expect((await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: ['other'] } })).json().type).toBe('already_cancelled');
        const after = (await api(server.app, 'GET', `/api/subscription/${u.id}/cancellation`, { token: u.token })).json().data;
        expect(after).toMatchObject({ can_cancel: false, cancellation: { reasons: ['too_expensive', 'other'], comment: 'Too dear' } });

        // Past the end: expired, the free plan's limits, no new workspace.
        server.advance(end - server.ctx.now().getTime() + 1000);
        u.token = await tokenNow(u.user.id);
        const expired = (await subs(u.token))[0];
        expect(expired).toMatchObject({ state: 'expired', active: false });
        expect(expired.limits).toMatchObject({ workspaces: 1, proViews: false });
        expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'Late' } })).statusCode).toBe(403);
        expect((await api(server.app, 'POST', `/api/subscription/${u.id}/resume`, { token: u.token })).statusCode).toBe(422);
      } finally {
        server.advance(-(server.ctx.now().getTime() - Date.now()));
      }
    });

    it('resume before the end takes the end date away', async () => {
      const u = await paidUser('Rosa Resume');
      await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: ['not_using'] } });
      const res = await api(server.app, 'POST', `/api/subscription/${u.id}/resume`, { token: u.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ state: 'active', ends_at: null });
    });

    it('a retention offer is taken once per user: a free month withdraws the cancellation and waits for the next invoice', async () => {
      const u = await paidUser('Olive Offer');
      await api(server.app, 'POST', `/api/subscription/${u.id}/cancel`, { token: u.token, body: { reasons: ['too_expensive'] } });
      const wrong = await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'trial_days' } });
      expect(wrong.json()).toMatchObject({ type: 'offer_not_applicable', message: Messages.cancelOfferNotApplicable });
      expect((await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'nothing' } })).statusCode).toBe(422);

      const res = await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'free_month' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ state: 'active', ends_at: null });
      expect(await pendingCancellationCoupon(server.ctx.db, u.id)).toMatchObject({ offer: 'free_month', free_months: 1, percent_off: 0, consumed_at: null });
      const me = (await api(server.app, 'GET', '/api/me', { token: u.token })).json();
      expect(me.preferences.usedCancelCoupon).toBe(true);

      const again = await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'year_discount' } });
      expect(again.statusCode).toBe(422);
      expect(again.json()).toMatchObject({ type: 'cancel_coupon_used', message: Messages.cancelCouponUsed });
      // Clearing the preference does not give a second one: the server's record decides.
      await api(server.app, 'PUT', '/api/me', { token: u.token, body: { preferences: { usedCancelCoupon: false } } });
      expect((await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'year_discount' } })).json().type).toBe('cancel_coupon_used');
      expect((await api(server.app, 'GET', `/api/subscription/${u.id}/cancellation`, { token: u.token })).json().data).toMatchObject({ offers: [], coupon_used: true, coupon: { offer: 'free_month', free_months: 1 } });
    });

    it('20 % off the next year is stored for the next invoice', async () => {
      const u = await paidUser('Yara Year');
      const res = await api(server.app, 'POST', `/api/subscription/${u.id}/cancellation-coupon`, { token: u.token, body: { offer: 'year_discount' } });
      expect(res.statusCode).toBe(200);
      expect(await pendingCancellationCoupon(server.ctx.db, u.id)).toMatchObject({ offer: 'year_discount', percent_off: 20 });
    });

    it('on a trial: cancel runs to the trial’s end; 30 more trial days extend it, also after it expired', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Tess Trial' });
      const started = (await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } })).json().data;
      const cancel = await api(server.app, 'POST', `/api/subscription/${started.id}/cancel`, { token: u.token, body: { reasons: ['missing_features'] } });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().data).toMatchObject({ state: 'trial', ends_at: started.ends_at });
      expect((await api(server.app, 'GET', `/api/subscription/${started.id}/cancellation`, { token: u.token })).json().data).toMatchObject({ offers: ['trial_days'], can_cancel: false });

      server.advance(15 * DAY);
      try {
        u.token = await tokenNow(u.user.id);
        expect((await subs(u.token))[0].state).toBe('trial_expired');
        const res = await api(server.app, 'POST', `/api/subscription/${started.id}/cancellation-coupon`, { token: u.token, body: { offer: 'trial_days' } });
        expect(res.statusCode).toBe(200);
        const sub = res.json().data;
        expect(sub.state).toBe('trial');
        // From now (the trial had ended), 30 days.
        const left = new Date(sub.trial_ends_at).getTime() - server.ctx.now().getTime();
        expect(left).toBeGreaterThan(30 * DAY - 60_000);
        expect(left).toBeLessThanOrEqual(30 * DAY);
        expect(sub.limits).toMatchObject({ workspaces: 5 });
        // The cancellation is withdrawn; the once-only trial extension is still there.
        expect((await api(server.app, 'GET', `/api/subscription/${started.id}/cancellation`, { token: u.token })).json().data).toMatchObject({ cancellation: null, coupon_used: true });
        expect(sub.trial.can_extend).toBe(true);
      } finally {
        server.advance(-15 * DAY);
      }
    });

    it('the free plan and a lifetime deal have nothing to cancel', async () => {
      const free = await createUserWithToken(server.ctx, { name: 'Nina Nothing' });
      const sub = (await subs(free.token))[0];
      expect((await api(server.app, 'POST', `/api/subscription/${sub.id}/cancel`, { token: free.token, body: { reasons: ['other'] } })).json()).toMatchObject({ type: 'nothing_to_cancel' });
      const ltd = await ltdUser('Lars Lifetime');
      expect((await api(server.app, 'POST', `/api/subscription/${ltd.sub.id}/cancel`, { token: ltd.token, body: { reasons: ['other'] } })).json().type).toBe('nothing_to_cancel');
      expect((await api(server.app, 'POST', `/api/subscription/${sub.id}/cancel`, { token: ltd.token, body: { reasons: ['other'] } })).statusCode).toBe(422);
    });

    it('the period end is the next monthly anniversary', () => {
      const start = new Date('2026-01-31T10:00:00Z');
      expect(currentPeriodEnd({ created_at: start }, new Date('2026-02-01T00:00:00Z')).toISOString()).toBe('2026-03-03T10:00:00.000Z');
      expect(currentPeriodEnd({ created_at: start }, new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-03-03T10:00:00.000Z');
      expect(currentPeriodEnd({ created_at: new Date('2026-05-10T00:00:00Z') }, new Date('2026-07-01T00:00:00Z')).toISOString()).toBe('2026-07-10T00:00:00.000Z');
    });
  });
});
