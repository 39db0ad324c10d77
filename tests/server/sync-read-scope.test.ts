import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/**
 * Who reads which board's records (issues #3 and #6): members, a restricted member kept out of a
 * private board, a signed-in person outside the workspace and an anonymous visitor, against a
 * public board, a public board with a password and a private board — on /changes with and without
 * board_id and on the index loads.
 */
describe('sync read scope', () => {
  let server: TestServer;
  let t: TeamFixture;
  const boards = {
    open: board({ name: 'Open board', is_public: true }),
    locked: board({ name: 'Locked board', is_public: true }),
    secret: board({ name: 'Secret board', hidden: true }),
  };
  type BoardName = keyof typeof boards;
  const names = Object.keys(boards) as BoardName[];
  /** The one item on each board, named after it. */
  const itemName = (b: BoardName) => `${b} item`;
  type Reader = 'full' | 'restricted' | 'stranger' | 'anonymous';
  const tokenOf = (who: Reader) => (who === 'anonymous' ? undefined : t[who].token);
  const get = (who: Reader, url: string, password?: string) =>
    api(server.app, 'GET', `/api/${t.teamId}/${url}`, {
      token: tokenOf(who),
      headers: password === undefined ? {} : { 'x-authorization-password': encodeURIComponent(password) },
    });
  /** Which boards' records an answer holds (by board_id of every record or change). */
  const boardsIn = (records: { board_id?: string }[]) =>
    names.filter((b) => records.some((r) => r.board_id === boards[b].id));
  const changed = (body: { data: { record: { board_id?: string } | null }[] }) => body.data.map((c) => c.record).filter((r): r is { board_id?: string } => r !== null);

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    const put = (route: string, body: Record<string, unknown>) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${String(body.id)}`, { token: t.owner.token, body });
    // The secret board lists its members: the restricted member is not one of them.
    Object.assign(boards.secret, { user_ids: [t.owner.user.id, t.full.user.id] });
    for (const b of names) {
      expect((await put('folders', boards[b])).statusCode).toBe(200);
      expect((await put('items', item(boards[b].id, { name: itemName(b) }))).statusCode).toBe(200);
    }
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/boards/${boards.locked.id}/password`, { token: t.owner.token, body: { password: 'sesame' } });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => server.close());

  describe('the workspace-wide feed (/changes without board_id)', () => {
    it('gives a member every board they may view, password or not', async () => {
      const res = await get('full', 'changes?after=0');
      expect(res.statusCode, res.body).toBe(200);
      expect(boardsIn(changed(res.json()))).toEqual(['open', 'locked', 'secret']);
    });

    it('gives a restricted member the boards they may view, not the private one', async () => {
      const res = await get('restricted', 'changes?after=0');
      expect(res.statusCode, res.body).toBe(200);
      const records = changed(res.json());
      expect(boardsIn(records)).toEqual(['open', 'locked']);
      expect(JSON.stringify(res.json())).not.toContain('Secret board');
      expect(JSON.stringify(res.json())).not.toContain(boards.secret.id);
    });

    it('refuses a signed-in person outside the workspace (403), with or without a password', async () => {
      for (const password of [undefined, 'sesame']) {
        const res = await get('stranger', 'changes?after=0', password);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.body).not.toContain('Locked board');
        expect(res.body).not.toContain(itemName('locked'));
      }
    });

    it('refuses an anonymous visitor (401)', async () => {
      for (const password of [undefined, 'sesame']) {
        const res = await get('anonymous', 'changes?after=0', password);
        expect(res.statusCode, res.body).toBe(401);
      }
    });
  });

  describe('one board\'s feed (/changes?board_id=) and its index load', () => {
    /** The status of both reads of one board, and the item names they answered. */
    const readBoard = async (who: Reader, b: BoardName, password?: string) => {
      const changes = await get(who, `changes?after=0&board_id=${boards[b].id}`, password);
      const index = await get(who, `items?board_id=${boards[b].id}`, password);
      expect(index.statusCode, index.body).toBe(changes.statusCode);
      const ok = changes.statusCode === 200;
      return {
        status: changes.statusCode,
        type: ok ? null : changes.json().type,
        items: ok ? [...changed(changes.json()), ...index.json().data].map((r) => (r as { name?: string }).name).filter((n) => n?.endsWith('item')) : [],
      };
    };

    it('lets members read every board they may view, without the password', async () => {
      for (const b of names) expect(await readBoard('full', b)).toEqual({ status: 200, type: null, items: [itemName(b), itemName(b)] });
      expect(await readBoard('restricted', 'open')).toMatchObject({ status: 200 });
      expect(await readBoard('restricted', 'locked')).toMatchObject({ status: 200, items: [itemName('locked'), itemName('locked')] });
      expect(await readBoard('restricted', 'secret')).toMatchObject({ status: 403, items: [] });
    });

    for (const who of ['stranger', 'anonymous'] as const) {
      const refused = who === 'stranger' ? 403 : 401;
      it(`lets ${who === 'stranger' ? 'a signed-in outsider' : 'an anonymous visitor'} read a public board, a protected one only with its password, never a private one`, async () => {
        expect(await readBoard(who, 'open')).toEqual({ status: 200, type: null, items: [itemName('open'), itemName('open')] });
        expect(await readBoard(who, 'locked')).toMatchObject({ status: 401, type: 'board_password_required', items: [] });
        expect(await readBoard(who, 'locked', 'wrong')).toMatchObject({ status: 401, type: 'board_password_wrong', items: [] });
        expect(await readBoard(who, 'locked', 'sesame')).toEqual({ status: 200, type: null, items: [itemName('locked'), itemName('locked')] });
        expect(await readBoard(who, 'secret')).toMatchObject({ status: refused, items: [] });
        expect(await readBoard(who, 'secret', 'sesame')).toMatchObject({ status: refused, items: [] });
      });
    }
  });

  describe('the workspace-wide folder index (/folders without board_id)', () => {
    const boardNames = (body: { data: { id: string; parent_id: string | null; board_id: string }[] }) => boardsIn(body.data);

    it('lists every viewable board to members', async () => {
      expect(boardNames((await get('full', 'folders')).json())).toEqual(['open', 'locked', 'secret']);
      expect(boardNames((await get('restricted', 'folders')).json())).toEqual(['open', 'locked']);
    });

    it('lists to a signed-in outsider the public boards without a password only', async () => {
      for (const password of [undefined, 'sesame']) {
        const res = await get('stranger', 'folders', password);
        expect(res.statusCode, res.body).toBe(200);
        expect(boardNames(res.json())).toEqual(['open']);
        expect(res.body).not.toContain('Locked board');
      }
    });

    it('refuses an anonymous visitor (401)', async () => {
      expect((await get('anonymous', 'folders')).statusCode).toBe(401);
    });

    it('reads a protected board\'s folders for a guest only through that board, with its password', async () => {
      const res = await get('stranger', `folders?board_id=${boards.locked.id}`, 'sesame');
      expect(res.statusCode, res.body).toBe(200);
      expect(boardNames(res.json())).toEqual(['locked']);
    });
  });

  it('unlocking one protected board opens no other for a guest', async () => {
    // A second protected board: unlocking one board must not open the other.
    const other = board({ name: 'Other locked', is_public: true });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${other.id}`, { token: t.owner.token, body: other })).statusCode).toBe(200);
    await api(server.app, 'PUT', `/api/${t.teamId}/boards/${other.id}/password`, { token: t.owner.token, body: { password: 'sesame' } });
    const res = await get('stranger', 'folders', 'sesame');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((f: { id: string }) => f.id)).toEqual([boards.open.id]);
    const one = await get('stranger', `changes?after=0&board_id=${other.id}`, 'sesame');
    expect(one.statusCode, one.body).toBe(200);
    expect(new Set(changed(one.json()).map((r) => r.board_id))).toEqual(new Set([other.id]));
  });
});

/**
 * Hidden folders on /changes and on reactions (decision 0090): no record of a folder the reader
 * may not see, and not its id either — a trashed item's tombstone, a removed value's tombstone or
 * a reaction on a hidden comment would otherwise name it.
 */
describe('sync read scope: hidden folders leave no ids', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Board with a hidden folder' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  const open = folder(b.id, { name: 'Open' });
  const secretItem = item(b.id, { folder_id: hidden.id, name: 'SECRET item' });
  const openItem = item(b.id, { folder_id: open.id, name: 'Open item' });
  const text = attribute(b.id, { name: 'Notes' });
  const secretValue = value(b.id, secretItem.id, text.id, 'SECRET value');
  const openValue = value(b.id, openItem.id, text.id, 'open value');
  const comment = (itemId: string) => ({ id: newId(), board_id: b.id, item_id: itemId, text: { html: '<p>comment</p>' }, row_version: 1 });
  const secretComment = comment(secretItem.id);
  const openComment = comment(openItem.id);
  const reaction = (commentId: string) => ({ id: newId(), board_id: b.id, comment_id: commentId, reaction: '🎉', row_version: 1 });
  const secretReaction = reaction(secretComment.id);
  const openReaction = reaction(openComment.id);
  const get = (url: string, token = t.full.token) => api(server.app, 'GET', `/api/${t.teamId}/${url}`, { token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    const records = [['folders', b], ['folders', hidden], ['folders', open], ['attributes', text], ['items', secretItem], ['items', openItem], ['values', secretValue], ['values', openValue], ['comments', secretComment], ['comments', openComment], ['comment-reaction', secretReaction], ['comment-reaction', openReaction]] as const;
    for (const [route, rec] of records) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token: t.owner.token, body: rec });
      expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('lists reactions only on comments the reader may read', async () => {
    const res = await get(`comment-reaction?board_id=${b.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: any) => r.id)).toEqual([openReaction.id]);
    expect(res.body).not.toContain(secretComment.id);
    const owner = await get(`comment-reaction?board_id=${b.id}`, t.owner.token);
    expect(owner.json().data.map((r: any) => r.id).sort()).toEqual([openReaction.id, secretReaction.id].sort());
  });

  it('never names a hidden record on /changes: not its trashed copy, not its tombstone', async () => {
    const cursor = (await get('changes?after=0')).json().cursor as number;
    for (const [route, id] of [['items', secretItem.id], ['values', secretValue.id], ['values', openValue.id]] as const) {
      const res = await api(server.app, 'DELETE', `/api/${t.teamId}/${route}/${id}`, { token: t.owner.token });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const after of [0, cursor]) {
      const res = await get(`changes?after=${after}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(secretItem.id);
      expect(res.body).not.toContain('SECRET');
    }
    // The open value's removal still reaches the member, and the owner hears of everything.
    const since = (await get(`changes?after=${cursor}`)).json().data;
    expect(since).toContainEqual({ collection: 'value', id: openValue.id, op: 'deleted', record: null });
    const owner = (await get(`changes?after=${cursor}`, t.owner.token)).json().data.map((c: any) => c.id);
    expect(owner).toEqual(expect.arrayContaining([secretItem.id, secretValue.id, openValue.id]));
  });
});
