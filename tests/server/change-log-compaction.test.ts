import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChanges } from '../../schema/changes-wire';
import { compactChangeLog, compactionTuning, loadChangeLogConfig, nextBatchSize, startChangeLogCompactor } from '../../server/sync/compaction';
import { waitFor } from '../helpers/wait';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, item, teamWithRoles, value, type TeamFixture } from './sync-fixtures';

const DAY = 86_400_000;
const RETENTION = 90 * DAY;

/**
 * Change log compaction (issue #31 part 6, decision 0351): the latest change of each record is
 * kept, removals for good for the retention period; a cursor older than a board's horizon is told
 * to load that board again.
 */
describe('change log compaction', () => {
  let server: TestServer;
  let t: TeamFixture;
  let main: ReturnType<typeof board>;
  let hidden: ReturnType<typeof board>;
  let start = 0;
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const del = (route: string, id: string) => api(server.app, 'DELETE', `/api/${t.teamId}/${route}/${id}`, { token: t.owner.token });
  const changes = async (after: number, token = t.owner.token, extra = '') => {
    const res = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}${extra}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { collection: string; id: string; op: string; record: Record<string, unknown> | null }[]; cursor: number; has_more: boolean; reindex?: string[] };
  };
  const logRows = () =>
    server.ctx.db.selectFrom('change_log').select(['seq', 'board_id', 'collection', 'record_id']).where('team_id', '=', t.teamId).orderBy('seq').execute();
  /** What a reader from `after` hears, as a comparable list (ids, ops, versions, in order). */
  const heard = (body: Awaited<ReturnType<typeof changes>>) => body.data.map((c) => `${c.collection}:${c.id}:${c.op}:${c.record ? c.record.row_version : 'gone'}`);

  let a: ReturnType<typeof item>;
  let b: ReturnType<typeof item>;
  let trashed: ReturnType<typeof item>;
  let attr: ReturnType<typeof attribute>;
  let v: ReturnType<typeof value>;
  let w: ReturnType<typeof value>;

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    main = board({ name: 'Main' });
    hidden = board({ name: 'Hidden', user_ids: [t.owner.user.id], hidden: true });
    expect((await put('folders', main)).statusCode).toBe(200);
    expect((await put('folders', hidden)).statusCode).toBe(200);
    start = (await changes(0)).cursor;
    a = item(main.id, { name: 'a' });
    b = item(main.id, { name: 'b' });
    trashed = item(main.id, { name: 'trashed' });
    attr = attribute(main.id);
    expect((await put('attributes', attr)).statusCode).toBe(200);
    for (let n = 1; n <= 6; n += 1) expect((await put('items', { ...a, name: `a${n}`, row_version: n })).statusCode).toBe(200);
    for (let n = 1; n <= 3; n += 1) expect((await put('items', { ...b, name: `b${n}`, row_version: n })).statusCode).toBe(200);
    expect((await put('items', trashed)).statusCode).toBe(200);
    expect((await del('items', trashed.id)).statusCode).toBeLessThan(300);
    v = value(main.id, a.id, attr.id, 'x');
    w = value(main.id, b.id, attr.id, 'y');
    expect((await put('values', v)).statusCode).toBe(200);
    expect((await put('values', { ...v, value: 'x2', row_version: 2 })).statusCode).toBe(200);
    expect((await put('values', w)).statusCode).toBe(200);
    // A value is removed for good at once: its change is a tombstone.
    expect((await del('values', v.id)).statusCode).toBeLessThan(300);
    // The hidden board's own removal for good stays; a value there goes after the retention.
    const hiddenAttr = attribute(hidden.id);
    const hiddenItem = item(hidden.id, { name: 'h' });
    expect((await put('attributes', hiddenAttr)).statusCode).toBe(200);
    expect((await put('items', hiddenItem)).statusCode).toBe(200);
    const hv = value(hidden.id, hiddenItem.id, hiddenAttr.id, 'h');
    expect((await put('values', hv)).statusCode).toBe(200);
    expect((await del('values', hv.id)).statusCode).toBeLessThan(300);
  });
  afterAll(() => server.close());

  it('keeps exactly the latest change of each record per board, and what every cursor hears', async () => {
    const before = await logRows();
    const latest = new Map<string, string>();
    for (const r of before) latest.set(`${r.board_id}:${r.collection}:${r.record_id}`, r.seq);
    expect(before.length).toBeGreaterThan(latest.size + 5);
    // Every cursor in the team's history hears the same before and after (ids, ops, versions).
    const cursors = [start, ...before.map((r) => Number(r.seq))];
    const heardBefore = await Promise.all(cursors.map(async (c) => heard(await changes(c))));

    const result = await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: server.ctx.now() });
    expect(result.ran).toBe(true);
    expect(result.tombstones).toBe(0);
    expect(result.superseded).toBe(before.length - latest.size);

    const after = await logRows();
    expect(after.map((r) => r.seq).sort()).toEqual([...latest.values()].sort());
    for (const [i, c] of cursors.entries()) {
      const body = await changes(c);
      // Superseded rows only ever repeated a record that a later row names: every reader hears the same.
      expect(heard(body), `from cursor ${c}`).toEqual(heardBefore[i]);
      expect(body.reindex).toBeUndefined();
    }
    // The tombstone of the removed value is still there (within the retention period).
    const gone = (await changes(start)).data.find((c) => c.id === v.id);
    expect(gone).toEqual({ collection: 'value', id: v.id, op: 'deleted', record: null });
    // A second run finds nothing more.
    const again = await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: server.ctx.now() });
    expect(again).toMatchObject({ superseded: 0, tombstones: 0, read: latest.size });
  });

  it('drops removals for good past the retention period, and tells older cursors to load the board again', async () => {
    const before = await logRows();
    const tombstone = before.find((r) => r.record_id === v.id)!;
    expect(tombstone).toBeTruthy();
    // 89 days on: still within the retention.
    expect(await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: new Date(server.ctx.now().getTime() + 89 * DAY) })).toMatchObject({ tombstones: 0 });
    expect(await logRows()).toEqual(before);
    // 91 days on: the two values' tombstones go (main's and hidden's); the hidden board's own row and every live record's stay.
    const result = await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: new Date(server.ctx.now().getTime() + 91 * DAY) });
    expect(result).toMatchObject({ superseded: 0, tombstones: 2 });
    const after = await logRows();
    expect(after.find((r) => r.record_id === v.id)).toBeUndefined();
    expect(after.map((r) => r.record_id)).toEqual(expect.arrayContaining([a.id, b.id, trashed.id, w.id, attr.id, main.id, hidden.id]));
    expect(after).toHaveLength(before.length - 2);

    const horizons = await server.ctx.db.selectFrom('change_log_horizons').selectAll().where('team_id', '=', t.teamId).execute();
    expect(horizons.find((h) => h.board_id === main.id)?.horizon).toBe(tombstone.seq);

    // A reader from before the dropped tombstone: its changes, and the board to load again.
    const old = await changes(start);
    expect(old.reindex).toEqual(expect.arrayContaining([main.id]));
    expect(old.data.find((c) => c.id === a.id)).toMatchObject({ op: 'saved', record: { name: 'a6' } });
    // The lean format says it too.
    const lean = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${start}&format=2`, { token: t.owner.token });
    expect(lean.json().reindex).toEqual(old.reindex);
    expect(decodeChanges(lean.json())).toEqual(old.data);
    // Per board (a reader outside the workspace asks so).
    expect((await changes(start, t.owner.token, `&board_id=${main.id}`)).reindex).toEqual([main.id]);
    // A member who may not see the hidden board is not told its id.
    const member = await changes(start, t.full.token);
    expect(member.reindex).toEqual([main.id]);
    // From the horizon on, nothing was missed.
    expect((await changes(Number(tombstone.seq), t.full.token)).reindex).toBeUndefined();
    expect((await changes(Number(tombstone.seq) - 1, t.full.token)).reindex).toEqual([main.id]);
  });

  it('runs beside writers: every record keeps its latest change, and a reader hears every final version', async () => {
    const items = Array.from({ length: 20 }, (_, n) => item(main.id, { name: `busy ${n}` }));
    for (const it of items) expect((await put('items', it)).statusCode).toBe(200);
    const from = (await changes(0)).cursor;
    const writes = (async () => {
      for (let round = 2; round <= 8; round += 1) {
        const answers = await Promise.all(items.map((it) => put('items', { ...it, name: `busy v${round}`, row_version: round })));
        for (const r of answers) expect(r.statusCode).toBe(200);
      }
    })();
    const runs = [];
    for (let n = 0; n < 4; n += 1) runs.push(await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: server.ctx.now() }));
    await writes;
    await compactChangeLog(server.ctx.db, { retentionMs: RETENTION, now: server.ctx.now() });
    expect(runs.some((r) => r.ran)).toBe(true);
    const heardNow = (await changes(from)).data.filter((c) => items.some((it) => it.id === c.id));
    expect(heardNow).toHaveLength(items.length);
    for (const c of heardNow) expect(c.record).toMatchObject({ name: 'busy v8', row_version: 8 });
    const rows = (await logRows()).filter((r) => items.some((it) => it.id === r.record_id));
    expect(rows).toHaveLength(items.length);
  });

  it('runs in the background on its interval, as the server starts it', async () => {
    const x = item(main.id, { name: 'timer' });
    for (let n = 1; n <= 4; n += 1) expect((await put('items', { ...x, name: `timer ${n}`, row_version: n })).statusCode).toBe(200);
    const rowsOf = async () => (await logRows()).filter((r) => r.record_id === x.id).length;
    expect(await rowsOf()).toBe(4);
    const logged: string[] = [];
    const compactor = startChangeLogCompactor({ ...server.ctx, config: { ...server.ctx.config, changeLog: { retentionMs: RETENTION, intervalMs: 50 } } }, {
      info: (_o, msg) => logged.push(msg),
      error: (_o, msg) => logged.push(msg),
    });
    try {
      await waitFor(async () => (await rowsOf()) === 1, 60_000, 'the background compaction');
      await waitFor(() => logged.includes('change log compacted'), 60_000, 'its log line');
    } finally {
      await compactor.stop();
    }
  });

  it('reads its settings like the others, refusing a bad one by name', () => {
    expect(loadChangeLogConfig({})).toEqual({ retentionMs: 90 * DAY, intervalMs: 3_600_000 });
    expect(loadChangeLogConfig({ CHANGE_LOG_RETENTION_DAYS: '7', CHANGE_LOG_COMPACT_MINUTES: '0' })).toEqual({ retentionMs: 7 * DAY, intervalMs: 0 });
    expect(() => loadChangeLogConfig({ CHANGE_LOG_RETENTION_DAYS: '-1' })).toThrow(/CHANGE_LOG_RETENTION_DAYS/);
    expect(() => loadChangeLogConfig({ CHANGE_LOG_COMPACT_MINUTES: 'hourly' })).toThrow(/CHANGE_LOG_COMPACT_MINUTES/);
  });

  it('sizes its batches to the time they hold the database', () => {
    expect(nextBatchSize(500, 500, 10)).toBe(1000); // fast: at most doubles
    expect(nextBatchSize(500, 500, 100)).toBe(250); // slow: what fits the 50 ms
    expect(nextBatchSize(500, 500, 100_000)).toBe(compactionTuning.minBatch);
    expect(nextBatchSize(5000, 5000, 1)).toBe(compactionTuning.maxBatch);
  });
});
