import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { nulPath } from '../../server/http/nul-guard';
import { buildWorld, type World } from './authz-fixtures';

/**
 * The NUL character cannot be stored by PostgreSQL; requests carrying one were 500s (found by the
 * fuzz suite, seeds 1–3). They are refused: 404 in a path parameter, 422 naming the field in a
 * query or body.
 */
describe('NUL characters in requests', () => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await createTestServer();
    w = await buildWorld(server.app, server.ctx);
  });
  afterAll(() => server?.close());

  it('answers 404 for a path parameter holding one', async () => {
    const token = w.users.owner.token;
    for (const [method, url] of [
      ['GET', '/api/boards/%00/public'],
      ['POST', '/api/boards/a%00b/unlock'],
      ['DELETE', `/api/${w.teamId}/values/%00`],
      ['DELETE', `/api/${w.teamId}/items/%00`],
      ['POST', `/api/${w.teamId}/items/%00/restore`],
    ] as const) {
      const res = await api(server.app, method, url, { token, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json().type).toBe('not_found');
    }
  });

  it('answers 422 naming the query key or body field', async () => {
    const token = w.users.owner.token;
    const query = await api(server.app, 'GET', `/api/${w.teamId}/comments/multiple?item_ids=%00`, { token });
    expect(query.statusCode, query.body).toBe(422);
    expect(query.json().data).toEqual(['item_ids: must not contain the NUL character']);

    const item = { id: 'nulitem1', board_id: w.boardId, folder_id: w.folderId, name: 'a\u0000b', row_version: 1 };
    const save = await api(server.app, 'PUT', `/api/${w.teamId}/items/nulitem1`, { token, body: item });
    expect(save.statusCode, save.body).toBe(422);
    expect(save.json().data).toEqual(['name: must not contain the NUL character']);
    // Nothing was stored, and the same item without the NUL saves.
    const clean = await api(server.app, 'PUT', `/api/${w.teamId}/items/nulitem1`, { token, body: { ...item, name: 'ab' } });
    expect(clean.statusCode, clean.body).toBe(200);

    const members = await api(server.app, 'PUT', '/api/users', { token, body: { board_id: '\u0000', user_ids: [] } });
    expect(members.statusCode, members.body).toBe(422);
    expect(members.json().data).toEqual(['board_id: must not contain the NUL character']);
  });

  it('finds a NUL anywhere in a body, keys too, however deep, without recursion', () => {
    expect(nulPath({ a: [1, { b: 'x\u0000' }] }, '')).toBe('a.1.b');
    expect(nulPath({ ['k\u0000']: 1 }, '')).toBe('');
    expect(nulPath(['ok', 'no\u0000'], '')).toBe('1');
    expect(nulPath({ a: 'fine', b: [1, 2, { c: null }] }, '')).toBeNull();
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(nulPath(deep, '')).toMatch(/^0(\.0)*$/);
  });
});
