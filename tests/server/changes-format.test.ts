import { crc32, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChanges, encodeChange, leanAnswerJson } from '../../schema/changes-wire';
import { crc32Combine, DELTA_PAGE, SHARED_ROWS } from '../../server/sync/changes';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, teamWithRoles, value, type SignedIn, type TeamFixture } from './sync-fixtures';

/**
 * /changes format 2 (schema/changes-wire.ts, decision 0320): field names once per shape, each
 * change as an array of values. Decoded, it must be exactly format 1's answer — the same changes in
 * the same order, the same records key for key (nulls included), the same cursor, has_more and
 * server id — for every kind of change (saved, trashed, gone for good, values gone with their
 * item) and for readers who may see different parts of the board.
 */
describe('/changes format 2: the lean wire format decodes to exactly format 1', () => {
  let server: TestServer;
  let t: TeamFixture;
  let start = 0;
  const b = board({ name: 'Lean' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  const BULK = 1400;
  /** The change numbers of the workspace's changes, in order. */
  let seqs: number[] = [];

  const put = (route: string, body: { id: string }) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${body.id}`, { token: t.owner.token, body });
  const changes = (who: SignedIn, after: number, format?: string, gzip = false) =>
    api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}&board_id=${b.id}${format ? `&format=${format}` : ''}`, {
      token: who.token,
      headers: gzip ? { 'accept-encoding': 'gzip' } : {},
    });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    start = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=0`, { token: t.owner.token })).json().cursor as number;
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    for (const body of [b, hidden]) expect((await put('folders', body)).statusCode).toBe(200);
    const attr = attribute(b.id);
    expect((await put('attributes', attr)).statusCode).toBe(200);
    const kept = item(b.id, { name: 'kept "quoted" — ünïcode\nline' });
    const secret = item(b.id, { folder_id: hidden.id, name: 'secret' });
    const trashed = item(b.id, { name: 'trashed' });
    const gone = item(b.id, { name: 'gone for good' });
    for (const body of [kept, secret, trashed, gone]) expect((await put('items', body)).statusCode).toBe(200);
    for (const [on, v] of [[kept, 'x'], [gone, 'y'], [secret, 'z']] as const) expect((await put('values', value(b.id, on.id, attr.id, v))).statusCode).toBe(200);
    const other = attribute(b.id);
    expect((await put('attributes', other)).statusCode).toBe(200);
    const removed = value(b.id, kept.id, other.id, 'removed');
    expect((await put('values', removed)).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/values/${removed.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${trashed.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${gone.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${gone.id}?permanent=1`, { token: t.owner.token })).statusCode).toBe(200);
    // Enough changes for gzipped answers, and for readers more than a block behind (their page is
    // read from their block's start and, in format 2, shared in pieces: decision 0320).
    for (let written = 0; written < BULK; written += 500) {
      const requests = Array.from({ length: Math.min(500, BULK - written) }, (_, n) => {
        const body = item(b.id, { name: `bulk ${written + n}` });
        return { method: 'put', route: `items/${body.id}`, payload: body };
      });
      const batch = await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: t.owner.token, body: { transaction: null, requests } });
      expect(batch.statusCode, batch.body).toBe(200);
      expect((batch.json() as { status: number }[]).every((r) => r.status === 200), batch.body.slice(0, 300)).toBe(true);
    }
    seqs = (await server.ctx.db.selectFrom('change_log').select(['seq']).where('team_id', '=', t.teamId).orderBy('seq').execute()).map((r) => Number(r.seq));
    expect(seqs.length).toBeGreaterThan(BULK);
  });
  afterAll(() => server?.close());

  it('gives every reader the same changes as format 1, plain and gzipped, with the kinds of change there are', async () => {
    for (const who of [t.owner, t.full, t.restricted]) {
      // From before everything, a few changes on, and from inside the bulk (a reader who has part
      // of the page: its own rows, then the page's shared pieces).
      for (const after of [start, seqs[3]!, seqs[20 + 300]!, seqs[20 + 777]!, seqs[20 + SHARED_ROWS * 2]!]) {
        const one = await changes(who, after);
        expect(one.statusCode, one.body).toBe(200);
        for (const gzip of [false, true]) {
          const res = await changes(who, after, '2', gzip);
          expect(res.statusCode, res.body).toBe(200);
          const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString('utf8') : res.body;
          if (gzip) expect(res.headers['content-encoding']).toBe('gzip');
          const lean = JSON.parse(text);
          const full = one.json();
          expect(lean.format).toBe(2);
          expect(JSON.stringify(decodeChanges(lean))).toBe(JSON.stringify(full.data));
          expect([lean.cursor, lean.has_more, lean.server_id]).toEqual([full.cursor, full.has_more, full.server_id]);
          // One line per change: a reader can count them on the bytes.
          expect(text.split('\n').length - 1).toBe(full.data.length);
          // Smaller on the wire than format 1.
          expect(text.length).toBeLessThan(one.body.length * 0.75);
        }
      }
    }
    // The answer holds every kind: saved, trashed copies, removals; and readers see different parts.
    const owner = decodeChanges((await changes(t.owner, start, '2')).json());
    expect(owner.some((c) => c.op === 'saved' && c.record !== null)).toBe(true);
    expect(owner.some((c) => c.op === 'deleted' && c.record !== null && c.record.deleted_at !== null)).toBe(true);
    expect(owner.some((c) => c.op === 'deleted' && c.record === null && c.collection === 'value')).toBe(true);
    expect(owner.some((c) => c.op === 'deleted' && c.record === null && c.collection === 'item')).toBe(true);
    const restricted = decodeChanges((await changes(t.restricted, start, '2')).json());
    expect(restricted.length).toBeLessThan(owner.length);
    expect(restricted.some((c) => c.record?.name === 'secret')).toBe(false);
  });

  it('answers readers far behind, who may read the whole page, from its shared compressed pieces', async () => {
    const [a, b2] = [seqs[20 + 777]!, seqs[20 + 877]!];
    const first = await changes(t.owner, a, '2', true);
    const second = await changes(t.full, b2, '2', true);
    const one = decodeChanges(JSON.parse(gunzipSync(first.rawPayload).toString('utf8')));
    const two = decodeChanges(JSON.parse(gunzipSync(second.rawPayload).toString('utf8')));
    // Each exactly what format 1 answers it; the second a suffix of the first (same block, same end).
    expect(JSON.stringify(one)).toBe(JSON.stringify((await changes(t.owner, a)).json().data));
    expect(JSON.stringify(two)).toBe(JSON.stringify((await changes(t.full, b2)).json().data));
    expect(two.length).toBeLessThan(one.length);
    expect(JSON.stringify(two)).toBe(JSON.stringify(one.slice(one.length - two.length)));
    // The two gzipped bodies end in the same compressed bytes (the page's pieces after both
    // cursors and its tail), before their own trailers (CRC-32 and length): compressed once.
    const x = first.rawPayload.subarray(0, -8);
    const y = second.rawPayload.subarray(0, -8);
    let same = 0;
    while (same < Math.min(x.length, y.length) && x[x.length - 1 - same] === y[y.length - 1 - same]) same += 1;
    expect(same).toBeGreaterThan(1000);
  });

  it('refuses a format it does not know, and keeps format 1 the default', async () => {
    const res = await changes(t.owner, start, '3');
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('format');
    expect((await changes(t.owner, start, '1')).json()).toEqual((await changes(t.owner, start)).json());
    expect(DELTA_PAGE).toBeGreaterThan(0);
  });

  it('round-trips records as they are: key order, nulls, nested values, an id other than the record’s, __proto__ as a field', () => {
    const records = [
      { collection: 'item', id: 'a', op: 'saved' as const, record: { id: 'a', name: 'x', deleted_at: null, list: [1, { b: null }], n: 0.1 } },
      { collection: 'item', id: 'b', op: 'saved' as const, record: { name: 'y', id: 'b', deleted_at: null } },
      { collection: 'value', id: 'i.a', op: 'saved' as const, record: { id: 'other', v: '[]\n' } },
      { collection: 'item', id: 'c', op: 'deleted' as const, record: JSON.parse('{"id":"c","__proto__":{"polluted":1}}') as Record<string, unknown> },
      { collection: 'comment', id: 'd', op: 'deleted' as const, record: null },
    ];
    const json = leanAnswerJson(records.map((c) => encodeChange(c.collection, c.id, c.op, c.record)), 9, false, 's');
    const decoded = decodeChanges(JSON.parse(json));
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(records));
    expect(Object.keys(decoded[1]!.record!)).toEqual(['name', 'id', 'deleted_at']);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(decoded[3]!.record)).toBe(Object.prototype);
    expect(json.split('\n').length - 1).toBe(records.length);
    expect(() => decodeChanges({ format: 2, shapes: [['item', 'saved', ['id']]], data: [[0, 'a', 'b', 'c']] })).toThrow(/fit/);
    expect(() => decodeChanges({ format: 2, shapes: [], data: [[0, 'a']] })).toThrow(/shape/);
    // The gzip trailer of shared answers joins CRC-32s without reading the text again.
    for (const [a, b] of [['', 'x'], ['abc', ''], ['hello ', 'world'], ['ü'.repeat(999), 'ß\n'.repeat(70_001)]]) {
      expect(crc32Combine(crc32(a!), crc32(b!), Buffer.byteLength(b!))).toBe(crc32(a! + b!) >>> 0);
    }
  });
});
