import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/**
 * GET /api/{teamId}/activity (issue #11.7, decision 0110): the activity log from the domain
 * events, newest first, filtered by the read rule; the board's needs VIEW_ACTIVITY_LOG.
 */
describe('activity log API', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board();
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  const text = attribute(b.id, { name: 'Notes' });
  const openItem = item(b.id, { name: 'Open' });
  const secretItem = item(b.id, { folder_id: hidden.id, name: 'SECRET' });
  const get = (query: string, token = t.full.token) => api(server.app, 'GET', `/api/${t.teamId}/activity?${query}`, { token });
  const put = (route: string, rec: Record<string, unknown> & { id: string }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    for (const [route, rec] of [['folders', b], ['folders', hidden], ['attributes', text], ['items', openItem], ['items', secretItem]] as const) {
      expect((await put(route, rec)).statusCode).toBe(200);
    }
    expect((await put('values', value(b.id, openItem.id, text.id, 'first'), t.full.token)).statusCode).toBe(200);
    expect((await put('values', value(b.id, openItem.id, text.id, 'second', { row_version: 2 }), t.full.token)).statusCode).toBe(200);
    expect((await put('values', value(b.id, secretItem.id, text.id, 'SECRET value'))).statusCode).toBe(200);
    expect((await put('items', { ...openItem, name: 'Open renamed', row_version: 2 }, t.full.token)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it("an item's activity: every change on it, newest first, field by field", async () => {
    const res = await get(`item_id=${openItem.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ after: null, has_more: false });
    expect(body.data.map((e: any) => e.type)).toEqual(['item.updated', 'value.updated', 'value.created', 'item.created']);
    expect(body.data[0]).toMatchObject({ item_id: openItem.id, board_id: b.id, actor_id: t.full.user.id, before: { name: 'Open' }, after: { name: 'Open renamed' }, created_at: expect.any(String) });
    expect(body.data[1]).toMatchObject({ collection: 'value', before: { value: 'first' }, after: { value: 'second' } });
    expect(body.data[0].team_id).toBeUndefined();
  });

  it("the board's activity leaves out what the reader may not read", async () => {
    const res = await get(`board_id=${b.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(secretItem.id);
    expect(res.body).not.toContain(hidden.id);
    expect(res.body).not.toContain('SECRET');
    const owner = await get(`board_id=${b.id}`, t.owner.token);
    expect(owner.body).toContain(secretItem.id);
    expect(owner.body).toContain('SECRET value');
    // An item the reader may not read: refused, not an empty list.
    expect((await get(`item_id=${secretItem.id}`)).statusCode).toBe(403);
  });

  it('pages with after/has_more without gaps or repeats, and filters by person and time', async () => {
    const all = (await get(`board_id=${b.id}`, t.owner.token)).json().data.map((e: any) => e.id);
    const pages: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page: any = (await get(`board_id=${b.id}&limit=2${after ? `&after=${after}` : ''}`, t.owner.token)).json();
      pages.push(...page.data.map((e: any) => e.id));
      if (!page.has_more) break;
      expect(page.data).toHaveLength(2);
      after = page.after;
    }
    expect(pages).toEqual(all);
    expect(all.length).toBeGreaterThan(4);
    const mine = (await get(`board_id=${b.id}&user_id=${t.full.user.id}`, t.owner.token)).json().data;
    expect(mine.length).toBe(3);
    expect(mine.every((e: any) => e.actor_id === t.full.user.id)).toBe(true);
    const future = new Date(server.ctx.now().getTime() + 60_000).toISOString();
    expect((await get(`board_id=${b.id}&from=${encodeURIComponent(future)}`, t.owner.token)).json().data).toEqual([]);
    expect((await get(`board_id=${b.id}&to=${encodeURIComponent(future)}`, t.owner.token)).json().data.map((e: any) => e.id)).toEqual(all);
  });

  it('refuses bad queries and callers outside the workspace', async () => {
    expect((await get('')).statusCode).toBe(422);
    expect((await get(`board_id=${b.id}&limit=0`)).statusCode).toBe(422);
    expect((await get(`board_id=${b.id}&after=abc`)).statusCode).toBe(422);
    expect((await get(`board_id=${b.id}&from=yesterday`)).statusCode).toBe(422);
    expect((await get(`item_id=${newId()}`)).statusCode).toBe(404);
    expect((await get(`board_id=${b.id}`, t.stranger.token)).statusCode).toBe(403);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/activity?board_id=${b.id}`)).statusCode).toBe(401);
  });

  it("keeps an item's history after it is removed for good", async () => {
    const gone = item(b.id, { name: 'Short-lived' });
    expect((await put('items', gone)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${gone.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${gone.id}?permanent=1`, { token: t.owner.token })).statusCode).toBe(200);
    const res = await get(`item_id=${gone.id}`, t.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((e: any) => e.type)).toEqual(['item.deleted', 'item.trashed', 'item.created']);
  });
});
