import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../server/sync/changes';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, folder, item, newId, teamWithRoles, type SignedIn, type TeamFixture } from './sync-fixtures';

/**
 * /changes requests for the same page share one read of the change log and the records, and each
 * change's JSON, while one is in flight and for a few seconds after (decision 0192) — and each
 * reader still gets only what it may read (decision 0090): the page is judged per reader, so two
 * readers with different views never get each other's answer, whichever came first.
 */
describe('/changes: a page shared by readers, judged per reader', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Shared page' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  const open = item(b.id, { name: 'open item' });
  const secret = item(b.id, { folder_id: hidden.id, name: 'secret item' });
  const personal = { id: newId(), board_id: b.id, folder_id: b.id, name: 'personal view of full', kind: 'table', visibility: 'personal', row_version: 1 } as Record<string, unknown>;
  let start = 0;

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    start = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=0`, { token: t.owner.token })).json().cursor;
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    Object.assign(personal, { owner_id: t.full.user.id });
    for (const [route, body, who] of [['folders', b, t.owner], ['folders', hidden, t.owner], ['items', open, t.owner], ['items', secret, t.owner], ['folder-views', personal, t.full]] as const) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${body.id}`, { token: who.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => server?.close());

  const read = (who: SignedIn, after = start) => api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}&board_id=${b.id}`, { token: who.token });
  const ids = (body: string) => (JSON.parse(body).data as { id: string }[]).map((c) => c.id);

  /** What each reader may see of the page (decision 0090): hidden folders, personal views. */
  function expectOwnView(who: SignedIn, body: string) {
    const seen = ids(body);
    expect(seen).toContain(open.id);
    if (who === t.owner) {
      expect(seen).toEqual(expect.arrayContaining([secret.id, hidden.id, personal.id]));
    } else if (who === t.full) {
      expect(seen).toContain(personal.id);
      expect(seen).not.toContain(secret.id);
      expect(body).not.toContain('secret item');
    } else {
      expect(seen).not.toContain(secret.id);
      expect(seen).not.toContain(personal.id);
      expect(body).not.toContain('secret item');
      expect(body).not.toContain('personal view of full');
    }
  }

  it('answers each of many parallel readers of one page with its own view of it', async () => {
    const readers = Array.from({ length: 12 }, (_, n) => [t.owner, t.full, t.restricted][n % 3]!);
    const answers = await Promise.all(readers.map((r) => read(r)));
    answers.forEach((res, n) => {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectOwnView(readers[n]!, res.body);
      expect(res.json().cursor).toBe(answers[0]!.json().cursor);
      expect(res.json().has_more).toBe(false);
      expect(typeof res.json().server_id).toBe('string');
    });
    // Readers with the same view get the same bytes; readers with different views never do.
    const byReader = new Map(readers.map((r, n) => [r, answers[n]!.body]));
    answers.forEach((res, n) => expect(res.body).toBe(byReader.get(readers[n]!)));
    expect(new Set(byReader.values()).size).toBe(3);
  });

  it('judges a kept page again for each later reader, in either order', async () => {
    // The page is kept for a few seconds after its read: whoever reads it first, the next reader
    // with another view gets its own answer.
    for (const order of [[t.restricted, t.full, t.owner], [t.owner, t.full, t.restricted]]) {
      for (const who of order) {
        const res = await read(who);
        expect(res.statusCode).toBe(200);
        expectOwnView(who, res.body);
      }
    }
  });

  it('reads anew after a write: a kept page never hides a newer change', async () => {
    const before = (await read(t.restricted)).json();
    const later = item(b.id, { name: 'later item' });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${later.id}`, { token: t.owner.token, body: later })).statusCode).toBe(200);
    const renamed = { ...open, name: 'open item renamed', row_version: 2 };
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${open.id}`, { token: t.owner.token, body: renamed })).statusCode).toBe(200);
    const after = await read(t.restricted);
    expect(after.json().cursor).toBeGreaterThan(before.cursor);
    expect(ids(after.body)).toContain(later.id);
    expect(after.json().data.find((c: { id: string }) => c.id === open.id).record.name).toBe('open item renamed');
  });

  it('sends a large page gzipped to a client that takes gzip, the same JSON as plain; a small one plain', async () => {
    const small = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${start}&board_id=${b.id}`, { token: t.full.token, headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const requests = Array.from({ length: 150 }, (_, n) => {
      const body = item(b.id, { name: `bulk item ${n} with a name long enough to make the page large` });
      return { method: 'put', route: `items/${body.id}`, payload: body };
    });
    expect((await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: t.owner.token, body: { transaction: null, requests } })).statusCode).toBe(200);
    const url = `/api/${t.teamId}/changes?after=${start}&board_id=${b.id}`;
    for (const who of [t.restricted, t.owner]) {
      const plain = await api(server.app, 'GET', url, { token: who.token });
      const zipped = await api(server.app, 'GET', url, { token: who.token, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      const text = gunzipSync(zipped.rawPayload).toString('utf8');
      expect(text).toBe(plain.body);
      expect(ids(text)).toHaveLength(ids(plain.body).length);
      expectOwnView(who, text);
    }
    // What the sync worker's fetch does with it (browsers alike): asks gzip, gets the same JSON.
    const base = await server.listen();
    const fetched = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${t.full.token}` } });
    expect(fetched.headers.get('content-encoding')).toBe('gzip');
    expect(await fetched.json()).toEqual((await api(server.app, 'GET', url, { token: t.full.token })).json());
    expect([acceptsGzip('gzip'), acceptsGzip('deflate, gzip;q=0.5'), acceptsGzip('*'), acceptsGzip('gzip;q=0'), acceptsGzip('br'), acceptsGzip(undefined)]).toEqual([true, true, true, false, false, false]);
  });
});
