import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { Messages } from '../../schema/messages';
import { issueTokens } from '../../server/auth/tokens';
import { runAutomation, type RunPayload } from '../../server/automations/run';
import { addMember, board, item, newId } from './sync-fixtures';

/**
 * W4.3 (decision 0360): a workspace whose trial expired or whose subscription ended is read-only:
 * every write is refused with the spec's words, reads and exports still answer, and buying (here:
 * extending the trial) makes it writable again.
 */
const DAY = 24 * 60 * 60 * 1000;

describe('read-only workspaces after the subscription ends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const tokenNow = async (userId: number) => (await issueTokens(server.ctx.db, userId, server.ctx.now())).access_token;

  it('refuses every write of an expired trial with the spec’s words, keeps reads, and opens again on extension', async () => {
    const owner = await createUserWithToken(server.ctx, { name: 'Olga Owner' });
    const member = await createUserWithToken(server.ctx, { name: 'Mark Member' });
    const stranger = await createUserWithToken(server.ctx, { name: 'Sam Stranger' });
    const sub = (await api(server.app, 'POST', '/api/subscription', { token: owner.token, body: { plan: 'pro', trial: true } })).json().data;
    const teamId = (await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Trial team' } })).json().data.id as number;
    await addMember(server.ctx, teamId, member.user.id, 'full-member');
    const b = board();
    expect((await api(server.app, 'PUT', `/api/${teamId}/folders/${b.id}`, { token: owner.token, body: b })).statusCode).toBe(200);
    expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: owner.token })).json().data.read_only).toBeNull();

    server.advance(14 * DAY + 1000);
    try {
      owner.token = await tokenNow(owner.user.id);
      member.token = await tokenNow(member.user.id);
      stranger.token = await tokenNow(stranger.user.id);
      const readOnly = { type: 'workspace_read_only', message: Messages.trialExpired, data: { reason: 'trial_expired' } };

      // The workspace says so; reads answer.
      const team = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: member.token });
      expect(team.statusCode).toBe(200);
      expect(team.json().data.read_only).toBe('trial_expired');
      expect((await api(server.app, 'GET', `/api/${teamId}/changes?after=0`, { token: member.token })).statusCode).toBe(200);
      expect((await api(server.app, 'GET', `/api/teams/${teamId}/members`, { token: owner.token })).statusCode).toBe(200);

      // A sync save, one by one and in a batch (every request answered), is refused.
      const single = await api(server.app, 'PUT', `/api/${teamId}/items/${item(b.id).id}`, { token: member.token, body: item(b.id) });
      expect(single.statusCode).toBe(403);
      expect(single.json()).toMatchObject(readOnly);
      const batch = await api(server.app, 'POST', `/api/${teamId}/batch`, {
        token: owner.token,
        body: { transaction: null, requests: [item(b.id), item(b.id)].map((i) => ({ method: 'put', route: `items/${i.id}`, payload: i })) },
      });
      expect(batch.statusCode).toBe(200);
      expect(batch.json()).toEqual([
        { status: 403, data: readOnly },
        { status: 403, data: readOnly },
      ]);
      const rename = await api(server.app, 'PUT', `/api/${teamId}/folders/${b.id}`, { token: owner.token, body: { ...b, name: 'Renamed', row_version: 2 } });
      expect(rename.json()).toMatchObject(readOnly);

      // Other writes of the workspace: its settings, members, permissions, follow.
      for (const [method, url, body] of [
        ['PUT', `/api/teams/${teamId}`, { name: 'New name' }],
        ['POST', `/api/teams/${teamId}/members`, { invitations: [{ email: 'new@example.com', role: 'full-member' }] }],
        ['PUT', `/api/${teamId}/permissions`, { permissions: {} }],
      ] as const) {
        const res = await api(server.app, method, url, { token: owner.token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json(), `${method} ${url}`).toMatchObject(readOnly);
      }
      // Nothing was written.
      const changes = (await api(server.app, 'GET', `/api/${teamId}/changes?after=0`, { token: owner.token })).json();
      expect(JSON.stringify(changes)).not.toContain('Renamed');
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: owner.token })).json().data.name).toBe('Trial team');

      // Outsiders learn nothing of the plan: their answer is the usual one.
      const outsider = await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: stranger.token, body: { name: 'x' } });
      expect(outsider.json().type).not.toBe('workspace_read_only');
      const outsiderSave = await api(server.app, 'PUT', `/api/${teamId}/items/${item(b.id).id}`, { token: stranger.token, body: item(b.id) });
      expect(outsiderSave.statusCode).toBe(403);
      expect(outsiderSave.json().message).toBe(Messages.unauthorized);

      // Extending the trial (as buying a plan would) makes it writable again.
      expect((await api(server.app, 'POST', `/api/subscription/${sub.id}`, { token: owner.token, body: { trial: true } })).statusCode).toBe(200);
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: owner.token })).json().data.read_only).toBeNull();
      const again = item(b.id);
      expect((await api(server.app, 'PUT', `/api/${teamId}/items/${again.id}`, { token: member.token, body: again })).statusCode).toBe(200);
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: owner.token, body: { name: 'New name' } })).statusCode).toBe(200);
    } finally {
      server.advance(-(14 * DAY + 1000));
    }
  });

  it('refuses writes after a cancelled plan’s end date with the expired text, and lets the owner delete the workspace', async () => {
    const owner = await createUserWithToken(server.ctx, { name: 'Carl Cancelled' });
    const teamId = (await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Ended' } })).json().data.id as number;
    const { subscription_id } = await server.ctx.db.selectFrom('teams').select('subscription_id').where('id', '=', teamId).executeTakeFirstOrThrow();
    // A paid plan cancelled to run until yesterday (the set-up the cancel screen leads to).
    await server.ctx.db.updateTable('subscriptions').set({ deal: 'pro', ends_at: new Date(server.ctx.now().getTime() - DAY) }).where('id', '=', subscription_id!).execute();
    const b = board();
    const res = await api(server.app, 'PUT', `/api/${teamId}/folders/${b.id}`, { token: owner.token, body: b });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'workspace_read_only', message: Messages.subscriptionExpired, data: { reason: 'expired' } });
    expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: owner.token })).json().data.read_only).toBe('expired');
    // Deleting the workspace is still allowed (it needs a recent sign-in: the token is fresh).
    const deleted = await api(server.app, 'DELETE', `/api/teams/${teamId}`, { token: owner.token });
    expect(deleted.json().type).not.toBe('workspace_read_only');
  });
  it('runs no automation of a workspace whose subscription ended: the run is logged as skipped, nothing is written', async () => {
    const owner = await createUserWithToken(server.ctx, { name: 'Ada Automator' });
    const teamId = (await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Automated' } })).json().data.id as number;
    const b = board();
    const task = item(b.id);
    const rule = { id: newId(), board_id: b.id, name: 'Welcome', enabled: true, conditions: [], match: 'all', position: 0, row_version: 1, trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: 'Welcome' }] };
    for (const [route, body] of [['folders', b], ['items', task], ['automations', rule]] as const) {
      const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${body.id}`, { token: owner.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
    await server.ctx.jobs.drain();
    const run = (cause: string): RunPayload => ({ team_id: teamId, board_id: b.id, automation_id: rule.id, item_id: task.id, cause, fact: { type: 'item_created', item_id: task.id }, chain: [] });
    const comments = async () => (await server.ctx.db.selectFrom('records').select('id').where('collection', '=', 'comment').where('team_id', '=', teamId).execute()).length;
    // While the workspace may be written, the rule acts (the set-up is one that runs).
    expect(await runAutomation(server.ctx, run('test:before'))).toBe('done');
    const before = await comments();
    expect(before).toBeGreaterThan(0);

    const { subscription_id } = await server.ctx.db.selectFrom('teams').select('subscription_id').where('id', '=', teamId).executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('subscriptions').set({ deal: 'pro', ends_at: new Date(server.ctx.now().getTime() - DAY) }).where('id', '=', subscription_id!).execute();
    expect(await runAutomation(server.ctx, run('test:after'))).toBe('skipped');
    await server.ctx.jobs.drain();
    expect(await comments()).toBe(before);
    const logged = await server.ctx.db.selectFrom('automation_runs').select(['result', 'error', 'counted']).where('automation_id', '=', rule.id).where('cause', '=', 'test:after').executeTakeFirstOrThrow();
    expect(logged).toEqual({ result: 'skipped', error: 'the workspace is read-only: its subscription has ended', counted: false });
  });
});
