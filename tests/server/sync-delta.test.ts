import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** GET /api/{teamId}/changes?after= — the delta since a cursor. */
describe('sync: delta after a cursor', () => {
  let server: TestServer;
  let t: TeamFixture;
  let open: ReturnType<typeof board>;
  let closed: ReturnType<typeof board>;
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const changes = (after: number, token: string, boardId?: string) =>
    api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}${boardId ? `&board_id=${boardId}` : ''}`, { token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    open = board({ name: 'Open' });
    // A board only its members see: the full member is not one of them.
    closed = board({ name: 'Closed', user_ids: [t.owner.user.id], hidden: true });
    expect((await put('folders', open)).statusCode).toBe(200);
    expect((await put('folders', closed)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('returns each changed record once, latest copy, with tombstones and a new cursor', async () => {
    const start = (await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${open.id}`, { token: t.full.token })).json().cursor as number;
    const a = item(open.id, { name: 'a' });
    const gone = item(open.id, { name: 'gone' });
    const attr = attribute(open.id);
    await put('items', a);
    await put('items', { ...a, name: 'a2', row_version: 2 });
    await put('items', gone);
    await put('attributes', attr);
    const v = value(open.id, a.id, attr.id, 'x');
    await put('values', v);
    await api(server.app, 'DELETE', `/api/${t.teamId}/values/${v.id}`, { token: t.owner.token });
    await api(server.app, 'DELETE', `/api/${t.teamId}/items/${gone.id}`, { token: t.owner.token });

    const res = await changes(start, t.full.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const byId = Object.fromEntries(body.data.map((c: any) => [c.id, c]));
    expect(body.data.filter((c: any) => c.id === a.id)).toHaveLength(1);
    expect(byId[a.id]).toMatchObject({ collection: 'item', op: 'saved', record: { name: 'a2', row_version: 2 } });
    expect(byId[v.id]).toEqual({ collection: 'value', id: v.id, op: 'deleted', record: null });
    expect(byId[gone.id]).toMatchObject({ collection: 'item', op: 'deleted', record: { id: gone.id, deleted_at: expect.any(String) } });
    expect(body.cursor).toBeGreaterThan(start);

    const nothing = await changes(body.cursor, t.full.token);
    expect(nothing.json()).toMatchObject({ data: [], cursor: body.cursor });
  });

  it('leaves out boards the user cannot see, and answers 403 for that board', async () => {
    const start = (await changes(0, t.owner.token)).json().cursor as number;
    const secret = item(closed.id, { name: 'secret' });
    const visible = item(open.id, { name: 'visible' });
    expect((await put('items', secret)).statusCode).toBe(200);
    expect((await put('items', visible)).statusCode).toBe(200);

    const forFull = (await changes(start, t.full.token)).json();
    expect(forFull.data.map((c: any) => c.id)).toEqual([visible.id]);
    const forOwner = (await changes(start, t.owner.token)).json();
    expect(forOwner.data.map((c: any) => c.id).sort()).toEqual([secret.id, visible.id].sort());
    expect((await changes(start, t.full.token, closed.id)).statusCode).toBe(403);
    // A stale save does not hand the stored copy to someone who may not read it.
    const probe = await api(server.app, 'PUT', `/api/${t.teamId}/items/${secret.id}`, { token: t.full.token, body: { ...secret, row_version: 1 } });
    expect(probe.statusCode).toBe(403);
    expect(probe.body).not.toContain('secret');
    const onlyOpen = (await changes(start, t.owner.token, open.id)).json();
    expect(onlyOpen.data.map((c: any) => c.id)).toEqual([visible.id]);
  });

  it('answers 403 to non-members and 422 to a bad cursor', async () => {
    expect((await changes(0, t.stranger.token)).statusCode).toBe(403);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/changes?after=abc`, { token: t.owner.token })).statusCode).toBe(422);
  });
});
