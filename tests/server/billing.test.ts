import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { noteInput, waitingFor } from '../helpers/trail';
import { Messages } from '../../schema/messages';
import { effectiveLimits, subscriptionState } from '../../server/billing/subscriptions';
import { getPlan, planAsInput, savePlan } from '../../server/billing/plans';
import { issueTokens } from '../../server/auth/tokens';

/** Plans, subscription states and trials (issue #18 parts 1–3, decision 0240), on PGlite and PostgreSQL. */

const DAY = 24 * 60 * 60 * 1000;

/** A token valid at the server's (moved) clock: access tokens live shorter than a trial. */
async function tokenNow(server: TestServer, userId: number) {
  return (await issueTokens(server.ctx.db, userId, server.ctx.now())).access_token;
}

describe('billing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  describe('GET /api/plans', () => {
    it('answers the seeded catalogue publicly, with prices as a list and every limit named', async () => {
      const res = await api(server.app, 'GET', '/api/plans');
      expect(res.statusCode).toBe(200);
      const plans = res.json().data as any[];
      expect(plans.map((p) => p.id)).toEqual(['free', 'pro', 'business', 'ltd']);
      const pro = plans.find((p) => p.id === 'pro');
      expect(pro).toMatchObject({ version: 8, level: 1, tier: 0, isUpgradable: true });
      expect(pro.prices).toContainEqual({ id: 'pro-month-usd', interval: 'month', currency: 'USD', amount: 1000 });
      expect(Object.keys(pro.limits).sort()).toEqual(['AutomationRunsLimit', 'WhitelabelLimit', 'members', 'proViews', 'storage', 'workspaces']);
      // Business is the top of version 8 and is not upgradable; free is.
      expect(plans.find((p) => p.id === 'business').isUpgradable).toBe(false);
      expect(plans.find((p) => p.id === 'free').isUpgradable).toBe(true);
      expect(plans.find((p) => p.id === 'ltd').prices).toEqual([{ id: 'ltd-lifetime-usd', interval: 'lifetime', currency: 'USD', amount: 29900 }]);
    });

    it('reflects a catalogue edit, hides an archived plan, and refuses a bad plan with every problem', async () => {
      const pro = planAsInput((await getPlan(server.ctx.db, 'pro'))!);
      await savePlan(server.ctx.db, { ...pro, id: 'team', name: 'Team', level: 3, position: 5, prices: [{ id: 'team-month-usd', interval: 'month', currency: 'USD', amount: 4000 }] });
      let plans = (await api(server.app, 'GET', '/api/plans')).json().data as any[];
      expect(plans.at(-1)).toMatchObject({ id: 'team', level: 3, isUpgradable: false });
      // Business is upgradable in the catalogue's terms only while the flag says so: still false.
      expect(plans.find((p) => p.id === 'pro').isUpgradable).toBe(true);
      await savePlan(server.ctx.db, { ...pro, id: 'team', name: 'Team', level: 3, position: 5, archived: true, prices: [] });
      plans = (await api(server.app, 'GET', '/api/plans')).json().data as any[];
      expect(plans.map((p) => p.id)).not.toContain('team');
      await expect(savePlan(server.ctx.db, { ...pro, prices: [{ id: 'x', interval: 'week' as never, currency: 'usd', amount: -1 }] })).rejects.toThrow(/currency|interval|amount/);
    });
  });

  describe('trials', () => {
    it('starts a 14-day trial on the caller’s free subscription, with the plan’s limits', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Tina Trial' });
      const before = (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data[0];
      expect(before).toMatchObject({ deal: 'free', state: 'active', trial: null, trial_eligible: true });
      const res = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } });
      expect(res.statusCode).toBe(200);
      const sub = res.json().data;
      expect(sub).toMatchObject({ deal: 'pro', state: 'trial', on_trial: true, active: true, trial_eligible: false });
      expect(new Date(sub.trial_ends_at).getTime() - server.ctx.now().getTime()).toBeGreaterThan(14 * DAY - 60_000);
      expect(new Date(sub.trial_ends_at).getTime() - server.ctx.now().getTime()).toBeLessThanOrEqual(14 * DAY);
      expect(sub.trial).toMatchObject({ plan: 'pro', days_left: 14, can_extend: true, extended_at: null });
      expect(sub.limits).toMatchObject({ workspaces: 5, members: 50, proViews: true });
      // GET /api/subscription (the older call) sees the same trial.
      const plain = (await api(server.app, 'GET', '/api/subscription', { token: u.token })).json().data[0];
      expect(plain).toMatchObject({ deal: 'pro', on_trial: true });
      // A second trial is refused with the spec's words.
      const again = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', trial: true } });
      expect(again.statusCode).toBe(422);
      expect(again.json()).toMatchObject({ type: 'trial_not_eligible', message: Messages.trialNotEligible });
    });

    it('refuses a trial on a paid plan, of an unknown or free plan, and anonymous callers', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Paula Paid' });
      await api(server.app, 'GET', '/api/subscription/all', { token: u.token }); // makes the free subscription
      const plan = await getPlan(server.ctx.db, 'pro');
      await server.ctx.db.updateTable('subscriptions').set({ deal: 'pro', limits: JSON.stringify(plan!.limits) }).where('user_id', '=', u.user.id).execute();
      const paid = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', trial: true } });
      expect(paid.statusCode).toBe(422);
      expect(paid.json().message).toBe(Messages.trialNotEligible);

      const v = await createUserWithToken(server.ctx, { name: 'Victor' });
      const unknown = await api(server.app, 'POST', '/api/subscription', { token: v.token, body: { plan: 'nope', trial: true } });
      expect(unknown.json()).toMatchObject({ type: 'plan_not_found', message: Messages.planNotFound });
      const free = await api(server.app, 'POST', '/api/subscription', { token: v.token, body: { plan: 'free', trial: true } });
      expect(free.statusCode).toBe(422);
      expect(free.json().message).toBe(Messages.trialNeedsPaidPlan);
      const badBody = await api(server.app, 'POST', '/api/subscription', { token: v.token, body: { plan: 7, trial: 'yes' } });
      expect(badBody.statusCode).toBe(422);
      expect(badBody.json().data).toEqual(expect.arrayContaining([expect.stringMatching(/^plan: /), expect.stringMatching(/^trial: /)]));
      const buy = await api(server.app, 'POST', '/api/subscription', { token: v.token, body: { plan: 'pro', price: 'pro-month-usd' } });
      expect(buy.statusCode).toBe(422);
      // Buying without a card (decision 0250): nothing to pay with.
      expect(buy.json()).toMatchObject({ type: 'card_required', message: Messages.cardRequired });
      expect((await api(server.app, 'POST', '/api/subscription', { body: { plan: 'pro', trial: true } })).statusCode).toBe(401);
      // Nothing changed for Victor.
      const sub = (await api(server.app, 'GET', '/api/subscription/all', { token: v.token })).json().data[0];
      expect(sub).toMatchObject({ deal: 'free', state: 'active', trial: null });
    });

    it('keeps the free plan’s workspace limit with billing on', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Olga One' });
      expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'One' } })).statusCode).toBe(201);
      const second = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'Two' } });
      expect(second.statusCode).toBe(403);
      expect(second.json().type).toBe('workspace_limit_exceeded');
      // On a Pro trial the second one is allowed.
      expect((await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } })).statusCode).toBe(200);
      expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'Two' } })).statusCode).toBe(201);
    });

    it('moves trial → trial_expired on the clock, extends once by 30 days, then refuses a second extension', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Eve Extend' });
      const started = (await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'business', trial: true } })).json().data;
      const id = started.id;
      const teamId = (await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'On trial' } })).json().data.id as number;
      const { automationRunsLimit } = await import('../../server/automations/usage');
      expect(await automationRunsLimit(server.ctx.db, teamId, server.ctx)).toBe(250000); // the Business trial's
      server.advance(14 * DAY + 1000);
      try {
        u.token = await tokenNow(server, u.user.id);
        let sub = (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data[0];
        expect(sub).toMatchObject({ state: 'trial_expired', on_trial: false, active: false });
        expect(sub.trial).toMatchObject({ days_left: 0, can_extend: true });
        // Expired: the free plan's limits, and no new workspace.
        expect(sub.limits).toMatchObject({ workspaces: 1, members: 5, proViews: false });
        const create = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'After trial' } });
        expect(create.statusCode).toBe(403);
        // Automation runs follow the effective limits too: the free plan's once the trial ended.
        expect(await automationRunsLimit(server.ctx.db, teamId, server.ctx)).toBe(100);

        const other = await createUserWithToken(server.ctx, { name: 'Mallory' });
        other.token = await tokenNow(server, other.user.id);
        const stolen = await api(server.app, 'POST', `/api/subscription/${id}`, { token: other.token, body: { trial: true } });
        expect(stolen.statusCode).toBe(422);
        expect(stolen.json().data).toEqual(['id: must be a subscription you own']);

        const ext = await api(server.app, 'POST', `/api/subscription/${id}`, { token: u.token, body: { trial: true } });
        expect(ext.statusCode).toBe(200);
        sub = ext.json().data;
        expect(sub).toMatchObject({ state: 'trial', active: true, deal: 'business' });
        expect(sub.trial.days_left).toBe(30);
        expect(sub.trial.can_extend).toBe(false);
        expect(sub.limits).toMatchObject({ workspaces: 20 });
        expect(await automationRunsLimit(server.ctx.db, teamId, server.ctx)).toBe(250000); // the Business trial's

        const twice = await api(server.app, 'POST', `/api/subscription/${id}`, { token: u.token, body: { trial: true } });
        expect(twice.statusCode).toBe(422);
        expect(twice.json()).toMatchObject({ type: 'trial_already_extended', message: Messages.trialAlreadyExtended });

        server.advance(30 * DAY);
        u.token = await tokenNow(server, u.user.id);
        sub = (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data[0];
        expect(sub.state).toBe('trial_expired');
      } finally {
        server.advance(-(44 * DAY + 1000));
      }
    });

    it('extends a running trial from its end, not from now', async () => {
      const u = await createUserWithToken(server.ctx, { name: 'Ron Running' });
      const started = (await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } })).json().data;
      const ext = (await api(server.app, 'POST', `/api/subscription/${started.id}`, { token: u.token, body: { trial: true } })).json().data;
      expect(new Date(ext.trial_ends_at).getTime() - new Date(started.trial_ends_at).getTime()).toBe(30 * DAY);
      expect(ext.trial.days_left).toBe(44);
    });
  });

  describe('states', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    const at = (d: number) => new Date(now.getTime() + d * DAY);
    it('names each state of workspace.md §4', () => {
      expect(subscriptionState({ trial_ends_at: at(3), ends_at: at(3) }, now)).toBe('trial');
      expect(subscriptionState({ trial_ends_at: at(-1), ends_at: at(-1) }, now)).toBe('trial_expired');
      expect(subscriptionState({ trial_ends_at: null, ends_at: null }, now)).toBe('active');
      expect(subscriptionState({ trial_ends_at: at(-40), ends_at: null }, now)).toBe('active');
      expect(subscriptionState({ trial_ends_at: null, ends_at: at(5) }, now)).toBe('cancelled');
      expect(subscriptionState({ trial_ends_at: null, ends_at: at(-5) }, now)).toBe('expired');
    });
  });
});

