import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, item, recordingBroadcaster, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** Every sync endpoint checks permissions: members, roles, owner-scoped edits, public boards. */
describe('sync: permissions', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let pub: ReturnType<typeof board>;
  let ownersItem: ReturnType<typeof item>;
  let attr: ReturnType<typeof attribute>;
  const recorder = recordingBroadcaster();
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token?: string) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder.broadcaster });
    t = await teamWithRoles(server.ctx);
    b = board();
    pub = board({ name: 'Public', is_public: true });
    ownersItem = item(b.id);
    attr = attribute(b.id);
    for (const [route, rec] of [['folders', b], ['folders', pub], ['items', ownersItem], ['attributes', attr]] as const) {
      expect((await put(route, rec, t.owner.token)).statusCode).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('answers 403 to a signed-in non-member, for reads and writes', async () => {
    expect((await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.stranger.token })).statusCode).toBe(403);
    // Of the team's boards a stranger sees only the public one.
    const folders = await api(server.app, 'GET', `/api/${t.teamId}/folders`, { token: t.stranger.token });
    expect(folders.json().data.map((r: any) => r.id)).toEqual([pub.id]);
    const res = await put('items', item(b.id), t.stranger.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.', type: 'unauthorized' });
    expect((await put('folders', board(), t.stranger.token)).statusCode).toBe(403);
  });

  it('answers 404 for an unknown workspace and 401 without a session', async () => {
    expect((await put('items', item(b.id), undefined)).statusCode).toBe(401);
    expect((await api(server.app, 'PUT', `/api/999999/items/abc`, { token: t.owner.token, body: item(b.id) })).statusCode).toBe(404);
  });

  it('lets a restricted member create items and edit their own, not someone else’s', async () => {
    const mine = item(b.id);
    expect((await put('items', mine, t.restricted.token)).statusCode).toBe(200);
    expect((await put('items', { ...mine, name: 'edited', row_version: 2 }, t.restricted.token)).statusCode).toBe(200);
    expect((await put('items', { ...ownersItem, name: 'hijack', row_version: 2 }, t.restricted.token)).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${ownersItem.id}`, { token: t.restricted.token })).statusCode).toBe(403);
    // Values follow their item's owner.
    expect((await put('values', value(b.id, ownersItem.id, attr.id, 'x'), t.restricted.token)).statusCode).toBe(403);
    expect((await put('values', value(b.id, mine.id, attr.id, 'x'), t.restricted.token)).statusCode).toBe(200);
    // Managing attributes, views and boards is not theirs.
    expect((await put('attributes', attribute(b.id), t.restricted.token)).statusCode).toBe(403);
    expect((await put('folder-views', { id: 'view' + mine.id, board_id: b.id, folder_id: b.id, name: 'V', kind: 'table', row_version: 1 }, t.restricted.token)).statusCode).toBe(403);
    expect((await put('folders', board(), t.restricted.token)).statusCode).toBe(403);
    // …but a personal view of their own is (ACCESS_PERSONAL_VIEWS), and only they see it.
    const personal = { id: 'pv' + mine.id, board_id: b.id, folder_id: b.id, name: 'Mine', kind: 'table', visibility: 'personal', row_version: 1 };
    expect((await put('folder-views', personal, t.restricted.token)).statusCode).toBe(200);
    const seenByFull = await api(server.app, 'GET', `/api/${t.teamId}/folder-views?board_id=${b.id}`, { token: t.full.token });
    expect(seenByFull.json().data.map((v: any) => v.id)).not.toContain(personal.id);
    const seenByOwner = await api(server.app, 'GET', `/api/${t.teamId}/folder-views?board_id=${b.id}`, { token: t.owner.token });
    expect(seenByOwner.json().data.map((v: any) => v.id)).toContain(personal.id);
    expect((await put('folder-views', { ...personal, name: 'taken', row_version: 2 }, t.full.token)).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folder-views/${personal.id}`, { token: t.full.token })).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folder-views/${personal.id}`, { token: t.restricted.token })).statusCode).toBe(200);
    // A full member edits anyone's items.
    expect((await put('items', { ...ownersItem, name: 'by full', row_version: 2 }, t.full.token)).statusCode).toBe(200);
  });

  it('needs MANAGE_PERMISSIONS to create a folder carrying permission entries', async () => {
    const entries = { permissions: { 'MANAGE_ATTRIBUTES:role:restricted-member': 'allow' } };
    expect((await put('folders', { id: b.id.slice(0, 12) + '-f', board_id: b.id, parent_id: b.id, name: 'F', row_version: 1, ...entries }, t.full.token)).statusCode).toBe(403);
    expect((await put('folders', { id: b.id.slice(0, 12) + '-g', board_id: b.id, parent_id: b.id, name: 'G', row_version: 1 }, t.full.token)).statusCode).toBe(200);
    expect((await put('folders', { id: b.id.slice(0, 12) + '-h', board_id: b.id, parent_id: b.id, name: 'H', row_version: 1, ...entries }, t.admin.token)).statusCode).toBe(200);
  });

  it('keeps server-owned fields: created_by cannot be forged', async () => {
    const forged = item(b.id, { created_by: t.restricted.user.id });
    const res = await put('items', forged, t.full.token);
    expect(res.json().data.created_by).toBe(t.full.user.id);
  });

  it('serves a public board to anonymous visitors, read-only', async () => {
    const rec = item(pub.id, { name: 'public item' });
    expect((await put('items', rec, t.owner.token)).statusCode).toBe(200);
    const index = await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${pub.id}`);
    expect(index.statusCode, index.body).toBe(200);
    expect(index.json().data.map((r: any) => r.id)).toEqual([rec.id]);
    const delta = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=0&board_id=${pub.id}`);
    expect(delta.statusCode).toBe(200);
    expect(delta.json().data.map((c: any) => c.id)).toContain(rec.id);
    expect(delta.json().data.map((c: any) => c.id)).not.toContain(ownersItem.id);
    // Not writable, not even by a signed-in stranger.
    expect((await put('items', item(pub.id))).statusCode).toBe(401);
    expect((await put('items', item(pub.id), t.stranger.token)).statusCode).toBe(403);
    const timer = { board_id: pub.id, item_id: rec.id, attribute_id: null, description: 'x', started_at: new Date().toISOString(), ended_at: new Date().toISOString() };
    expect((await api(server.app, 'POST', `/api/${t.teamId}/time-tracking`, { token: t.stranger.token, body: timer })).statusCode).toBe(403);
    const comment = { text: { html: 'hi' }, board_id: pub.id, item_id: rec.id, parent_id: null };
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/comments/c${rec.id}`, { token: t.stranger.token, body: comment })).statusCode).toBe(403);
    // A private board is not served anonymously.
    expect((await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`)).statusCode).toBe(401);
  });

  it('sets board members through PUT /api/users (MANAGE_BOARD_MEMBERS)', async () => {
    const body = { board_id: b.id, user_ids: [t.owner.user.id, t.full.user.id] };
    expect((await api(server.app, 'PUT', '/api/users', { token: t.restricted.token, body })).statusCode).toBe(403);
    const res = await api(server.app, 'PUT', '/api/users', { token: t.admin.token, body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: b.id, user_ids: body.user_ids, row_version: 2 });
    // Clients of the board reload it: who may see it changed.
    expect(recorder.events.filter((e) => e.channel === `private-team.${t.teamId}.board.${b.id}`).map((e) => e.event).slice(-2)).toEqual(['saved', 'refresh']);
    expect((await api(server.app, 'PUT', '/api/users', { token: t.admin.token, body: { board_id: b.id, user_ids: [987654] } })).statusCode).toBe(422);
    // An unknown board id is a 403 like a board one may not manage: the route is no oracle for board ids.
    expect((await api(server.app, 'PUT', '/api/users', { token: t.admin.token, body: { board_id: 'missing', user_ids: [] } })).statusCode).toBe(403);
  });

  it('lists a board’s permission records with what the caller may do', async () => {
    const res = await api(server.app, 'GET', `/api/${t.teamId}/permissions/boards/${b.id}`, { token: t.restricted.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data[0]).toMatchObject({ id: b.id, resource_type: 'board', resource_id: b.id, team_id: t.teamId });
    expect(body.allowed).toContain('CREATE_ITEM');
    expect(body.allowed).not.toContain('MANAGE_ATTRIBUTES');
    expect((await api(server.app, 'GET', `/api/${t.teamId}/permissions/boards/${b.id}`, { token: t.stranger.token })).statusCode).toBe(403);
  });
});
