import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { Messages } from '../../schema/messages';
import { attribute, board, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** The generic record endpoints: save with the row_version rule, validation, index load. */
describe('sync: save and load', () => {
  let server: TestServer;
  let t: TeamFixture;
  let boardRec: ReturnType<typeof board>;
  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    boardRec = board({ name: 'Roadmap' });
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${boardRec.id}`, { token: t.owner.token, body: boardRec });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => server.close());

  it('creates a new record at row_version 1 and answers {data: record} with server fields', async () => {
    const rec = item(boardRec.id, { name: 'First' });
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: rec });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ id: rec.id, row_version: 1, name: 'First', team_id: t.teamId, board_id: boardRec.id, created_by: t.full.user.id, deleted_at: null });
    expect(typeof data.created_at).toBe('string');
  });

  it('accepts stored + 1 and answers 409 with the stored copy otherwise', async () => {
    const rec = item(boardRec.id);
    await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: rec });
    const ok = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: { ...rec, name: 'v2', row_version: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.row_version).toBe(2);
    const stale = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: { ...rec, name: 'stale', row_version: 2 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: Messages.conflict, data: { id: rec.id, name: 'v2', row_version: 2 } });
    const ahead = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: { ...rec, row_version: 5 } });
    expect(ahead.statusCode).toBe(409);
  });

  it('refuses a new record whose row_version is not 1 with a 409 carrying null', async () => {
    const rec = item(boardRec.id, { row_version: 3 });
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: rec });
    expect(res.statusCode).toBe(409);
    expect(res.json().data).toBeNull();
  });

  it('answers 422 listing every problem', async () => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/attributes/bad!id`, {
      token: t.owner.token,
      body: { board_id: boardRec.id, row_version: 'one', name: '', kind: 5 },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.type).toBe('validation');
    expect(body.message.startsWith(Messages.validationPrefix)).toBe(true);
    const fields = (body.data as string[]).map((m) => m.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['id', 'row_version', 'folder_id', 'name', 'kind']));
  });

  it('refuses references to records that are not on the board', async () => {
    const rec = item(boardRec.id, { folder_id: 'nope' });
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.owner.token, body: rec });
    expect(res.statusCode).toBe(422);
    expect(res.json().data[0]).toMatch(/^folder_id:/);
  });

  it('requires a value id of {item_id}.{attribute_id}', async () => {
    const attr = attribute(boardRec.id);
    const it1 = item(boardRec.id);
    await api(server.app, 'PUT', `/api/${t.teamId}/attributes/${attr.id}`, { token: t.owner.token, body: attr });
    await api(server.app, 'PUT', `/api/${t.teamId}/items/${it1.id}`, { token: t.owner.token, body: it1 });
    const wrong = { ...value(boardRec.id, it1.id, attr.id, 1), id: 'random-id' };
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/values/${wrong.id}`, { token: t.owner.token, body: wrong });
    expect(res.statusCode).toBe(422);
    expect(res.json().data[0]).toMatch(/^id:/);
  });

  it('loads a board index with a cursor', async () => {
    const attr = attribute(boardRec.id);
    const it1 = item(boardRec.id);
    for (const [route, rec] of [['attributes', attr], ['items', it1]] as const) {
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token: t.owner.token, body: rec })).statusCode).toBe(200);
    }
    const v = value(boardRec.id, it1.id, attr.id, 'Done');
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/values/${v.id}`, { token: t.owner.token, body: v })).statusCode).toBe(200);
    const res = await api(server.app, 'GET', `/api/${t.teamId}/values?board_id=${boardRec.id}`, { token: t.restricted.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((r: any) => r.id)).toEqual([v.id]);
    expect(body.cursor).toBeGreaterThan(0);
    const folders = await api(server.app, 'GET', `/api/${t.teamId}/folders`, { token: t.full.token });
    expect(folders.json().data.map((r: any) => r.id)).toContain(boardRec.id);
  });

  it('requires board_id for a board collection index', async () => {
    const res = await api(server.app, 'GET', `/api/${t.teamId}/items`, { token: t.owner.token });
    expect(res.statusCode).toBe(422);
  });
});