describe('BILLING=off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ config: { billing: false } });
  });
  afterAll(() => server.close());

  it('gives every subscription the top plan’s limits, tells the app, and refuses trials', async () => {
    const vars = (await api(server.app, 'GET', '/api/app-vars')).json();
    expect(vars.billing).toBe(false);
    const u = await createUserWithToken(server.ctx, { name: 'Selma Selfhost' });
    const sub = (await api(server.app, 'GET', '/api/subscription/all', { token: u.token })).json().data[0];
    expect(sub.deal).toBe('free');
    expect(sub.limits).toMatchObject({ workspaces: 20, members: 500, storage: 1000, AutomationRunsLimit: 250000, proViews: true });
    expect(await effectiveLimits(server.ctx, server.ctx.db, null, server.ctx.now())).toMatchObject({ workspaces: 20 });
    const trial = await api(server.app, 'POST', '/api/subscription', { token: u.token, body: { plan: 'pro', trial: true } });
    expect(trial.statusCode).toBe(422);
    expect(trial.json().type).toBe('billing_off');
  });

  it('lifts the workspace and member limits of the free plan to the top plan’s', async () => {
    const u = await createUserWithToken(server.ctx, { name: 'Hugo Host' });
    for (const name of ['One', 'Two', 'Three']) {
      const res = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name } });
      expect(res.statusCode).toBe(201);
    }
    const teamId = (await api(server.app, 'GET', '/api/me/workspaces', { token: u.token })).json().data[0].id;
    const invitations = Array.from({ length: 7 }, (_, i) => ({ email: `seat${i}.off@example.test`, role: 'full-member' }));
    const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: u.token, body: { invitations } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().users).toHaveLength(7); // the free plan seats 5
    // The automation runs limit is the top plan's too (the free plan's is 100).
    const { automationRunsLimit, usageOf } = await import('../../server/automations/usage');
    expect(await automationRunsLimit(server.ctx.db, teamId, server.ctx)).toBe(250000);
    expect((await usageOf(server.ctx.db, teamId, server.ctx.now(), server.ctx)).limit).toBe(250000);
    expect(await automationRunsLimit(server.ctx.db, teamId)).toBe(100); // without the config: the stored limit
  });

  it('reads BILLING from the environment and refuses a value it does not know', async () => {
    const { loadBillingEnabled } = await import('../../server/billing/config');
    expect(loadBillingEnabled({})).toBe(true);
    expect(loadBillingEnabled({ BILLING: 'off' })).toBe(false);
    expect(loadBillingEnabled({ BILLING: 'ON' })).toBe(true);
    expect(() => loadBillingEnabled({ BILLING: 'maybe' })).toThrow(/BILLING must be on or off/);
  });
});

