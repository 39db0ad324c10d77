import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, item, recordingBroadcaster, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Time tracking (workspace.md §4, §7): start rules, allowParallel, sharedEntries, routes. */
describe('time tracking', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  let serial: ReturnType<typeof attribute>;
  let parallel: ReturnType<typeof attribute>;
  let privateAttr: ReturnType<typeof attribute>;
  let i1: ReturnType<typeof item>;
  let i2: ReturnType<typeof item>;
  const recorder = recordingBroadcaster();
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const start = (body: Record<string, unknown>, token = t.full.token) => api(server.app, 'POST', `/api/${t.teamId}/time-tracking`, { token, body });
  const entry = async (id: string) => (await server.ctx.db.selectFrom('records').select(['data', 'row_version']).where('id', '=', id).executeTakeFirstOrThrow()) as { data: any; row_version: number };

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder.broadcaster });
    t = await teamWithRoles(server.ctx);
    b = board();
    serial = attribute(b.id, { name: 'Time', kind: 'time-tracking', settings: { allowParallel: false } });
    parallel = attribute(b.id, { name: 'Parallel time', kind: 'time-tracking', settings: { allowParallel: true } });
    privateAttr = attribute(b.id, { name: 'Private time', kind: 'time-tracking', settings: { sharedEntries: false } });
    i1 = item(b.id);
    i2 = item(b.id);
    for (const [route, rec] of [['folders', b], ['attributes', serial], ['attributes', parallel], ['attributes', privateAttr], ['items', i1], ['items', i2]] as const) {
      expect((await put(route, rec)).statusCode).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('refuses a start without item, attribute or description, naming each', async () => {
    const res = await start({ board_id: b.id, item_id: null, attribute_id: null, description: '' });
    expect(res.statusCode).toBe(422);
    const fields = (res.json().data as string[]).map((m) => m.split(':')[0]);
    expect(fields).toEqual(['item_id', 'attribute_id', 'description']);
  });

  it('allowParallel false: starting ends the user’s running entry on any item of the attribute', async () => {
    const first = await start({ board_id: b.id, item_id: i1.id, attribute_id: serial.id, description: 'design' });
    expect(first.statusCode, first.body).toBe(200);
    const firstEntry = first.json().data;
    expect(firstEntry).toMatchObject({ row_version: 1, ended_at: null, created_by: t.full.user.id });
    // Someone else's running entry is not touched.
    const others = await start({ board_id: b.id, item_id: i1.id, attribute_id: serial.id, description: 'review' }, t.admin.token);
    expect(others.statusCode).toBe(200);

    const second = await start({ board_id: b.id, item_id: i2.id, attribute_id: serial.id, description: 'build' });
    expect(second.statusCode).toBe(200);
    const ended = await entry(firstEntry.id);
    expect(ended.row_version).toBe(2);
    expect(ended.data.ended_at).toBe(second.json().data.started_at);
    expect((await entry(others.json().data.id)).data.ended_at).toBeNull();
    expect(recorder.events.some((e) => e.event === 'TimeEntrySaved' && e.channel === `private-user.${t.teamId}.${b.id}.timeTracking` && e.data.data.id === firstEntry.id)).toBe(true);
  });

  it('allowParallel true: only the running entry on the same item ends', async () => {
    const a = (await start({ board_id: b.id, item_id: i1.id, attribute_id: parallel.id, description: 'one' })).json().data;
    const other = (await start({ board_id: b.id, item_id: i2.id, attribute_id: parallel.id, description: 'two' })).json().data;
    expect((await entry(a.id)).data.ended_at).toBeNull(); // a different item runs in parallel
    const sameItem = await start({ board_id: b.id, item_id: i1.id, attribute_id: parallel.id, description: 'three' });
    expect(sameItem.statusCode).toBe(200);
    expect((await entry(a.id)).data.ended_at).toEqual(expect.any(String));
    expect((await entry(other.id)).data.ended_at).toBeNull();
  });

  it('the generic PUT path applies the same start rule, and only the owner edits or deletes an entry', async () => {
    const id = 'entry-' + i1.id;
    const body = { id, board_id: b.id, item_id: i1.id, attribute_id: serial.id, description: 'via put', started_at: new Date().toISOString(), ended_at: null, row_version: 1 };
    const res = await put('time-tracking', body, t.full.token);
    expect(res.statusCode, res.body).toBe(200);
    const running = await server.ctx.db
      .selectFrom('records')
      .select('id')
      .where('collection', '=', 'time_entry')
      .where('created_by', '=', t.full.user.id)
      .where(sql<boolean>`data->>'ended_at' is null and data->>'attribute_id' = ${serial.id}`)
      .execute();
    expect(running.map((r) => r.id)).toEqual([id]); // 'build' on i2 was ended by this start
    expect((await put('time-tracking', { ...body, description: 'hijack', row_version: 2 }, t.admin.token)).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/time-tracking/${id}`, { token: t.admin.token })).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/time-tracking/${id}`, { token: t.full.token })).statusCode).toBe(200);
  });

  it('refuses an entry that ends before it starts', async () => {
    const res = await start({ board_id: b.id, item_id: i1.id, attribute_id: serial.id, description: 'x', started_at: '2026-01-02T10:00:00Z', ended_at: '2026-01-02T09:00:00Z' });
    expect(res.statusCode).toBe(422);
  });

  it('lists a board’s entries newest first, hiding others’ entries when sharedEntries is off', async () => {
    const mine = await start({ board_id: b.id, item_id: i1.id, attribute_id: privateAttr.id, description: 'private mine' });
    const theirs = await start({ board_id: b.id, item_id: i1.id, attribute_id: privateAttr.id, description: 'private theirs' }, t.admin.token);
    expect(mine.statusCode).toBe(200);
    const list = await api(server.app, 'GET', `/api/${t.teamId}/time-tracking/${b.id}`, { token: t.full.token });
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((e: any) => e.id);
    expect(ids).toContain(mine.json().data.id);
    expect(ids).not.toContain(theirs.json().data.id);
    const starts = list.json().data.map((e: any) => e.started_at);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/time-tracking/${b.id}`, { token: t.stranger.token })).statusCode).toBe(403);
  });

  it('publishes TimeEntrySaved on the owner’s personal channel too, for the new entry and the one it ended, never on another user’s', async () => {
    const before = recorder.events.length;
    const first = (await start({ board_id: b.id, item_id: i1.id, attribute_id: serial.id, description: 'personal one' })).json().data;
    const second = (await start({ board_id: b.id, item_id: i2.id, attribute_id: serial.id, description: 'personal two' })).json().data;
    const personal = recorder.events.slice(before).filter((e) => e.event === 'TimeEntrySaved' && e.channel.startsWith('private-App.User.'));
    expect(personal.every((e) => e.channel === `private-App.User.${t.full.user.id}`)).toBe(true);
    const seen = personal.map((e) => [e.data.data.id, e.data.data.row_version, e.data.data.ended_at === null]);
    expect(seen).toContainEqual([first.id, 1, true]);
    expect(seen).toContainEqual([first.id, 2, false]); // ended by the second start
    expect(seen).toContainEqual([second.id, 1, true]);
    expect(personal.every((e) => e.data.collection === 'time_entry')).toBe(true);
  });

  it('GET /api/me/time-tracking answers the user’s entries with attribute names', async () => {
    const res = await api(server.app, 'GET', '/api/me/time-tracking', { token: t.full.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entries.length).toBeGreaterThan(0);
    expect(body.entries.every((e: any) => e.created_by === t.full.user.id)).toBe(true);
    expect(body.attributeNames[serial.id]).toBe('Time');
  });

  it('GET /api/me/time-tracking: a from/to range by started_at, and names of items and boards only while the user may read them', async () => {
    const extra = item(b.id);
    expect((await put('items', extra)).statusCode).toBe(200);
    const old = await start({ board_id: b.id, item_id: extra.id, attribute_id: parallel.id, description: 'last year', started_at: '2025-03-01T09:00:00Z', ended_at: '2025-03-01T10:00:00Z' });
    expect(old.statusCode, old.body).toBe(200);
    const ranged = await api(server.app, 'GET', '/api/me/time-tracking?from=2025-03-01T00:00:00Z&to=2025-03-02T00:00:00Z', { token: t.full.token });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.json().entries.map((e: any) => e.id)).toEqual([old.json().data.id]);
    expect(ranged.json().entries[0].team_id).toBe(t.teamId);
    expect(ranged.json().itemNames[extra.id]).toBe(extra.name);
    expect(ranged.json().boardNames[b.id]).toBe(b.name);
    // The item goes to the trash: the entry stays the user's, its name is no longer shown.
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${extra.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const after = await api(server.app, 'GET', '/api/me/time-tracking?from=2025-03-01T00:00:00Z&to=2025-03-02T00:00:00Z', { token: t.full.token });
    expect(after.json().entries).toHaveLength(1);
    expect(after.json().itemNames[extra.id]).toBeUndefined();
    expect((await api(server.app, 'GET', '/api/me/time-tracking?from=yesterday-ish', { token: t.full.token })).statusCode).toBe(422);
  });
});
