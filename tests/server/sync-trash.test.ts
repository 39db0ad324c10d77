import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/** DELETE: items, folders and attributes go to the trash and come back; others are removed. */
describe('sync: trash, restore, permanent delete', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board();
    expect((await put('folders', b)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('moves an item to the trash (version + 1, deleted_at), hides it from the index, lists it in the trash', async () => {
    const rec = item(b.id);
    await put('items', rec);
    const del = await api(server.app, 'DELETE', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().data).toMatchObject({ id: rec.id, row_version: 2 });
    expect(del.json().data.deleted_at).toEqual(expect.any(String));

    const index = await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.owner.token });
    expect(index.json().data.map((r: any) => r.id)).not.toContain(rec.id);
    const trash = await api(server.app, 'GET', `/api/${t.teamId}/trash?board_id=${b.id}`, { token: t.owner.token });
    expect(trash.json().data).toEqual([expect.objectContaining({ collection: 'item', id: rec.id })]);

    // Editing a trashed copy is a conflict that hands back the trashed record.
    const edit = await put('items', { ...rec, row_version: 3 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().data.deleted_at).toEqual(expect.any(String));

    const restored = await api(server.app, 'POST', `/api/${t.teamId}/items/${rec.id}/restore`, { token: t.full.token });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data).toMatchObject({ id: rec.id, row_version: 3, deleted_at: null });
    const again = await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.owner.token });
    expect(again.json().data.map((r: any) => r.id)).toContain(rec.id);
  });

  it('permanently deletes a trashed item with its values (MANAGE_TRASH), refused to a full member', async () => {
    const attr = attribute(b.id);
    const rec = item(b.id);
    await put('attributes', attr);
    await put('items', rec);
    const v = value(b.id, rec.id, attr.id, 'x');
    expect((await put('values', v)).statusCode).toBe(200);
    await api(server.app, 'DELETE', `/api/${t.teamId}/items/${rec.id}`, { token: t.owner.token });

    const refused = await api(server.app, 'DELETE', `/api/${t.teamId}/items/${rec.id}?permanent=1`, { token: t.full.token });
    expect(refused.statusCode).toBe(403);
    const gone = await api(server.app, 'DELETE', `/api/${t.teamId}/items/${rec.id}?permanent=1`, { token: t.owner.token });
    expect(gone.statusCode, gone.body).toBe(200);
    const left = await server.ctx.db.selectFrom('records').select('id').where('id', 'in', [rec.id, v.id]).execute();
    expect(left).toEqual([]);
    const restore = await api(server.app, 'POST', `/api/${t.teamId}/items/${rec.id}/restore`, { token: t.owner.token });
    expect(restore.statusCode).toBe(404);
  });

  it('removes a value outright (no trash) and answers 404 for an unknown record', async () => {
    const attr = attribute(b.id);
    const rec = item(b.id);
    await put('attributes', attr);
    await put('items', rec);
    const v = value(b.id, rec.id, attr.id, 'one');
    await put('values', v);
    const del = await api(server.app, 'DELETE', `/api/${t.teamId}/values/${v.id}`, { token: t.full.token });
    expect(del.statusCode).toBe(200);
    expect(await server.ctx.db.selectFrom('records').select('id').where('id', '=', v.id).executeTakeFirst()).toBeUndefined();
    const missing = await api(server.app, 'DELETE', `/api/${t.teamId}/values/${v.id}`, { token: t.full.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Not Found' });
  });

  it('trashes a folder and attributes too; an item cannot be restored into a trashed folder', async () => {
    const f = folder(b.id);
    await put('folders', f);
    const rec = item(b.id, { folder_id: f.id });
    expect((await put('items', rec)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${rec.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const inside = item(b.id, { folder_id: f.id });
    expect((await put('items', inside)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folders/${f.id}`, { token: t.owner.token })).statusCode).toBe(200);
    // The folder's live content stays in index loads, so clients have it when the folder comes back.
    const index = await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.full.token });
    expect(index.json().data.map((r: any) => r.id)).toContain(inside.id);
    const blocked = await api(server.app, 'POST', `/api/${t.teamId}/items/${rec.id}/restore`, { token: t.owner.token });
    expect(blocked.statusCode).toBe(422);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/folders/${f.id}/restore`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/items/${rec.id}/restore`, { token: t.owner.token })).statusCode).toBe(200);

    const attr = attribute(b.id);
    await put('attributes', attr);
    const del = await api(server.app, 'DELETE', `/api/${t.teamId}/attributes/${attr.id}`, { token: t.owner.token });
    expect(del.json().data.deleted_at).toEqual(expect.any(String));
  });

  it('lists a trashed board in the team trash and restores it', async () => {
    const b2 = board({ name: 'Old' });
    await put('folders', b2);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folders/${b2.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const trash = await api(server.app, 'GET', `/api/${t.teamId}/trash`, { token: t.owner.token });
    expect(trash.json().data.map((r: any) => r.id)).toContain(b2.id);
    const folders = await api(server.app, 'GET', `/api/${t.teamId}/folders`, { token: t.owner.token });
    expect(folders.json().data.map((r: any) => r.id)).not.toContain(b2.id);
    const restored = await api(server.app, 'POST', `/api/${t.teamId}/folders/${b2.id}/restore`, { token: t.owner.token });
    expect(restored.statusCode, restored.body).toBe(200);
  });
});

/** The trash list answers through the read rule (decision 0090): nothing of a folder the reader may not see. */
describe('sync: the trash list and the read scope', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Public board', is_public: true });
  const hidden = folder(b.id, { name: 'Hidden folder', hidden: true });
  const open = folder(b.id, { name: 'Open folder' });
  const inHidden = item(b.id, { folder_id: hidden.id, name: 'SECRET trashed item' });
  const inOpen = item(b.id, { folder_id: open.id, name: 'Open trashed item' });
  const subOfHidden = folder(b.id, { parent_id: hidden.id, name: 'SECRET subfolder' });
  const trashList = (token?: string) => api(server.app, 'GET', `/api/${t.teamId}/trash?board_id=${b.id}`, token ? { token } : {});

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    for (const [route, rec] of [['folders', b], ['folders', hidden], ['folders', open], ['folders', subOfHidden], ['items', inHidden], ['items', inOpen]] as const) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token: t.owner.token, body: rec });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const [route, id] of [['items', inHidden.id], ['items', inOpen.id], ['folders', subOfHidden.id]] as const) {
      const res = await api(server.app, 'DELETE', `/api/${t.teamId}/${route}/${id}`, { token: t.owner.token });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('shows a member kept out of a hidden folder only what they may read', async () => {
    const res = await trashList(t.full.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: any) => r.id)).toEqual([inOpen.id]);
    expect(res.body).not.toContain('SECRET');
  });

  it('shows the owner everything in it', async () => {
    const res = await trashList(t.owner.token);
    expect(res.json().data.map((r: any) => r.id).sort()).toEqual([inHidden.id, inOpen.id, subOfHidden.id].sort());
  });

  it('is for workspace members only: a visitor of the public board gets 403, an anonymous one 401', async () => {
    expect((await trashList(t.stranger.token)).statusCode).toBe(403);
    expect((await trashList()).statusCode).toBe(401);
  });

  it('keeps a trashed hidden folder hiding its content on every read', async () => {
    const gone = folder(b.id, { name: 'Hidden, then trashed', hidden: true, user_ids: [t.owner.user.id] });
    const inside = item(b.id, { folder_id: gone.id, name: 'SECRET inside a trashed folder' });
    for (const [route, rec] of [['folders', gone], ['items', inside]] as const) {
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token: t.owner.token, body: rec })).statusCode).toBe(200);
    }
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/folders/${gone.id}`, { token: t.owner.token })).statusCode).toBe(200);
    for (const url of [`items?board_id=${b.id}`, `changes?after=0`, `trash?board_id=${b.id}`]) {
      const res = await api(server.app, 'GET', `/api/${t.teamId}/${url}`, { token: t.full.token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body, url).not.toContain(inside.id);
      expect(res.body, url).not.toContain(gone.id);
    }
  });
});