describe('plans CLI', () => {
  it('lists, shows, edits and archives plans of an embedded database, and names every problem of a bad plan', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { runPlansCli } = await import('../../server/billing/cli');
    const { openDatabase } = await import('../../server/db/index');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-plans-'));
    const env = { DATA_DIR: dir };
    // The first and the last command open the embedded database in DATA_DIR as the CLI does (the
    // first migrates a new cluster); those between share one open database: each boot of the
    // embedded PostgreSQL costs seconds of CPU, and twelve of them took past 240 s at load 20.
    let shared: Awaited<ReturnType<typeof openDatabase>> | undefined;
    const run = async (...argv: string[]) => {
      const lines: string[] = [];
      noteInput('plans command', argv.join(' '));
      const code = await waitingFor(`plans ${argv.join(' ')}${shared ? '' : ' (opens the embedded database and migrates it)'}`, runPlansCli(argv, env, (line) => lines.push(line), shared));
      return { code, text: lines.join('\n') };
    };
    try {
      expect((await run('list')).text).toMatch(/^ltd\t.*Lifetime deal.*299\.00 USD\/lifetime/m);
      shared = await waitingFor('the embedded database to open', openDatabase({ databaseUrl: null, dataDir: dir }));
      const shown = JSON.parse((await run('show', 'pro')).text);
      expect(shown.limits.workspaces).toBe(5);
      const file = path.join(dir, 'pro.json');
      fs.writeFileSync(file, JSON.stringify({ ...shown, limits: { ...shown.limits, workspaces: 7 } }));
      expect(await run('set', file)).toEqual({ code: 0, text: 'saved plan pro' });
      expect(JSON.parse((await run('show', 'pro')).text).limits.workspaces).toBe(7);
      fs.writeFileSync(file, JSON.stringify({ ...shown, currency: undefined, prices: [{ id: 'a', interval: 'week', currency: 'usd', amount: 1.5 }] }));
      const bad = await run('set', file);
      expect(bad.code).toBe(1);
      expect(bad.text).toMatch(/prices\.0\.interval/);
      expect(bad.text).toMatch(/prices\.0\.currency/);
      expect(bad.text).toMatch(/prices\.0\.amount/);
      expect(await run('archive', 'ltd')).toEqual({ code: 0, text: 'archived plan ltd' });
      expect((await run('show', 'nope')).code).toBe(1);
      await shared.close();
      shared = undefined;
      // Opened afresh from DATA_DIR: the edits are on disk.
      const listed = (await run('list')).text;
      expect(listed).toMatch(/Lifetime deal \(archived\)/);
      expect(listed).toMatch(/^pro\t.*"workspaces":7/m);
      expect((await run('frobnicate')).code).toBe(2);
    } finally {
      await shared?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, HEAVY_TEST_TIMEOUT_MS);
});
