import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { rotateServerIdentity } from '../../server/sync/identity';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Decision 0102: the database's identity and change horizon, as clients see them. */
describe('server identity', () => {
  let server: TestServer;
  let t: TeamFixture;
  let open: ReturnType<typeof board>;
  const put = (route: string, rec: { id: string; [k: string]: unknown }) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token: t.owner.token, body: rec });
  const changes = (after: number) => api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}`, { token: t.owner.token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    open = board({ name: 'Open' });
    expect((await put('folders', open)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('answers GET /api/server with the id and the change horizon, without a session', async () => {
    const res = await api(server.app, 'GET', '/api/server');
    expect(res.statusCode, res.body).toBe(200);
    const { id, cursor } = res.json().data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(cursor).toBeGreaterThan(0);
    // A write moves the horizon on; the id stays.
    expect((await put('items', item(open.id))).statusCode).toBe(200);
    const later = (await api(server.app, 'GET', '/api/server')).json().data;
    expect(later.id).toBe(id);
    expect(later.cursor).toBeGreaterThan(cursor);
  });

  it('names the database on every answer: API, errors, unknown paths', async () => {
    const { id } = (await api(server.app, 'GET', '/api/server')).json().data;
    const answers = await Promise.all([
      api(server.app, 'GET', '/api/app-vars'),
      api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${open.id}`, { token: t.owner.token }),
      api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${open.id}`), // 401
      api(server.app, 'GET', '/api/no-such-route'), // 404
      api(server.app, 'PUT', `/api/${t.teamId}/items/x`, { token: t.owner.token, body: { id: 'x' } }), // 422
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 404, 422]);
    for (const a of answers) expect(a.headers['x-server-id']).toBe(id);
  });

  it('carries the id in /changes and answers a cursor it never handed out with its own, lower one', async () => {
    const { id, cursor } = (await api(server.app, 'GET', '/api/server')).json().data;
    const fine = (await changes(cursor)).json();
    expect(fine).toMatchObject({ data: [], cursor, has_more: false, server_id: id });
    // A replica from another database holds a cursor past this one's horizon.
    const ahead = await changes(cursor + 1000);
    expect(ahead.statusCode).toBe(200);
    expect(ahead.json()).toEqual({ data: [], cursor, has_more: false, server_id: id });
  });

  it('takes a new identity when rotated (after restoring a backup), on the header and the endpoint', async () => {
    const before = (await api(server.app, 'GET', '/api/server')).json().data.id;
    const next = await rotateServerIdentity(server.ctx.db);
    expect(next).not.toBe(before);
    const res = await api(server.app, 'GET', '/api/server');
    expect(res.json().data.id).toBe(next);
    expect(res.headers['x-server-id']).toBe(next);
  });
});
