import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import type { Broadcaster } from '../../server/context';
import { seedDemo, DEMO_EMAIL, DEMO_PASSWORD } from '../../server/demo/seed';
import { verifyPassword } from '../../server/accounts/password';

/** Workspaces themselves: create (plan capacity), read, update, delete, photo, lists, permissions. */

const events: { channel: string; event: string; data: any }[] = [];
const recorder: Broadcaster = {
  async publish(channel, event, data) {
    events.push({ channel, event, data });
  },
};

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function multipart(field: string, filename: string, data: Buffer, type = 'image/png') {
  const boundary = '----cairn' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('workspaces', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof createUserWithToken>>;
  let teamId: number;

  async function addMember(userId: number, role: string) {
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role: role as never, verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
  }

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder });
    owner = await createUserWithToken(server.ctx, { name: 'Olive Owner' });
    const res = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Acme' } });
    expect(res.statusCode).toBe(201);
    teamId = res.json().data.id;
  });
  afterAll(() => server.close());

  describe('POST /api/teams', () => {
    it('created the workspace on the owner’s free plan with the owner as member', async () => {
      const res = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: owner.token });
      expect(res.statusCode).toBe(200);
      const team = res.json().data;
      expect(team).toMatchObject({ id: teamId, name: 'Acme', owner_id: owner.user.id, user_role: 'owner', member_count: 1, photo_url: null });
      const sub = await server.ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', team.subscription_id).executeTakeFirstOrThrow();
      expect(sub.user_id).toBe(owner.user.id);
      expect(sub.deal).toBe('free');
    });

    it('refuses a second workspace on the free plan with workspace_limit_exceeded', async () => {
      const res = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Second' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('workspace_limit_exceeded');
      expect(res.json().message).toMatch(/maximum number of workspaces/);
      const count = await server.ctx.db.selectFrom('teams').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_id', '=', owner.user.id).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    it('creates more workspaces on a plan with spare capacity, and refuses an ended subscription', async () => {
      const pro = await createUserWithToken(server.ctx);
      const sub = await server.ctx.db.insertInto('subscriptions').values({ user_id: pro.user.id, deal: 'pro', limits: JSON.stringify({ workspaces: 2, members: 50 }), version: 8, created_at: new Date() }).returning('id').executeTakeFirstOrThrow();
      for (const name of ['One', 'Two']) {
        const res = await api(server.app, 'POST', '/api/teams', { token: pro.token, body: { name, subscription_id: sub.id } });
        expect(res.statusCode).toBe(201);
        expect(res.json().data.subscription_id).toBe(sub.id);
      }
      const third = await api(server.app, 'POST', '/api/teams', { token: pro.token, body: { name: 'Three', subscription_id: sub.id } });
      expect(third.statusCode).toBe(403);
      expect(third.json().type).toBe('workspace_limit_exceeded');

      const ended = await createUserWithToken(server.ctx);
      await server.ctx.db.insertInto('subscriptions').values({ user_id: ended.user.id, deal: 'free', limits: JSON.stringify({ workspaces: 1 }), version: 8, ends_at: new Date(Date.now() - 1000), created_at: new Date() }).execute();
      const res = await api(server.app, 'POST', '/api/teams', { token: ended.token, body: { name: 'Late' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'subscription_inactive', message: 'A workspace needs an active subscription.' });
    });

    it('lets only one of two simultaneous creations through on a one-workspace plan', async () => {
      const u = await createUserWithToken(server.ctx);
      const results = await Promise.all(['A', 'B'].map((name) => api(server.app, 'POST', '/api/teams', { token: u.token, body: { name } })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    });

    it('refuses a subscription the user does not own', async () => {
      const other = await createUserWithToken(server.ctx);
      const ownerSub = await server.ctx.db.selectFrom('subscriptions').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
      const res = await api(server.app, 'POST', '/api/teams', { token: other.token, body: { name: 'Steal', subscription_id: ownerSub.id } });
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual(['subscription_id: must be a subscription you own']);
    });

    it('answers bad bodies clearly: missing name, unknown field, malformed JSON, no token', async () => {
      const u = await createUserWithToken(server.ctx);
      const missing = await api(server.app, 'POST', '/api/teams', { token: u.token, body: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({ type: 'validation', data: ['name: is required'] });
      expect(missing.json().message).toBe('Validation Error: name: is required');
      const blank = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: '   ' } });
      expect(blank.statusCode).toBe(422);
      const extra = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'X', owner_id: 1 } });
      expect(extra.statusCode).toBe(422);
      const bad = await api(server.app, 'POST', '/api/teams', { token: u.token, body: '{"name": ', headers: { 'content-type': 'application/json' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'The request body is not valid JSON.', type: 'bad_request' });
      const anon = await api(server.app, 'POST', '/api/teams', { body: { name: 'X' } });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('GET /api/teams/{id}', () => {
    it('is 403 for someone not in the workspace and 404 for an unknown or malformed id', async () => {
      const stranger = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: stranger.token })).statusCode).toBe(403);
      expect((await api(server.app, 'GET', '/api/teams/999999', { token: owner.token })).statusCode).toBe(404);
      expect((await api(server.app, 'GET', '/api/teams/abc', { token: owner.token })).json()).toEqual({ message: 'Not Found', type: 'not_found' });
    });

    it('shows a member their own role', async () => {
      const m = await createUserWithToken(server.ctx);
      await addMember(m.user.id, 'restricted-member');
      const res = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: m.token });
      expect(res.json().data.user_role).toBe('restricted-member');
    });
  });

  describe('PUT /api/teams/{id}', () => {
    it('lets the owner and admins rename the workspace and broadcasts it', async () => {
      const admin = await createUserWithToken(server.ctx);
      await addMember(admin.user.id, 'admin');
      events.length = 0;
      const res = await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: admin.token, body: { name: 'Acme Inc', domain: 'Work.Acme.test' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'Acme Inc', domain: 'work.acme.test', user_role: 'admin' });
      const saved = events.find((e) => e.event === 'team.saved');
      expect(saved?.channel).toBe(`private-team.${teamId}.users`);
      expect(saved?.data.team.name).toBe('Acme Inc');
    });

    it('refuses full and restricted members (403), bad fields and empty bodies (422)', async () => {
      for (const role of ['full-member', 'restricted-member']) {
        const m = await createUserWithToken(server.ctx);
        await addMember(m.user.id, role);
        const res = await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: m.token, body: { name: 'Mine' } });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: 'You have no permission to update the workspace.', type: 'unauthorized' });
      }
      const empty = await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: owner.token, body: {} });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().data[0]).toMatch(/name, use_custom_logo or domain is required/);
      const domain = await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: owner.token, body: { domain: 'not a domain' } });
      expect(domain.statusCode).toBe(422);
      expect(domain.json().data[0]).toMatch(/^domain: /);
    });
  });

  describe('photo', () => {
    it('stores a photo, replaces and removes it', async () => {
      const { payload, headers } = multipart('photo', 'logo.png', PNG);
      const res = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload, headers: { ...headers, authorization: `Bearer ${owner.token}` } });
      expect(res.statusCode).toBe(200);
      const url = res.json().data.photo_url as string;
      expect(url).toMatch(/^\/api\/files\/team-photos\/[A-Za-z0-9_-]+\.png$/);
      const fileOf = (u: string) => path.join(server.ctx.config.dataDir, 'uploads', u.slice('/api/files/'.length));
      expect(fs.existsSync(fileOf(url))).toBe(true);
      // A new photo replaces the old one, whose file is removed.
      const again = multipart('photo', 'logo2.png', PNG);
      const res2 = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload: again.payload, headers: { ...again.headers, authorization: `Bearer ${owner.token}` } });
      const url2 = res2.json().data.photo_url as string;
      expect(url2).not.toBe(url);
      expect(fs.existsSync(fileOf(url))).toBe(false);
      expect(fs.existsSync(fileOf(url2))).toBe(true);
      const del = await api(server.app, 'DELETE', `/api/teams/${teamId}/photo`, { token: owner.token });
      expect(del.statusCode).toBe(200);
      expect(del.json().data.photo_url).toBeNull();
      expect(fs.existsSync(fileOf(url2))).toBe(false);
    });

    it('refuses non-images, missing files, oversize files and non-admins', async () => {
      const auth = { authorization: `Bearer ${owner.token}` };
      const text = multipart('photo', 'x.png', Buffer.from('hello, not an image'));
      const r1 = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload: text.payload, headers: { ...text.headers, ...auth } });
      expect(r1.statusCode).toBe(422);
      expect(r1.json().message).toMatch(/PNG, JPEG, GIF or WebP/);
      const wrongField = multipart('avatar', 'x.png', PNG);
      const r2 = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload: wrongField.payload, headers: { ...wrongField.headers, ...auth } });
      expect(r2.statusCode).toBe(422);
      const big = multipart('photo', 'big.png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]));
      const r3 = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload: big.payload, headers: { ...big.headers, ...auth } });
      expect(r3.statusCode).toBe(413);
      expect(r3.json().message).toBe('The file is too large. It must be under 5 MB.');
      const m = await createUserWithToken(server.ctx);
      await addMember(m.user.id, 'full-member');
      const ok = multipart('photo', 'x.png', PNG);
      const r4 = await server.app.inject({ method: 'POST', url: `/api/teams/${teamId}/photo`, payload: ok.payload, headers: { ...ok.headers, authorization: `Bearer ${m.token}` } });
      expect(r4.statusCode).toBe(403);
    });
  });

  describe('GET /api/me/workspaces and GET /api/subscription', () => {
    it('lists only workspaces the user is a verified member of, with their role', async () => {
      const m = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'GET', '/api/me/workspaces', { token: m.token })).json().data).toEqual([]);
      await addMember(m.user.id, 'full-member');
      const list = (await api(server.app, 'GET', '/api/me/workspaces', { token: m.token })).json().data;
      expect(list.map((t: any) => [t.id, t.user_role])).toEqual([[teamId, 'full-member']]);
      expect((await api(server.app, 'GET', '/api/me/workspaces')).statusCode).toBe(401);
    });

    it('answers the user’s subscriptions with usage, and an empty list to guests', async () => {
      const res = await api(server.app, 'GET', '/api/subscription', { token: owner.token });
      expect(res.statusCode).toBe(200);
      const [sub] = res.json().data;
      expect(sub).toMatchObject({ user_id: owner.user.id, deal: 'free', usage: { workspaces: 1 }, active: true, on_trial: false });
      expect(sub.limits.workspaces).toBe(1);
      const guest = await api(server.app, 'GET', '/api/subscription');
      expect(guest.statusCode).toBe(200);
      expect(guest.json()).toEqual({ data: [] });
    });
  });

  describe('workspace permissions', () => {
    it('lets any member read the entries and answers access per role', async () => {
      const r = await createUserWithToken(server.ctx);
      await addMember(r.user.id, 'restricted-member');
      const rec = await api(server.app, 'GET', `/api/${teamId}/permissions`, { token: r.token });
      expect(rec.statusCode).toBe(200);
      expect(rec.json().data).toMatchObject({ resource_type: 'workspace', resource_id: teamId, team_id: teamId, permissions: {} });
      const access = await api(server.app, 'GET', `/api/${teamId}/permissions/access?resource_type=workspace&resource_id=${teamId}`, { token: r.token });
      expect(access.statusCode).toBe(200);
      expect(access.json().data.role).toBe('restricted-member');
      expect(access.json().data.permissions).toContain('VIEW_BOARD');
      expect(access.json().data.permissions).not.toContain('INVITE_MEMBERS');
      const ownerAccess = await api(server.app, 'GET', `/api/${teamId}/permissions/access?resource_type=workspace`, { token: owner.token });
      expect(ownerAccess.json().data.permissions).toContain('DELETE_WORKSPACE');
      const anon = await api(server.app, 'GET', `/api/${teamId}/permissions/access?resource_type=workspace`);
      expect(anon.json().data).toMatchObject({ role: 'guest', permissions: [] });
    });

    it('answers an unsupported resource type and a missing one with a clear 422', async () => {
      const res = await api(server.app, 'GET', `/api/${teamId}/permissions/access?resource_type=item&resource_id=x`, { token: owner.token });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('there is no permission for item');
      const missing = await api(server.app, 'GET', `/api/${teamId}/permissions/access`, { token: owner.token });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().data).toEqual(['resource_type: is required']);
      const otherTeam = await api(server.app, 'GET', `/api/${teamId}/permissions/access?resource_type=workspace&resource_id=${teamId + 1000}`, { token: owner.token });
      expect(otherTeam.statusCode).toBe(422);
      expect(otherTeam.json().data).toEqual(["resource_id: must be this workspace's id"]);
    });

    it('saves entries with MANAGE_PERMISSIONS, applies them at once and broadcasts them', async () => {
      const full = await createUserWithToken(server.ctx);
      await addMember(full.user.id, 'full-member');
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: full.token, body: { name: 'Nope' } })).statusCode).toBe(403);
      events.length = 0;
      const current = (await api(server.app, 'GET', `/api/${teamId}/permissions`, { token: owner.token })).json().data;
      const res = await api(server.app, 'PUT', `/api/${teamId}/permissions`, {
        token: owner.token,
        body: { permissions: { 'EDIT_WORKSPACE_SETTINGS:role:full-member': 'allow' }, row_version: current.row_version + 1 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.row_version).toBe(current.row_version + 1);
      expect(events.find((e) => e.channel === `private-team.${teamId}.permissions`)?.data.data.permissions).toEqual({ 'EDIT_WORKSPACE_SETTINGS:role:full-member': 'allow' });
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}`, { token: full.token, body: { name: 'Now allowed' } })).statusCode).toBe(200);

      // A stale row_version is a conflict carrying the stored record.
      const stale = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: { permissions: {}, row_version: current.row_version + 1 } });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().data.permissions).toEqual({ 'EDIT_WORKSPACE_SETTINGS:role:full-member': 'allow' });
      // Reset so later tests see defaults.
      expect((await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: { permissions: {} } })).statusCode).toBe(200);
    });

    it('refuses bad entries, owner entries and members without MANAGE_PERMISSIONS', async () => {
      const bad = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: { permissions: { 'FLY:role:admin': 'allow', 'VIEW_BOARD:role:admin': 'yes' } } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().data).toHaveLength(2);
      const ownerEntry = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: { permissions: { 'VIEW_BOARD:role:owner': 'deny' } } });
      expect(ownerEntry.statusCode).toBe(422);
      expect(ownerEntry.json().message).toContain("The owner's permissions cannot be changed.");
      const missing = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().data).toEqual(['permissions: is required']);
      const r = await createUserWithToken(server.ctx);
      await addMember(r.user.id, 'restricted-member');
      expect((await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: r.token, body: { permissions: {} } })).statusCode).toBe(403);
      const stranger = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'GET', `/api/${teamId}/permissions`, { token: stranger.token })).statusCode).toBe(403);
    });
  });

  describe('DELETE /api/teams/{id}', () => {
    it('is the owner’s alone, needs a recent password, and removes everything', async () => {
      const u = await createUserWithToken(server.ctx);
      const created = await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'Doomed' } });
      const id = created.json().data.id;
      const admin = await createUserWithToken(server.ctx);
      await server.ctx.db.insertInto('team_members').values({ team_id: id, user_id: admin.user.id, role: 'admin', verified_at: new Date(), invited_by: u.user.id, created_at: new Date() }).execute();
      expect((await api(server.app, 'DELETE', `/api/teams/${id}`, { token: admin.token })).statusCode).toBe(403);

      const noReauth = await api(server.app, 'DELETE', `/api/teams/${id}`, { token: u.token });
      expect(noReauth.statusCode).toBe(401);
      expect(noReauth.json().type).toBe('reauth');

      await server.ctx.db.updateTable('users').set({ reauthenticated_at: server.ctx.now() }).where('id', '=', u.user.id).execute();
      events.length = 0;
      const res = await api(server.app, 'DELETE', `/api/teams/${id}`, { token: u.token });
      expect(res.statusCode).toBe(200);
      expect((await api(server.app, 'GET', `/api/teams/${id}`, { token: u.token })).statusCode).toBe(404);
      expect(await server.ctx.db.selectFrom('team_members').selectAll().where('team_id', '=', id).execute()).toEqual([]);
      expect(events.some((e) => e.event === 'team.deleted' && e.data.team_id === id)).toBe(true);
      // The freed capacity lets the owner create a workspace again.
      expect((await api(server.app, 'POST', '/api/teams', { token: u.token, body: { name: 'Again' } })).statusCode).toBe(201);
    });
  });

  describe('demo data', () => {
    it('seeds the demo workspace with a member of every role, once', async () => {
      await seedDemo(server.ctx);
      await seedDemo(server.ctx);
      const demoUser = await server.ctx.db.selectFrom('users').selectAll().where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow();
      const teams = await server.ctx.db.selectFrom('teams').selectAll().where('owner_id', '=', demoUser.id).execute();
      expect(teams.map((t) => t.name)).toEqual(['Demo workspace']);
      const members = await server.ctx.db
        .selectFrom('team_members')
        .innerJoin('users', 'users.id', 'team_members.user_id')
        .select(['users.email', 'users.password_hash', 'team_members.role', 'team_members.verified_at'])
        .where('team_id', '=', teams[0]!.id)
        .execute();
      expect(members.map((m) => m.role).sort()).toEqual(['admin', 'full-member', 'owner', 'restricted-member']);
      expect(members.every((m) => m.verified_at !== null)).toBe(true);
      for (const m of members) expect(await verifyPassword(DEMO_PASSWORD, m.password_hash!), m.email).toBe(true);
    });
  });
});
