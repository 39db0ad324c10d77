import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { MAX_JSON_DEPTH, tooDeepField } from '../../server/http/depth-guard';
import { buildWorld, type World } from './authz-fixtures';

/** `levels` objects nested in one another around `leaf`. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The JSON text of `levels` nested objects, built as text: JSON.stringify itself overflows on it. */
function nestedJson(levels: number): string {
  return '{"a":'.repeat(levels) + '"x"' + '}'.repeat(levels);
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * A value nested ~2000 levels deep overflowed zod's recursive JSON check and answered 500 (seen
 * live by the security re-probe of issue #9). Bodies nested deeper than MAX_JSON_DEPTH are a 422.
 */
describe('deeply nested JSON bodies', () => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await createTestServer();
    w = await buildWorld(server.app, server.ctx);
  });
  afterAll(() => server?.close());

  it('measures depth without recursion and names the top-level field', () => {
    expect(tooDeepField({ a: 1, b: 'x' })).toBeNull();
    expect(tooDeepField(nested(MAX_JSON_DEPTH))).toBeNull(); // exactly MAX_JSON_DEPTH objects
    expect(tooDeepField(nested(MAX_JSON_DEPTH + 1))).toBe('a');
    expect(tooDeepField(nested(MAX_JSON_DEPTH, []))).toBe('a'); // arrays count as levels too
    expect(tooDeepField({ ok: 1, value: nested(100_000) })).toBe('value');
    expect(tooDeepField('plain')).toBeNull();
  });

  it('refuses a record value nested thousands of levels deep with a 422 and keeps the stored value', async () => {
    const token = w.users.owner.token;
    const stored = w.records.value;
    const res = await api(server.app, 'PUT', `/api/${w.teamId}/values/${encodeURIComponent(stored.id)}`, {
      token,
      headers: JSON_HEADERS,
      body: JSON.stringify({ ...stored, value: '__DEEP__', row_version: (stored.row_version as number) + 1 }).replace('"__DEEP__"', nestedJson(3000)),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().data).toEqual([`value: nested more than ${MAX_JSON_DEPTH} levels deep`]);

    const list = await api(server.app, 'GET', `/api/${w.teamId}/values?board_id=${w.boardId}`, { token });
    const after = list.json().data.find((v: { id: string }) => v.id === stored.id);
    expect(after.value).toEqual(stored.value);
    expect(after.row_version).toBe(stored.row_version);
  });

  it('refuses it on other routes too, and still saves settings nested within the limit', async () => {
    const token = w.users.owner.token;
    const deep = await api(server.app, 'PUT', '/api/users', { token, headers: JSON_HEADERS, body: `{"board_id":"${w.boardId}","user_ids":${nestedJson(5000)}}` });
    expect(deep.statusCode, deep.body).toBe(422);
    expect(deep.json().data).toEqual([`user_ids: nested more than ${MAX_JSON_DEPTH} levels deep`]);

    const id = nanoid();
    const view = { id, board_id: w.boardId, folder_id: w.boardId, name: 'Deep view', kind: 'table', row_version: 1, settings: { filter: nested(50) } };
    const ok = await api(server.app, 'PUT', `/api/${w.teamId}/folder-views/${id}`, { token, body: view });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
