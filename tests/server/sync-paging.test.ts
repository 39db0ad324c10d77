import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/**
 * Paged index loads (decision 0101): `limit` and `after` page a board's records in id order, each
 * page with its own cursor and `next`; the unpaged answer stays as it was. A client that pages
 * through and then asks /changes from the first page's cursor ends up with exactly the server's
 * records, whatever was written between its pages.
 */
describe('paged index loads', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Paged board' });
  const attr = attribute(b.id, { name: 'Notes' });
  // Ids chosen so the order is known: i00 … i24.
  const items = Array.from({ length: 25 }, (_, i) => item(b.id, { id: `i${String(i).padStart(2, '0')}`, name: `Item ${i}`, position: i }));
  const get = (url: string, token = t.owner.token) => api(server.app, 'GET', `/api/${t.teamId}/${url}`, { token });
  const put = (route: string, body: unknown) => api(server.app, 'PUT', `/api/${t.teamId}/${route}`, { token: t.owner.token, body });

  /** Every page of an index address; returns the pages as answered. */
  async function allPages(route: string, limit: number, token = t.owner.token) {
    const pages: { data: { id: string; name?: string; row_version: number }[]; cursor: number; next: string | null }[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const res = await get(`${route}?board_id=${b.id}&limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      pages.push(page);
      if (page.next === null) return pages;
      after = page.next;
    }
    throw new Error('paging did not end');
  }

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    expect((await put(`folders/${b.id}`, b)).statusCode).toBe(200);
    expect((await put(`attributes/${attr.id}`, attr)).statusCode).toBe(200);
    expect((await put('items', items)).statusCode).toBe(200);
    expect((await put('values', items.map((it, i) => value(b.id, it.id, attr.id, `note ${i}`)))).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('pages a board in id order, every record once, and says where the next page starts', async () => {
    const pages = await allPages('items', 10);
    expect(pages.map((p) => p.data.length)).toEqual([10, 10, 5]);
    expect(pages.map((p) => p.next)).toEqual(['i09', 'i19', null]);
    const ids = pages.flatMap((p) => p.data.map((r) => r.id));
    expect(ids).toEqual(items.map((i) => i.id));
    for (const p of pages) expect(typeof p.cursor).toBe('number');
    // A page that ends exactly at the last record says so by an empty next page, not a wrong `next`.
    const exact = await allPages('items', 25);
    expect(exact.map((p) => p.data.length)).toEqual([25]);
    const values = await allPages('values', 7);
    expect(values.flatMap((p) => p.data).length).toBe(25);
  });

  it('answers a head: the first items by position and their values, and whether more remain', async () => {
    // Positions run against id order: the head by position is not the first page by id.
    const reordered = items.map((it, i) => ({ ...it, position: 100 - i, row_version: 2 }));
    expect((await put('items', reordered)).statusCode).toBe(200);
    const head = (await get(`items?board_id=${b.id}&head=3`)).json();
    expect(head.data.map((r: { id: string }) => r.id)).toEqual(['i24', 'i23', 'i22']);
    expect(head.rest).toBe(true);
    expect(typeof head.cursor).toBe('number');
    const values = (await get(`values?board_id=${b.id}&head=3`)).json();
    expect(values.data.map((r: { item_id: string }) => r.item_id).sort()).toEqual(['i22', 'i23', 'i24']);
    expect(values.rest).toBe(true);
    const all = (await get(`items?board_id=${b.id}&head=100`)).json();
    expect(all.data).toHaveLength(25);
    expect(all.rest).toBe(false);
    for (const [query, text] of [
      ['attributes?board_id=B&head=3', 'head: only items and values'],
      ['items?board_id=B&head=0', 'head: must be'],
      ['items?board_id=B&head=3&limit=5', 'head: not with limit'],
    ] as const) {
      const res = await get(query.replace('B', b.id));
      expect(res.statusCode, query).toBe(422);
      expect(res.json().message, query).toContain(text);
    }
    expect((await put('items', items.map((it) => ({ ...it, row_version: 3 })))).statusCode).toBe(200);
  });

  it('keeps the unpaged answer as it was: every record and the cursor, no `next`', async () => {
    const res = await get(`items?board_id=${b.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((r: { id: string }) => r.id).sort()).toEqual(items.map((i) => i.id));
    expect(Object.keys(body).sort()).toEqual(['cursor', 'data']);
  });

  it('refuses a malformed limit or after with a 422 naming it', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=10001', 'limit'],
      ['limit=-5', 'limit'],
      ['after=', 'after'],
      [`after=${'x'.repeat(201)}`, 'after'],
    ] as const) {
      const res = await get(`items?board_id=${b.id}&${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().message, query).toContain(`${field}:`);
    }
    // `after` alone pages with the default size.
    const res = await get(`items?board_id=${b.id}&after=i20`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { id: string }) => r.id)).toEqual(['i21', 'i22', 'i23', 'i24']);
    expect(res.json().next).toBeNull();
  });

  it('leaves out trashed records', async () => {
    const extra = item(b.id, { id: 'i99', name: 'Trashed' });
    expect((await put(`items/${extra.id}`, extra)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${extra.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const ids = (await allPages('items', 10)).flatMap((p) => p.data.map((r) => r.id));
    expect(ids).not.toContain('i99');
  });

  it('with /changes from the first page cursor, converges on the server state when writes land between pages', async () => {
    const first = await get(`items?board_id=${b.id}&limit=10`);
    const page1 = first.json();
    const held = new Map<string, { id: string; name?: string; row_version: number }>(page1.data.map((r: { id: string }) => [r.id, r]));
    // Between pages: a new record before the cursor's id, a rename of a record already read, a
    // record of a later page deleted.
    const early = item(b.id, { id: 'i00a', name: 'Created between pages' });
    expect((await put(`items/${early.id}`, early)).statusCode).toBe(200);
    const renamed = held.get('i03')!;
    expect((await put(`items/i03`, { ...items[3], name: 'Renamed between pages', row_version: renamed.row_version + 1 })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/i15`, { token: t.owner.token })).statusCode).toBe(200);
    let after: string | null = page1.next;
    while (after !== null) {
      const page = (await get(`items?board_id=${b.id}&limit=10&after=${after}`)).json();
      for (const r of page.data) held.set(r.id, r);
      after = page.next;
    }
    expect(held.has('i00a')).toBe(false); // written behind the pager
    expect(held.get('i03')!.name).not.toBe('Renamed between pages');
    const changes = (await get(`changes?after=${page1.cursor}&board_id=${b.id}`)).json();
    for (const c of changes.data as { collection: string; id: string; op: string; record: { id: string; row_version: number } | null }[]) {
      if (c.collection !== 'item') continue;
      const mine = held.get(c.id);
      if (c.op === 'deleted') held.delete(c.id);
      else if (!mine || c.record!.row_version >= mine.row_version) held.set(c.id, c.record!);
    }
    const truth = (await get(`items?board_id=${b.id}`)).json().data as { id: string; name: string; row_version: number }[];
    expect([...held.keys()].sort()).toEqual(truth.map((r) => r.id).sort());
    for (const r of truth) expect(held.get(r.id)).toMatchObject({ name: r.name, row_version: r.row_version });
  });

  it('pages past what the read rule hides without stopping early (a restricted member and a hidden folder)', async () => {
    const hidden = folder(b.id, { name: 'Hidden', hidden: true, user_ids: [t.owner.user.id] });
    expect((await put(`folders/${hidden.id}`, hidden)).statusCode).toBe(200);
    // Ids that sort between i04 and i05: a whole page of hidden items in the middle.
    const secret = Array.from({ length: 10 }, (_, i) => item(b.id, { id: `i04h${i}`, folder_id: hidden.id, name: `Secret ${i}` }));
    expect((await put('items', secret)).statusCode).toBe(200);
    const owner = (await allPages('items', 5)).flatMap((p) => p.data.map((r) => r.id));
    expect(owner).toEqual(expect.arrayContaining(secret.map((s) => s.id)));
    const pages = await allPages('items', 5, t.restricted.token);
    const seen = pages.flatMap((p) => p.data.map((r) => r.id));
    expect(seen.some((id) => id.startsWith('i04h'))).toBe(false);
    expect(pages.some((p) => p.data.length === 0 && p.next !== null)).toBe(true);
    expect(seen).toEqual(owner.filter((id) => !id.startsWith('i04h')));
  });

  it('pages the team folders without board_id', async () => {
    const res = await get('folders?limit=1');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.data).toHaveLength(1);
    expect(typeof page.next).toBe('string');
  });
});
