import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** W5.25: a subfolder's members must first be members of its parent ("A member must be added to the parent folder first."). */
describe('folder members come from the parent folder', () => {
  let server: TestServer;
  let t: TeamFixture;
  const put = (rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/folders/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it('refuses a subfolder member who is not on the parent folder’s list, with the spec’s words', async () => {
    const b = board({ user_ids: [t.owner.user.id, t.admin.user.id] });
    expect((await put(b)).statusCode).toBe(200);
    const outer = folder(b.id, { hidden: true, user_ids: [t.admin.user.id] });
    expect((await put(outer)).statusCode).toBe(200);

    // The board lists owner and admin: the full member is not on it.
    const refused = await put(folder(b.id, { hidden: true, user_ids: [t.admin.user.id, t.full.user.id] }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('A member must be added to the parent folder first.');
    expect(refused.json().data).toEqual([`user_ids: A member must be added to the parent folder first. (${t.full.user.id})`]);

    // Deeper: the nearest list above decides (outer lists only the admin); the owner always belongs.
    const inner = folder(b.id, { parent_id: outer.id, hidden: true, user_ids: [t.admin.user.id, t.owner.user.id] });
    expect((await put(inner)).statusCode).toBe(200);
    const widened = await put({ ...inner, user_ids: [t.admin.user.id, t.restricted.user.id], row_version: 2 });
    expect(widened.statusCode).toBe(422);
    expect(widened.json().message).toBe('A member must be added to the parent folder first.');

    // Once added to the board, the full member may join a folder directly under it.
    expect((await api(server.app, 'PUT', '/api/users', { token: t.owner.token, body: { board_id: b.id, user_ids: [t.owner.user.id, t.admin.user.id, t.full.user.id] } })).statusCode).toBe(200);
    expect((await put(folder(b.id, { hidden: true, user_ids: [t.full.user.id] }))).statusCode).toBe(200);
  });

  it('lets any member in when no folder above has a list', async () => {
    const open = board();
    expect((await put(open)).statusCode).toBe(200);
    expect((await put(folder(open.id, { hidden: true, user_ids: [t.full.user.id, t.restricted.user.id] }))).statusCode).toBe(200);
  });
});
