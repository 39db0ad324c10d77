import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardJob } from '../../schema/board-jobs';
import type { Notification } from '../../schema/notifications';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { addMember, board, createTeam, folder, item, newId, teamWithRoles, type SignedIn, type TeamFixture } from './sync-fixtures';

/**
 * Security review finding N3 (../shared/reviews/security.md): moving a board exported its hidden
 * folders, and an emptied member list opened them to everyone in the target. Its steps, as a test:
 * a member may move only a board whose every record they may read; the owner may move any, and a
 * hidden folder stays private after the move; the source workspace's owner is told.
 */

describe('N3: moving a board', () => {
  let server: TestServer;
  let t: TeamFixture;

  async function put(route: string, body: Record<string, unknown>, who: SignedIn, teamId = t.teamId) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json().data as Record<string, any>;
  }
  const move = (teamId: number, boardId: string, to: number, who: SignedIn) => api(server.app, 'POST', `/api/${teamId}/boards/${boardId}/move`, { token: who.token, body: { team_id: to } });
  async function untilEnded(id: string, who: SignedIn): Promise<BoardJob> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      await server.ctx.jobs.drain();
      const job = (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: who.token })).json().data as BoardJob;
      if (job.finished_at || Date.now() > deadline) return job;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const names = async (teamId: number, boardId: string, who: SignedIn) => {
    const res = await api(server.app, 'GET', `/api/${teamId}/items?board_id=${boardId}`, { token: who.token });
    return res.statusCode === 200 ? (res.json().data as { name: string }[]).map((i) => i.name) : res.statusCode;
  };

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server?.close());

  it('the review’s steps: a member cannot take a board holding a folder hidden from them to their own workspace', async () => {
    // 1. M creates board BM; O adds hidden folder HF (owner only) with a secret item. M reads nothing of it.
    const bm = board({ name: 'BM' });
    await put('folders', bm, t.full);
    const hf = folder(bm.id, { name: 'HF', hidden: true, user_ids: [t.owner.user.id] });
    await put('folders', hf, t.owner);
    await put('items', item(bm.id, { folder_id: hf.id, name: 'SECRET item in hidden HF' }), t.owner);
    expect(await names(t.teamId, bm.id, t.full)).toEqual([]);
    // 2. M's own workspace; the move is refused, nothing moves.
    const tm = await createTeam(server.ctx, t.full.user.id);
    const refused = await move(t.teamId, bm.id, tm, t.full);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toContain('only the workspace owner');
    expect(await names(t.teamId, bm.id, t.owner)).toEqual(['SECRET item in hidden HF']);
    // 4. The same for an admin with a board O created (the admin is not in HF either).
    const bo = board({ name: 'BO' });
    await put('folders', bo, t.owner);
    await put('folders', folder(bo.id, { name: 'HF2', hidden: true, user_ids: [t.owner.user.id] }), t.owner);
    const ta = await createTeam(server.ctx, t.admin.user.id);
    expect((await move(t.teamId, bo.id, ta, t.admin)).statusCode).toBe(403);
    // Someone else's personal view is a record the mover may not read too.
    const bv = board({ name: 'BV' });
    await put('folders', bv, t.full);
    await put('folder-views', { id: newId(), board_id: bv.id, folder_id: bv.id, name: 'Mine', kind: 'table', visibility: 'personal', row_version: 1 }, t.owner);
    expect((await move(t.teamId, bv.id, tm, t.full)).statusCode).toBe(403);
  });

  it('a member moves a board they can read wholly, and the source workspace’s owner is told', async () => {
    const open = board({ name: 'Open board' });
    await put('folders', open, t.full);
    await put('items', item(open.id, { name: 'plain' }), t.full);
    const tm = await createTeam(server.ctx, t.full.user.id);
    const res = await move(t.teamId, open.id, tm, t.full);
    expect(res.statusCode, res.body).toBe(202);
    const job = await untilEnded(res.json().data.id, t.full);
    expect(job.state, job.error ?? '').toBe('done');
    expect(await names(tm, open.id, t.full)).toEqual(['plain']);
    const told = ((await api(server.app, 'GET', '/api/notifications?limit=100', { token: t.owner.token })).json().data as Notification[]).filter((n) => n.notification_type === 'board_moved');
    expect(told.map((n) => [n.board_name, n.team_id, n.created_by_name])).toEqual([['Open board', t.teamId, t.full.user.name]]);
  });

  it('the owner may move any board; a hidden folder whose people are not in the target stays owner only, never everyone', async () => {
    const bh = board({ name: 'BH' });
    await put('folders', bh, t.owner);
    // Hidden to everyone but M (a member of the source only).
    const hf = folder(bh.id, { name: 'HF', hidden: true, user_ids: [t.full.user.id] });
    await put('folders', hf, t.owner);
    await put('items', item(bh.id, { folder_id: hf.id, name: 'SECRET after the move' }), t.owner);
    // The target: owned by the owner, with the restricted member of the source as a full member.
    const target = await createTeam(server.ctx, t.owner.user.id);
    await addMember(server.ctx, target, t.restricted.user.id, 'full-member');
    const res = await move(t.teamId, bh.id, target, t.owner);
    expect(res.statusCode, res.body).toBe(202);
    expect((await untilEnded(res.json().data.id, t.owner)).state).toBe('done');
    const stored = await server.ctx.db.selectFrom('records').select('data').where('collection', '=', 'folder').where('id', '=', hf.id).executeTakeFirstOrThrow();
    expect(stored.data).toMatchObject({ hidden: true, user_ids: [t.owner.user.id] });
    expect(await names(target, bh.id, t.restricted), 'a member of the target does not see the hidden folder').toEqual([]);
    expect(await names(target, bh.id, t.owner)).toEqual(['SECRET after the move']);
    // The owner moved it: nobody else to tell.
    const told = ((await api(server.app, 'GET', '/api/notifications?limit=100', { token: t.owner.token })).json().data as Notification[]).filter((n) => n.notification_type === 'board_moved' && n.board_name === 'BH');
    expect(told).toHaveLength(0);
  });
});
