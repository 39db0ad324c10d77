import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';

/** GET /api/{teamId}/features: the workspace plan's flags, for members only (issue #17 part 1). */
describe('workspaces: features', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('answers the free plan to its members and refuses others', async () => {
    const owner = await createUserWithToken(server.ctx);
    const stranger = await createUserWithToken(server.ctx);
    const created = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Flags' } });
    expect(created.statusCode).toBe(201);
    const teamId = created.json().data.id;

    const res = await api(server.app, 'GET', `/api/${teamId}/features`, { token: owner.token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ plan: 'free', on_trial: false, active: true });
    expect(data.flags).toMatchObject({ pro_views: false, automations: true, white_label: false });

    expect((await api(server.app, 'GET', `/api/${teamId}/features`, { token: stranger.token })).statusCode).toBe(403);
    expect((await api(server.app, 'GET', `/api/${teamId}/features`)).statusCode).toBe(401);
    expect((await api(server.app, 'GET', `/api/999999/features`, { token: owner.token })).statusCode).toBe(404);
  });

  it('turns the Pro flags on with a Pro plan or a trial', async () => {
    const owner = await createUserWithToken(server.ctx);
    const created = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Pro' } });
    const teamId = created.json().data.id;
    const team = await server.ctx.db.selectFrom('teams').select('subscription_id').where('id', '=', teamId).executeTakeFirstOrThrow();
    const flags = async () => (await api(server.app, 'GET', `/api/${teamId}/features`, { token: owner.token })).json().data;

    const trialEnd = new Date(Date.now() + 7 * 86_400_000);
    // A trial takes the plan's limits (decision 0240); the flags read the effective limits (decision 0260).
    const pro = { workspaces: 5, members: 50, storage: 100, AutomationRunsLimit: 25000, WhitelabelLimit: 0, proViews: true };
    await server.ctx.db.updateTable('subscriptions').set({ trial_ends_at: trialEnd, ends_at: trialEnd, deal: 'pro', limits: JSON.stringify(pro) }).where('id', '=', team.subscription_id!).execute();
    expect(await flags()).toMatchObject({ on_trial: true, flags: { pro_views: true } });

    await server.ctx.db.updateTable('subscriptions').set({ trial_ends_at: null, ends_at: null, deal: 'business', limits: JSON.stringify({ workspaces: 20, AutomationRunsLimit: 250000, WhitelabelLimit: 1, proViews: true }) }).where('id', '=', team.subscription_id!).execute();
    expect(await flags()).toMatchObject({ plan: 'business', flags: { pro_views: true, white_label: true } });

    // Ended: the free plan's limits (no Pro views, no white label; the free plan's automation runs).
    await server.ctx.db.updateTable('subscriptions').set({ ends_at: new Date(Date.now() - 1000) }).where('id', '=', team.subscription_id!).execute();
    expect(await flags()).toMatchObject({ active: false, flags: { pro_views: false, automations: true, white_label: false } });
  });
});
