import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, newId, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Comments and reactions through the registry (workspace.md §7 bodies), sanitised html. */
describe('comments', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let i: ReturnType<typeof item>;
  const putComment = (id: string, body: Record<string, unknown>, token: string) => api(server.app, 'PUT', `/api/${t.teamId}/comments/${id}`, { token, body });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    i = item(b.id);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${i.id}`, { token: t.owner.token, body: i })).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('saves the spec body {text:{html}, board_id, item_id, parent_id} with sanitised html', async () => {
    const id = newId();
    const res = await putComment(id, { text: { html: '<p onclick="steal()">Hello <b>team</b><script>alert(1)</script><a href="javascript:x()">x</a></p>' }, board_id: b.id, item_id: i.id, parent_id: null }, t.restricted.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ id, row_version: 1, item_id: i.id, created_by: t.restricted.user.id, pinned: false });
    expect(data.text.html).toContain('<b>team</b>');
    expect(data.text.html).not.toMatch(/script|onclick|javascript:/);
  });

  it('refuses an empty comment and a reply to a comment that does not exist', async () => {
    const empty = await putComment(newId(), { text: { html: '<script>x</script>' }, board_id: b.id, item_id: i.id, parent_id: null }, t.full.token);
    expect(empty.statusCode).toBe(422);
    const orphan = await putComment(newId(), { text: { html: 'hi' }, board_id: b.id, item_id: i.id, parent_id: 'nope' }, t.full.token);
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().data[0]).toMatch(/^parent_id:/);
  });

  it('lets only the author rewrite a comment; pinning needs PIN_COMMENT', async () => {
    const id = newId();
    const base = { text: { html: 'original' }, board_id: b.id, item_id: i.id, parent_id: null };
    expect((await putComment(id, base, t.full.token)).statusCode).toBe(200);
    expect((await putComment(id, { ...base, text: { html: 'rewritten' }, row_version: 2 }, t.admin.token)).statusCode).toBe(403);
    expect((await putComment(id, { ...base, pinned: true, row_version: 2 }, t.restricted.token)).statusCode).toBe(403);
    const pinned = await putComment(id, { ...base, pinned: true, row_version: 2 }, t.admin.token);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.json().data.pinned).toBe(true);
    expect((await putComment(id, { ...base, pinned: true, text: { html: 'mine to fix' }, row_version: 3 }, t.full.token)).statusCode).toBe(200);
  });

  it('reacts with {comment_id, reaction}; only the reacting user removes it', async () => {
    const commentId = newId();
    await putComment(commentId, { text: { html: 'react to me' }, board_id: b.id, item_id: i.id, parent_id: null }, t.owner.token);
    const reactionId = newId();
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/comment-reaction/${reactionId}`, { token: t.restricted.token, body: { comment_id: commentId, reaction: '👍' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: reactionId, comment_id: commentId, reaction: '👍', user_id: t.restricted.user.id, board_id: b.id });
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/comment-reaction/${reactionId}`, { token: t.full.token })).statusCode).toBe(403);
    // The same reaction again (another device, offline) is refused rather than doubled.
    const twin = await api(server.app, 'PUT', `/api/${t.teamId}/comment-reaction/${newId()}`, { token: t.restricted.token, body: { comment_id: commentId, reaction: '👍' } });
    expect(twin.statusCode).toBe(422);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/comment-reaction/${newId()}`, { token: t.stranger.token, body: { comment_id: commentId, reaction: '👎' } })).statusCode).toBe(403);

    const multiple = await api(server.app, 'GET', `/api/${t.teamId}/comments/multiple?item_ids=${i.id}`, { token: t.full.token });
    expect(multiple.statusCode).toBe(200);
    expect(multiple.json().data.map((c: any) => c.id)).toContain(commentId);
    expect(multiple.json().reactions.map((r: any) => r.id)).toEqual([reactionId]);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/comment-reaction/${reactionId}`, { token: t.restricted.token })).statusCode).toBe(200);
  });

  it('deleting a comment removes its replies and reactions; comments/multiple needs item_ids', async () => {
    const parent = newId();
    const reply = newId();
    await putComment(parent, { text: { html: 'parent' }, board_id: b.id, item_id: i.id, parent_id: null }, t.full.token);
    await putComment(reply, { text: { html: 'reply' }, board_id: b.id, item_id: i.id, parent_id: parent }, t.full.token);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/comments/${parent}`, { token: t.full.token })).statusCode).toBe(200);
    expect(await server.ctx.db.selectFrom('records').select('id').where('id', 'in', [parent, reply]).execute()).toEqual([]);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/comments/multiple`, { token: t.full.token })).statusCode).toBe(422);
  });
  it('keeps a mention <span data-mention="{userId}"> through sanitising, and drops a data-mention that is not a user id', async () => {
    const id = newId();
    const html = `<p>Hi <span data-mention="${t.full.user.id}" onclick="x()">@Full</span> and <span data-mention="1 onmouseover=x">@Bad</span> <span data-foo="1">x</span></p>`;
    const res = await putComment(id, { text: { html }, board_id: b.id, item_id: i.id, parent_id: null }, t.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const stored = res.json().data.text.html as string;
    expect(stored).toContain(`<span data-mention="${t.full.user.id}">@Full</span>`);
    expect(stored).toContain('<span>@Bad</span>');
    expect(stored).not.toMatch(/onclick|onmouseover|data-foo/);
    // What others read back (comments/multiple) is the same stored html.
    const multiple = await api(server.app, 'GET', `/api/${t.teamId}/comments/multiple?item_ids=${i.id}`, { token: t.full.token });
    expect(multiple.json().data.find((c: any) => c.id === id).text.html).toBe(stored);
  });
  it('marks a comment edited (edited_at, server-owned) when its text changes, not when it is pinned', async () => {
    const id = newId();
    const base = { text: { html: 'first words' }, board_id: b.id, item_id: i.id, parent_id: null };
    const created = await putComment(id, { ...base, edited_at: '2020-01-01T00:00:00Z' }, t.owner.token);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.edited_at).toBeNull();
    const pinned = await putComment(id, { ...base, pinned: true, row_version: 1 }, t.owner.token);
    expect(pinned.json().data.edited_at).toBeNull();
    const edited = await putComment(id, { ...base, pinned: true, text: { html: 'second words' }, row_version: 2 }, t.owner.token);
    expect(edited.statusCode, edited.body).toBe(200);
    const editedAt = edited.json().data.edited_at;
    expect(Date.parse(editedAt)).toBeGreaterThan(Date.parse('2025-01-01T00:00:00Z'));
    const unpinned = await putComment(id, { ...base, text: { html: 'second words' }, pinned: false, edited_at: null, row_version: 3 }, t.owner.token);
    expect(unpinned.json().data.edited_at).toBe(editedAt);
  });
});
