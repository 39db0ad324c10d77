import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { boardHead, boardHeadIds } from '../../server/sync/store';
import { attribute, board, folder, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

/**
 * The head of a board (`head=n`, the first screen of a cold open; decision 0377): its items are
 * the first n live items by position then id, and its values exactly the live values of those
 * items — every attribute's, none of another item, board or the trash — read as two statements
 * (the head's ids, then their records) since the one-statement form was planned badly on PGlite.
 */
describe('the head of a board', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Head board' });
  const other = board({ name: 'Other board' });
  const notes = attribute(b.id, { name: 'Notes' });
  const figure = attribute(b.id, { name: 'Figure', kind: 'number' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  // Positions against id order, with ties (broken by id): the head is neither the first ids nor
  // insertion order. h07 has the smallest position but is trashed; h05 sits in a hidden folder.
  const items = Array.from({ length: 30 }, (_, i) => item(b.id, { id: `h${String(i).padStart(2, '0')}`, name: `Item ${i}`, position: Math.floor((30 - i) / 2) }));
  items[7] = { ...items[7]!, position: -5 };
  items[5] = { ...items[5]!, folder_id: hidden.id };
  const otherItems = Array.from({ length: 5 }, (_, i) => item(other.id, { id: `o${i}`, name: `Other ${i}`, position: -100 }));
  const get = (url: string, token = t.owner.token) => api(server.app, 'GET', `/api/${t.teamId}/${url}`, { token });
  const put = (route: string, body: unknown) => api(server.app, 'PUT', `/api/${t.teamId}/${route}`, { token: t.owner.token, body });
  const del = (route: string) => api(server.app, 'DELETE', `/api/${t.teamId}/${route}`, { token: t.owner.token });
  /** The head by the rule, computed here: live items of the board by (position, id). */
  const expectedHead = (n: number) =>
    items
      .filter((it) => it.id !== 'h07')
      .sort((x, y) => x.position - y.position || (x.id < y.id ? -1 : 1))
      .slice(0, n)
      .map((it) => it.id);

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    for (const f of [b, other]) expect((await put(`folders/${f.id}`, f)).statusCode).toBe(200);
    expect((await put(`folders/${hidden.id}`, { ...hidden, user_ids: [t.owner.user.id] })).statusCode).toBe(200);
    for (const a of [notes, figure]) expect((await put(`attributes/${a.id}`, a)).statusCode).toBe(200);
    const otherNotes = attribute(other.id, { name: 'Notes' });
    expect((await put(`attributes/${otherNotes.id}`, otherNotes)).statusCode).toBe(200);
    expect((await put('items', [...items, ...otherItems])).statusCode).toBe(200);
    const values = items.flatMap((it, i) => [value(b.id, it.id, notes.id, `note ${i}`), value(b.id, it.id, figure.id, i)]);
    expect((await put('values', values)).statusCode).toBe(200);
    expect((await put('values', otherItems.map((it) => value(other.id, it.id, otherNotes.id, 'elsewhere')))).statusCode).toBe(200);
    // The trash: an item (its values stay, but not in the head) and one value of a head item.
    expect((await del('items/h07')).statusCode).toBe(200);
    const head = expectedHead(10);
    expect((await del(`values/${value(b.id, head[0]!, figure.id, 0).id}`)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('answers the first items by position then id, and exactly their live values', async () => {
    const head = expectedHead(10);
    const answer = (await get(`items?board_id=${b.id}&head=10`)).json();
    expect(answer.data.map((r: { id: string }) => r.id)).toEqual(head);
    expect(answer.rest).toBe(true);
    const values = (await get(`values?board_id=${b.id}&head=10`)).json();
    const got = (values.data as { item_id: string; attribute_id: string }[]).map((v) => `${v.item_id}/${v.attribute_id === notes.id ? 'notes' : 'figure'}`).sort();
    const want = head.flatMap((id) => [`${id}/notes`, `${id}/figure`]).filter((k) => k !== `${head[0]}/figure`).sort();
    expect(got).toEqual(want);
    expect(values.rest).toBe(true);
  });

  it('holds every live item and value when the head is larger than the board', async () => {
    const all = (await get(`values?board_id=${b.id}&head=500`)).json();
    expect(all.data).toHaveLength(29 * 2 - 1);
    expect(all.rest).toBe(false);
  });

  it('leaves out what the reader may not see (a hidden folder) but keeps the rest of the head', async () => {
    const head = expectedHead(30);
    const seen = (await get(`items?board_id=${b.id}&head=30`, t.restricted.token)).json();
    expect(seen.data.map((r: { id: string }) => r.id)).toEqual(head.filter((id) => id !== 'h05'));
    const values = (await get(`values?board_id=${b.id}&head=30`, t.restricted.token)).json();
    expect((values.data as { item_id: string }[]).some((v) => v.item_id === 'h05')).toBe(false);
    expect(values.data.length).toBeGreaterThan(0);
  });

  it('reads the same through the store on its own: ids first, then their records', async () => {
    const ids = await boardHeadIds(server.ctx.db, t.teamId, b.id, 4);
    expect(ids).toEqual(expectedHead(4));
    const rows = await boardHead(server.ctx.db, t.teamId, b.id, 'item', 4);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(await boardHead(server.ctx.db, t.teamId, 'no-such-board', 'value', 4)).toEqual([]);
    // Another board's head is its own: its items came first by position, never into this head.
    expect(await boardHeadIds(server.ctx.db, t.teamId, other.id, 10)).toEqual(otherItems.map((it) => it.id));
  });
});
