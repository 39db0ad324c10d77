import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Public board links: board → workspace lookup, and the optional board password. */
describe('boards: public links and board passwords', () => {
  let server: TestServer;
  let t: TeamFixture;
  let open: ReturnType<typeof board>;
  let closed: ReturnType<typeof board>;
  let locked: ReturnType<typeof board>;
  const put = (route: string, body: Record<string, unknown>, token = t.owner.token) =>
    api(server.app, 'PUT', `/api/${t.teamId}/${route}/${String(body.id)}`, { token, body });
  const lookup = (boardId: string) => api(server.app, 'GET', `/api/boards/${boardId}/public`);
  const setPassword = (boardId: string, password: string | null, token = t.owner.token) =>
    api(server.app, 'PUT', `/api/${t.teamId}/boards/${boardId}/password`, { token, body: { password } });
  const guestRead = (boardId: string, password?: string) =>
    api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${boardId}`, { headers: password === undefined ? {} : { 'x-authorization-password': encodeURIComponent(password) } });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    open = board({ name: 'Public roadmap', is_public: true });
    closed = board({ name: 'Private plans' });
    locked = board({ name: 'Locked roadmap', is_public: true });
    for (const b of [open, closed, locked]) expect((await put('folders', b)).statusCode).toBe(200);
    expect((await put('items', item(locked.id, { name: 'Secret item' }))).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('finds the workspace of a public board without the team in the link', async () => {
    const res = await lookup(open.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ board_id: open.id, team_id: t.teamId, name: 'Public roadmap', password_required: false });
  });

  it('reveals nothing about private, trashed or unknown boards (the same 404)', async () => {
    const trashed = board({ is_public: true });
    expect((await put('folders', trashed)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folders/${trashed.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const answers = await Promise.all([lookup(closed.id), lookup(trashed.id), lookup('no-such-board')]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not Found', type: 'not_found' });
    }
  });

  it('lets only the owner and admins set a password, and stores only a hash', async () => {
    expect((await setPassword(locked.id, 'sesame', t.full.token)).statusCode).toBe(403);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/boards/${locked.id}/password`, { body: { password: 'x' } })).statusCode).toBe(401);
    const res = await setPassword(locked.id, 'sesame', t.admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ password_required: true });
    const row = await server.ctx.db.selectFrom('board_passwords').selectAll().where('board_id', '=', locked.id).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain('sesame');
    expect(row.password_hash.startsWith('scrypt$')).toBe(true);
    // The lookup says a password is needed and keeps the name to itself.
    expect((await lookup(locked.id)).json().data).toEqual({ board_id: locked.id, team_id: t.teamId, name: null, password_required: true });
  });

  it('asks guests for the password: missing 401, wrong 401, right one reads', async () => {
    const missing = await guestRead(locked.id);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ type: 'board_password_required', message: 'This board is protected by a password.' });
    const wrong = await guestRead(locked.id, 'open sesame');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ type: 'board_password_wrong', message: 'The password is not correct.' });
    const right = await guestRead(locked.id, 'sesame');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().data.map((r: { name: string }) => r.name)).toEqual(['Secret item']);
    // The unlock check answers the same way, for the form.
    expect((await api(server.app, 'POST', `/api/boards/${locked.id}/unlock`, { body: { password: 'nope' } })).statusCode).toBe(401);
    expect((await api(server.app, 'POST', `/api/boards/${locked.id}/unlock`, { body: { password: 'sesame' } })).json().data).toEqual({ board_id: locked.id, team_id: t.teamId });
    // Signed-in people outside the workspace are guests too; members need no password.
    expect((await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${locked.id}`, { token: t.stranger.token })).statusCode).toBe(401);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${locked.id}`, { token: t.restricted.token })).statusCode).toBe(200);
    // Still read-only: a guest with the password cannot write.
    expect((await put('items', item(locked.id), t.stranger.token)).statusCode).toBe(403);
  });

  it('keeps a protected board’s live channel to members (channel auth carries no password)', async () => {
    const auth = (token: string, board: string) =>
      api(server.app, 'POST', '/api/broadcasting/multi-auth', { token, body: { socketId: '123.456', channelNames: [`private-team.${t.teamId}.board.${board}`] } });
    expect((await auth(t.stranger.token, locked.id)).json()[`private-team.${t.teamId}.board.${locked.id}`].status).toBe(403);
    expect((await auth(t.restricted.token, locked.id)).json()[`private-team.${t.teamId}.board.${locked.id}`].status).toBe(200);
  });

  it('stops guessing after ten wrong passwords (429), and clearing the password opens the board', async () => {
    const target = board({ is_public: true });
    expect((await put('folders', target)).statusCode).toBe(200);
    expect((await setPassword(target.id, 'right')).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await guestRead(target.id, `guess ${i}`)).statusCode).toBe(401);
    expect((await guestRead(target.id, 'right')).statusCode).toBe(429);
    expect((await setPassword(target.id, null)).json().data).toEqual({ password_required: false });
    expect((await guestRead(target.id)).statusCode).toBe(200);
    // Eleven password checks (a memory-hard hash each): past 30 s on a loaded 2-core runner.
  }, 90_000);
});
