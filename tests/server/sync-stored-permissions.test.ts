import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/**
 * Permissions come from the stored record (docs/decisions/0091-permissions-from-stored-records.md):
 * the review's live probes (security review findings 3, 4, 11, 12, 15 and 17) replayed as tests.
 * A is the workspace owner; C is a full member who is not in hidden folder F's user_ids; G is open.
 */
describe('sync: permissions from stored records', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let hiddenF: ReturnType<typeof folder>;
  let openG: ReturnType<typeof folder>;
  let i1: ReturnType<typeof item>; // in F
  let i2: ReturnType<typeof item>; // in G
  let i3: ReturnType<typeof item>; // in G
  let attr: ReturnType<typeof attribute>;
  const commentOnI1 = newId();
  const commentOnI2 = newId();

  const put = (route: string, rec: { id: string; [k: string]: unknown }, token: string) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const del = (route: string, id: string, token: string) => api(server.app, 'DELETE', `/api/${t.teamId}/${route}/${id}`, { token });
  const A = () => t.owner.token;
  const C = () => t.full.token;
  const storedItem = async (id: string) => (await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: A() })).json().data.find((r: { id: string }) => r.id === id);

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    hiddenF = folder(b.id, { name: 'F', hidden: true, user_ids: [t.owner.user.id] });
    openG = folder(b.id, { name: 'G' });
    i1 = item(b.id, { folder_id: hiddenF.id, name: 'SECRET item one' });
    i2 = item(b.id, { folder_id: openG.id, name: 'open item two' });
    i3 = item(b.id, { folder_id: openG.id, name: 'open item three' });
    attr = attribute(b.id);
    for (const [route, rec] of [['folders', b], ['folders', hiddenF], ['folders', openG], ['items', i1], ['items', i2], ['items', i3], ['attributes', attr]] as const) {
      const res = await put(route, rec, A());
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await put('values', value(b.id, i1.id, attr.id, 'secret value'), A())).statusCode).toBe(200);
    expect((await put('comments', { id: commentOnI1, item_id: i1.id, text: { html: 'SECRET comment' } }, A())).statusCode).toBe(200);
    expect((await put('comments', { id: commentOnI2, item_id: i2.id, text: { html: 'open comment' } }, A())).statusCode).toBe(200);
    // Control: C may write in G.
    expect((await put('items', item(b.id, { folder_id: openG.id }), C())).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('refuses to move a hidden item into an open folder, whatever row_version is guessed', async () => {
    for (let version = 1; version <= 6; version += 1) {
      const res = await put('items', { ...i1, folder_id: openG.id, name: 'moved by C', row_version: version }, C());
      expect(res.statusCode, `row_version ${version}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain('SECRET');
    }
    expect(await storedItem(i1.id)).toMatchObject({ folder_id: hiddenF.id, name: 'SECRET item one', row_version: 1 });
    // Its value and comment stay out of C's reads.
    const values = await api(server.app, 'GET', `/api/${t.teamId}/values?board_id=${b.id}`, { token: C() });
    expect(values.body).not.toContain('secret value');
    const comments = await api(server.app, 'GET', `/api/${t.teamId}/comments/multiple?board_id=${b.id}`, { token: C() });
    expect(comments.body).not.toContain('SECRET comment');
  });

  it('checks the folder an item leaves and the one it enters (create and edit there)', async () => {
    // The owner may move an item out of F and back: both ends are theirs.
    const own = item(b.id, { folder_id: hiddenF.id });
    expect((await put('items', own, A())).statusCode).toBe(200);
    expect((await put('items', { ...own, folder_id: openG.id, row_version: 2 }, A())).statusCode).toBe(200);
    // C may edit it in G but not move it into F, where C cannot create or edit.
    expect((await put('items', { ...own, folder_id: openG.id, name: 'renamed by C', row_version: 3 }, C())).statusCode).toBe(200);
    expect((await put('items', { ...own, folder_id: hiddenF.id, row_version: 4 }, C())).statusCode).toBe(403);
    // A folder that refuses CREATE_ITEM to full members takes no item moved in by one, though it lets them edit.
    const noCreate = folder(b.id, { name: 'No new items', permissions: { 'CREATE_ITEM:role:full-member': 'deny' } });
    expect((await put('folders', noCreate, A())).statusCode).toBe(200);
    expect((await put('items', item(b.id, { folder_id: noCreate.id }), C())).statusCode).toBe(403);
    expect((await put('items', { ...own, folder_id: noCreate.id, row_version: 4 }, C())).statusCode).toBe(403);
    expect((await put('items', { ...own, folder_id: noCreate.id, row_version: 4 }, A())).statusCode).toBe(200);
  });

  it('checks a folder move at both ends too', async () => {
    // C may create folders in P but not edit folders there: C cannot move a folder of G into P.
    const p = folder(b.id, { name: 'P', permissions: { 'EDIT_FOLDER:role:full-member': 'deny' } });
    expect((await put('folders', p, A())).statusCode).toBe(200);
    const x = folder(b.id, { parent_id: openG.id, name: 'X' });
    expect((await put('folders', x, C())).statusCode).toBe(200);
    expect((await put('folders', { ...x, parent_id: p.id, row_version: 2 }, C())).statusCode).toBe(403);
    expect((await put('folders', { ...x, parent_id: hiddenF.id, row_version: 2 }, C())).statusCode).toBe(403);
    expect((await put('folders', { ...x, name: 'X renamed', row_version: 2 }, C())).statusCode).toBe(200);
    expect((await put('folders', { ...x, name: 'X renamed', parent_id: p.id, row_version: 3 }, A())).statusCode).toBe(200);
  });

  it('refuses a folder_id on a comment, reaction or value (unknown field), and without it the hidden item decides', async () => {
    const comment = { id: newId(), item_id: i1.id, text: { html: 'comment by C' } };
    const planted = await put('comments', { ...comment, folder_id: openG.id }, C());
    expect(planted.statusCode, planted.body).toBe(422);
    expect(planted.json()).toMatchObject({ type: 'validation', message: 'Validation Error: folder_id: unknown field' });
    expect((await put('comments', comment, C())).statusCode).toBe(403);

    const reaction = { id: newId(), comment_id: commentOnI1, reaction: '👍' };
    expect((await put('comment-reaction', { ...reaction, folder_id: openG.id }, C())).statusCode).toBe(422);
    expect((await put('comment-reaction', reaction, C())).statusCode).toBe(403);

    const overwrite = value(b.id, i1.id, attr.id, 'overwritten by C via folder_id', { row_version: 2 });
    const res = await put('values', { ...overwrite, folder_id: openG.id }, C());
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toEqual(['folder_id: unknown field']);
    expect((await put('values', overwrite, C())).statusCode).toBe(403);
    // Every unknown field is named, and nothing is stored.
    const junk = await put('items', { ...item(b.id, { folder_id: openG.id }), junk: 'x'.repeat(1000), colour: 'red' }, C());
    expect(junk.statusCode).toBe(422);
    expect(junk.json().data).toEqual(['junk, colour: unknown fields']);
    const ownerValues = await api(server.app, 'GET', `/api/${t.teamId}/values?board_id=${b.id}`, { token: A() });
    expect(ownerValues.json().data.find((v: { item_id: string }) => v.item_id === i1.id)).toMatchObject({ value: 'secret value', row_version: 1 });
  });

  it('bounds the free-form settings of an attribute and a view (a megabyte of junk is a 422)', async () => {
    const huge = { junk: 'x'.repeat(1024 * 1024) };
    const bloated = await put('attributes', attribute(b.id, { settings: huge }), A());
    expect(bloated.statusCode).toBe(422);
    expect(bloated.body).toContain('settings may hold at most 256 KB');
    const view = { id: newId(), folder_id: b.id, name: 'Big', kind: 'table', settings: huge };
    expect((await put('folder-views', view, A())).statusCode).toBe(422);
    expect((await put('attributes', attribute(b.id, { settings: { note: 'a small extra key is the kind’s business' } }), A())).statusCode).toBe(200);
  });

  it('still accepts the server-owned fields a client sends back from the copy it read', async () => {
    const read = (await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: C() })).json().data.find((r: { id: string }) => r.id === i3.id);
    expect(read).toHaveProperty('created_by');
    const res = await put('items', { ...read, name: 'renamed from the read copy', row_version: read.row_version + 1 }, C());
    expect(res.statusCode, res.body).toBe(200);
    const v = value(b.id, i3.id, attr.id, 'x', { deleted_at: null, team_id: t.teamId, created_at: new Date().toISOString() });
    expect((await put('values', v, C())).statusCode).toBe(200);
  });

  it('lets a client send back a field stored before schemas were strict, and drops it', async () => {
    const legacy = item(b.id, { folder_id: openG.id });
    expect((await put('items', legacy, A())).statusCode).toBe(200);
    await sql`update records set data = data || ${JSON.stringify({ colour: 'red' })}::jsonb where collection = 'item' and id = ${legacy.id}`.execute(server.ctx.db);
    const read = await storedItem(legacy.id);
    expect(read).toMatchObject({ colour: 'red' });
    // A new unknown field is still refused, next to the legacy one.
    const more = await put('items', { ...read, icon: 'star', row_version: read.row_version + 1 }, C());
    expect(more.statusCode).toBe(422);
    expect(more.json().data).toEqual(['icon: unknown field']);
    const res = await put('items', { ...read, name: 'edited copy', row_version: read.row_version + 1 }, C());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).not.toHaveProperty('colour');
    expect(await storedItem(legacy.id)).not.toHaveProperty('colour');
  });

  it('takes a child record’s folder from its stored parent on delete (a planted folder_id counts for nothing)', async () => {
    // A value stored before this rule with a planted folder_id, as the review left one.
    const id = `${i1.id}.${attr.id}`;
    await sql`update records set data = data || ${JSON.stringify({ folder_id: openG.id })}::jsonb where collection = 'value' and id = ${id}`.execute(server.ctx.db);
    expect((await del('values', id, C())).statusCode).toBe(403);
    const comment = `${commentOnI1}`;
    await sql`update records set data = data || ${JSON.stringify({ folder_id: openG.id })}::jsonb where collection = 'comment' and id = ${comment}`.execute(server.ctx.db);
    expect((await del('comments', comment, C())).statusCode).toBe(403);
    // The owner still can.
    expect((await del('values', id, A())).statusCode).toBe(200);
  });

  it('judges a child record’s delete where its parent is now', async () => {
    // C comments on an open item; the owner then moves the item into F: C's comment went with it.
    const mine = { id: newId(), item_id: i3.id, text: { html: 'mine' } };
    expect((await put('comments', mine, C())).statusCode).toBe(200);
    const reaction = { id: newId(), comment_id: mine.id, reaction: '🎉' };
    expect((await put('comment-reaction', reaction, C())).statusCode).toBe(200);
    const current = await storedItem(i3.id);
    expect((await put('items', { ...current, folder_id: hiddenF.id, row_version: current.row_version + 1 }, A())).statusCode).toBe(200);
    expect((await del('comment-reaction', reaction.id, C())).statusCode).toBe(403);
    expect((await del('comments', mine.id, C())).statusCode).toBe(403);
    const back = await storedItem(i3.id);
    expect((await put('items', { ...back, folder_id: openG.id, row_version: back.row_version + 1 }, A())).statusCode).toBe(200);
    expect((await del('comment-reaction', reaction.id, C())).statusCode).toBe(200);
    expect((await del('comments', mine.id, C())).statusCode).toBe(200);
  });

  it('lets only the author move a comment to another item', async () => {
    const moved = { id: commentOnI2, item_id: i3.id, text: { html: 'open comment' }, row_version: 2 };
    expect((await put('comments', moved, C())).statusCode).toBe(403);
    const res = await put('comments', moved, A());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ item_id: i3.id });
    // Nor into a hidden item, even for its author: C's own comment cannot follow I1 into F.
    const mine = { id: newId(), item_id: i2.id, text: { html: 'mine' } };
    expect((await put('comments', mine, C())).statusCode).toBe(200);
    expect((await put('comments', { ...mine, item_id: i1.id, row_version: 2 }, C())).statusCode).toBe(403);
  });

  it('PUT /api/users refuses a non-manager before it looks anything up', async () => {
    const users = (body: unknown, token: string) => api(server.app, 'PUT', '/api/users', { token, body });
    const forbidden = [
      { board_id: b.id, user_ids: [t.full.user.id] },
      { board_id: b.id, user_ids: [987654] },
      { board_id: 'no-such-board', user_ids: [] },
      { board_id: 'no-such-board', user_ids: [987654] },
      { board_id: hiddenF.id, user_ids: [] }, // a folder, not a board
    ];
    for (const body of forbidden) {
      // A full member manages board members by default (MANAGE_BOARD_MEMBERS); these two do not.
      for (const token of [t.restricted.token, t.stranger.token]) {
        const res = await users(body, token);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ message: 'This action is unauthorized.', type: 'unauthorized' });
      }
    }
    // A manager of the board learns the rest.
    expect((await users({ board_id: b.id, user_ids: [987654] }, t.admin.token)).statusCode).toBe(422);
    expect((await users({ board_id: 'no-such-board', user_ids: [] }, t.admin.token)).statusCode).toBe(403);
    expect((await users({ board_id: b.id, user_ids: [t.owner.user.id, t.full.user.id] }, t.admin.token)).statusCode).toBe(200);
  });

  it('accepts only http:, https: and mailto: for button and attachment addresses', async () => {
    const button = (url: string) => attribute(b.id, { kind: 'button', settings: { label: 'Go', url } });
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'file:///etc/passwd']) {
      const res = await put('attributes', button(url), A());
      expect(res.statusCode, url).toBe(422);
      expect(res.json().data).toEqual(['settings.url: a link must start with http:, https: or mailto:']);
    }
    for (const url of ['https://example.com/a?b=c', 'http://example.com', 'mailto:someone@example.com', '']) {
      expect((await put('attributes', button(url), A())).statusCode, url).toBe(200);
    }
    const files = attribute(b.id, { kind: 'attachments' });
    expect((await put('attributes', files, A())).statusCode).toBe(200);
    const attachment = (url: string) => ({ id: 'f1', name: 'a.pdf', size: 3, url });
    const bad = await put('values', value(b.id, i2.id, files.id, [attachment('javascript:alert(document.domain)')]), C());
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data).toEqual(['a link must start with http:, https: or mailto:']);
    // An upload's own address is relative to the app (https or http), so it passes.
    const ok = await put('values', value(b.id, i2.id, files.id, [attachment('/api/files/attachments/abc.bin'), attachment('https://example.com/x.pdf')]), C());
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('accepts a DELETE with Content-Type: application/json and an empty body', async () => {
    const doomed = item(b.id, { folder_id: openG.id });
    expect((await put('items', doomed, C())).statusCode).toBe(200);
    const res = await server.app.inject({ method: 'DELETE', url: `/api/${t.teamId}/items/${doomed.id}`, headers: { authorization: `Bearer ${C()}`, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode, res.body).toBe(200);
    // Any route: the body-less DELETE of the profile photo too.
    const photo = await server.app.inject({ method: 'DELETE', url: '/api/me/photo', headers: { authorization: `Bearer ${C()}`, 'content-type': 'application/json; charset=utf-8' }, payload: '' });
    expect(photo.statusCode, photo.body).toBeLessThan(300);
    // A body that is there is still parsed, and refused when it is not JSON or poisons prototypes.
    const broken = await server.app.inject({ method: 'PUT', url: `/api/${t.teamId}/items/${newId()}`, headers: { authorization: `Bearer ${C()}`, 'content-type': 'application/json' }, payload: '{"id":' });
    expect(broken.statusCode).toBe(400);
    const proto = await server.app.inject({ method: 'PUT', url: `/api/${t.teamId}/items/${newId()}`, headers: { authorization: `Bearer ${C()}`, 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
    expect(proto.statusCode).toBe(400);
  });
});
