import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { hashToken } from '../../server/auth/tokens';
import { requiredAbility } from '../../server/developer/abilities';

/** Personal access tokens (issue 14; decision 0145): abilities, revocation, expiry, hashing. */
describe('personal access tokens', () => {
  let server: TestServer;
  let t: TeamFixture;
  let boardId: string;

  const create = async (session: string, body: Record<string, unknown>) => {
    const res = await api(server.app, 'POST', '/api/me/tokens', { token: session, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string; token: string; created_at: string };
  };
  const putItem = (token: string) => {
    const rec = item(boardId);
    return api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token, body: rec });
  };
  const readItems = (token: string) => api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${boardId}`, { token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    const b = board();
    boardId = b.id;
    const made = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b });
    expect(made.statusCode, made.body).toBe(200);
  });
  afterAll(() => server.close());

  it('answers the token once, lists it without its value, and stores only its hash', async () => {
    const created = await create(t.owner.token, { name: 'CI', abilities: ['read'] });
    expect(created.token).toMatch(/^cairn_pat_[A-Za-z0-9_-]{43}$/);
    expect(created.name).toBe('CI');
    const list = await api(server.app, 'GET', '/api/me/tokens', { token: t.owner.token });
    expect(list.statusCode).toBe(200);
    const listed = list.json().data.find((row: { id: number }) => row.id === created.id);
    expect(listed).toMatchObject({ name: 'CI', abilities: ['read'], last_used_at: null, expires_at: null });
    expect(list.body).not.toContain(created.token);
    const stored = await server.ctx.db.selectFrom('api_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);
    // Another user never sees it.
    const theirs = await api(server.app, 'GET', '/api/me/tokens', { token: t.admin.token });
    expect(theirs.json().data.map((row: { id: number }) => row.id)).not.toContain(created.id);
  });

  it('lets a read token read but not write, and a write token write', async () => {
    const read = await create(t.owner.token, { name: 'reader', abilities: ['read'] });
    expect((await readItems(read.token)).statusCode).toBe(200);
    const refused = await putItem(read.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ type: 'unauthorized', data: { required: 'write' } });
    const write = await create(t.owner.token, { name: 'writer', abilities: ['write'] });
    expect((await putItem(write.token)).statusCode).toBe(200);
    // Write alone does not read.
    expect((await readItems(write.token)).statusCode).toBe(403);
  });

  it('notes when a token was last used', async () => {
    const read = await create(t.owner.token, { name: 'used', abilities: ['read'] });
    expect((await readItems(read.token)).statusCode).toBe(200);
    const listed = (await api(server.app, 'GET', '/api/me/tokens', { token: t.owner.token })).json().data.find((row: { id: number }) => row.id === read.id);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('never lets a token do more than its user may', async () => {
    const everything = { name: 'all', abilities: ['read', 'write', 'hooks', 'admin'] };
    const member = await create(t.full.token, everything);
    const owner = await create(t.owner.token, everything);
    const rename = (token: string) => api(server.app, 'PUT', `/api/teams/${t.teamId}`, { token, body: { name: 'Renamed' } });
    expect((await rename(member.token)).statusCode).toBe(403);
    expect((await rename(owner.token)).statusCode).toBe(200);
    // A stranger's token reads nothing of the workspace.
    const stranger = await create(t.stranger.token, everything);
    expect((await readItems(stranger.token)).statusCode).toBe(403);
    // Workspace administration needs the admin ability even for the owner.
    const ownerWriter = await create(t.owner.token, { name: 'rw', abilities: ['read', 'write'] });
    expect((await rename(ownerWriter.token)).statusCode).toBe(403);
  });

  it('refuses credential routes to every token: no token mints tokens or changes the password', async () => {
    const all = await create(t.owner.token, { name: 'all', abilities: ['read', 'write', 'hooks', 'admin'] });
    const mint = await api(server.app, 'POST', '/api/me/tokens', { token: all.token, body: { name: 'child' } });
    expect(mint.statusCode).toBe(403);
    expect(mint.json().data).toEqual({ required: 'session' });
    expect((await api(server.app, 'GET', '/api/me/tokens', { token: all.token })).statusCode).toBe(403);
    expect((await api(server.app, 'PUT', '/api/me/password', { token: all.token, body: { password: 'x', new_password: 'y' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', '/api/me/oauth-apps', { token: all.token, body: { name: 'x', redirect_uris: ['https://a.test/cb'] } })).statusCode).toBe(403);
    expect((await api(server.app, 'GET', '/api/me', { token: all.token })).statusCode).toBe(200);
  });

  it('answers 401 to a revoked token, and a revoke of someone else’s token is a 404', async () => {
    const token = await create(t.owner.token, { name: 'gone', abilities: ['read'] });
    expect((await readItems(token.token)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/me/tokens/${token.id}`, { token: t.admin.token })).statusCode).toBe(404);
    expect((await api(server.app, 'DELETE', `/api/me/tokens/${token.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const after = await readItems(token.token);
    expect(after.statusCode).toBe(401);
    expect(after.json().type).toBe('unauthenticated');
    expect((await api(server.app, 'DELETE', `/api/me/tokens/${token.id}`, { token: t.owner.token })).statusCode).toBe(404);
    const list = await api(server.app, 'GET', '/api/me/tokens', { token: t.owner.token });
    expect(list.json().data.map((row: { id: number }) => row.id)).not.toContain(token.id);
  });

  it('validates the request: name, abilities, expiry in the future', async () => {
    const bad = async (body: unknown) => (await api(server.app, 'POST', '/api/me/tokens', { token: t.owner.token, body })).json();
    expect((await bad({})).message).toContain('name: is required');
    expect((await bad({ name: 'x', abilities: ['root'] })).message).toContain('abilities.0');
    expect((await bad({ name: 'x', abilities: [] })).message).toContain('at least one ability');
    expect((await bad({ name: 'x', expires_at: '2001-01-01T00:00:00Z' })).message).toContain('expires_at: must be in the future');
    expect((await api(server.app, 'POST', '/api/me/tokens', { body: { name: 'x' } })).statusCode).toBe(401);
    // Default abilities: read and write.
    const plain = await create(t.owner.token, { name: 'default' });
    const row = await server.ctx.db.selectFrom('api_tokens').select('abilities').where('id', '=', plain.id).executeTakeFirstOrThrow();
    expect(row.abilities).toEqual(['read', 'write']);
  });

  it('N8: a folder save that changes permissions, members, hidden or public needs admin, whatever its route', async () => {
    const writer = await create(t.owner.token, { name: 'rw', abilities: ['read', 'write'] });
    const admin = await create(t.owner.token, { name: 'rwa', abilities: ['read', 'write', 'admin'] });
    const b = board();
    let current: Record<string, unknown> = b;
    const made = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b });
    expect(made.statusCode, made.body).toBe(200);
    const save = async (token: string, changes: Record<string, unknown>) => {
      const body = { ...current, ...changes, row_version: (current.row_version as number) + 1 };
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token, body });
      if (res.statusCode === 200) current = body;
      return res;
    };
    // The review's steps: a write token opens the board to guests and edits its members.
    for (const changes of [
      { is_public: true, permissions: { 'EDIT_ITEM:role:guest': 'allow', 'VIEW_BOARD:role:guest': 'allow' } },
      { is_public: true },
      { permissions: { 'VIEW_BOARD:role:guest': 'allow' } },
      { final_permissions: ['VIEW_BOARD:role:guest'] },
      { user_ids: [t.owner.user.id, t.full.user.id] },
      { hidden: true },
    ]) {
      const refused = await save(writer.token, changes);
      expect(refused.statusCode, JSON.stringify(changes)).toBe(403);
      expect(refused.json().data).toMatchObject({ required: 'admin' });
    }
    // The same token renames it; and through a batch the rule is the same.
    expect((await save(writer.token, { name: 'Renamed by a write token' })).statusCode).toBe(200);
    const batch = await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: writer.token, body: { requests: [{ method: 'PUT', route: `folders/${b.id}`, payload: { ...current, is_public: true, row_version: (current.row_version as number) + 1 } }] } });
    expect(JSON.stringify(batch.json())).toContain('"admin"');
    // A new folder that names others or opens itself is administration too.
    const opened = board({ is_public: true });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${opened.id}`, { token: writer.token, body: opened })).statusCode).toBe(403);
    // With admin, the owner's token may.
    expect((await save(admin.token, { is_public: true, user_ids: [t.owner.user.id, t.full.user.id] })).statusCode).toBe(200);
  });

  it('N8: subscription and payment routes need the billing ability', async () => {
    const writer = await create(t.owner.token, { name: 'writer', abilities: ['read', 'write', 'admin'] });
    const buy = await api(server.app, 'POST', '/api/subscription', { token: writer.token, body: { plan: 'business', price: 'business-year-usd' } });
    expect(buy.statusCode).toBe(403);
    expect(buy.json().data).toEqual({ required: 'billing' });
    for (const [method, url] of [['POST', '/api/subscription/1/cancel'], ['GET', '/api/payment/invoices'], ['GET', '/api/payment/methods'], ['POST', '/api/ltd-codes/ABC/redeem']] as const) {
      expect((await api(server.app, method, url, { token: writer.token, body: method === 'POST' ? {} : undefined })).json().data, url).toEqual({ required: 'billing' });
    }
    const billing = await create(t.owner.token, { name: 'billing', abilities: ['billing'] });
    const invoices = await api(server.app, 'GET', '/api/payment/invoices', { token: billing.token });
    expect(invoices.json().data?.required).toBeUndefined();
    expect(invoices.statusCode).toBeLessThan(500);
  });

  it('maps routes to abilities from the route table', () => {
    expect(requiredAbility('POST', '/api/subscription')).toBe('billing');
    expect(requiredAbility('GET', '/api/subscription/all')).toBe('billing');
    expect(requiredAbility('POST', '/api/subscriptions/:ltdId/add-ons')).toBe('billing');
    expect(requiredAbility('POST', '/api/payment/card-setup')).toBe('billing');
    expect(requiredAbility('GET', '/api/plans')).toBe('read');
    expect(requiredAbility('GET', '/api/:teamId/items')).toBe('read');
    expect(requiredAbility('PUT', '/api/:teamId/items/:id')).toBe('write');
    expect(requiredAbility('PUT', '/api/teams/:id')).toBe('admin');
    expect(requiredAbility('POST', '/api/teams/:id/members')).toBe('admin');
    expect(requiredAbility('PUT', '/api/:teamId/hooks/:hookId')).toBe('hooks');
    expect(requiredAbility('GET', '/api/me/hooks')).toBe('hooks');
    expect(requiredAbility('DELETE', '/api/teams/:id')).toBe('session');
    expect(requiredAbility('POST', '/api/auth/logout')).toBe('session');
    expect(requiredAbility('GET', '/api/me/tokens')).toBe('session');
  });
  // Last: it moves the server clock past the sessions' access tokens.
  it('answers 401 once a token has expired (server clock)', async () => {
    const expiresAt = new Date(server.ctx.now().getTime() + 60 * 60 * 1000).toISOString();
    const token = await create(t.owner.token, { name: 'hour', abilities: ['read'], expires_at: expiresAt });
    expect((await readItems(token.token)).statusCode).toBe(200);
    server.advance(60 * 60 * 1000 + 1);
    expect((await readItems(token.token)).statusCode).toBe(401);
  });
});
