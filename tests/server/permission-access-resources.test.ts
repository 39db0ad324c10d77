import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** W7.32, S6.6, W8.3: GET /api/{teamId}/permissions/access answers boards and folders, and only those besides the workspace. */
describe('permissions/access for boards and folders', () => {
  let server: TestServer;
  let t: TeamFixture;
  const put = (rec: { id: string; [k: string]: unknown }) => api(server.app, 'PUT', `/api/${t.teamId}/folders/${rec.id}`, { token: t.owner.token, body: rec });
  const access = (type: string, id: string, token?: string) => api(server.app, 'GET', `/api/${t.teamId}/permissions/access?resource_type=${type}&resource_id=${id}`, { token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it('answers the caller’s permissions on a board and on a folder, per role', async () => {
    const b = board();
    const f = folder(b.id);
    const secret = folder(b.id, { hidden: true, user_ids: [t.admin.user.id] });
    for (const rec of [b, f, secret]) expect((await put(rec)).statusCode).toBe(200);

    const owner = await access('board', b.id, t.owner.token);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().data).toMatchObject({ resource_type: 'board', resource_id: b.id, role: 'owner' });
    expect(owner.json().data.permissions).toEqual(expect.arrayContaining(['VIEW_BOARD', 'DELETE_BOARD', 'CREATE_ITEM']));

    const restricted = await access('folder', f.id, t.restricted.token);
    expect(restricted.statusCode).toBe(200);
    expect(restricted.json().data).toMatchObject({ resource_type: 'folder', resource_id: f.id, role: 'restricted-member' });
    expect(restricted.json().data.permissions).toContain('VIEW_FOLDER');
    expect(restricted.json().data.permissions).not.toContain('DELETE_FOLDER');

    // A hidden folder: its member is answered, others are refused; a stranger is refused the board.
    expect((await access('folder', secret.id, t.admin.token)).json().data.permissions).toContain('VIEW_FOLDER');
    expect((await access('folder', secret.id, t.full.token)).statusCode).toBe(403);
    expect((await access('board', b.id, t.stranger.token)).statusCode).toBe(403);
    expect((await access('board', b.id)).statusCode).toBe(401);
  });

  it('names resource_id when it is missing, unknown or of the other kind', async () => {
    const b = board();
    const f = folder(b.id);
    for (const rec of [b, f]) expect((await put(rec)).statusCode).toBe(200);
    const missing = await api(server.app, 'GET', `/api/${t.teamId}/permissions/access?resource_type=board`, { token: t.owner.token });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data).toEqual(['resource_id: is required']);
    expect((await access('board', 'no-such-board', t.owner.token)).statusCode).toBe(404);
    const wrongKind = await access('board', f.id, t.owner.token);
    expect(wrongKind.statusCode).toBe(422);
    expect(wrongKind.json().data).toEqual(['resource_id: is not a board']);
    // Any other type still fails with the factory's words.
    const other = await access('item', f.id, t.owner.token);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe('there is no permission for item');
  });
});
