import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { Messages } from '../../schema/messages';
import { issueTokens } from '../../server/auth/tokens';
import { board, item, recordingBroadcaster, teamWithRoles, type TeamFixture } from './sync-fixtures';

/** Save-multiple, the queued-request batch, and X-Idempotency-Key. */
describe('sync: save-multiple, batch, idempotency', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  const recorder = recordingBroadcaster();
  const stored = (id: string) => server.ctx.db.selectFrom('records').select(['row_version', 'data']).where('id', '=', id).executeTakeFirst();
  const changesOf = async (id: string) => (await server.ctx.db.selectFrom('change_log').select('seq').where('record_id', '=', id).execute()).length;

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder.broadcaster });
    t = await teamWithRoles(server.ctx);
    b = board();
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('save-multiple stores every record', async () => {
    const recs = [item(b.id), item(b.id), item(b.id)];
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items`, { token: t.full.token, body: recs });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: any) => r.id)).toEqual(recs.map((r) => r.id));
  });

  it('save-multiple is all-or-nothing: one conflict and none is stored', async () => {
    const existing = item(b.id);
    await api(server.app, 'PUT', `/api/${t.teamId}/items/${existing.id}`, { token: t.full.token, body: existing });
    const fresh = item(b.id);
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items`, { token: t.full.token, body: [fresh, { ...existing, row_version: 1 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: Messages.conflict, data: { id: existing.id, row_version: 1 } });
    expect(await stored(fresh.id)).toBeUndefined();
    const invalid = await api(server.app, 'PUT', `/api/${t.teamId}/items`, { token: t.full.token, body: [item(b.id), { id: 'x' }] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().data[0]).toMatch(/^1\./);
  });

  it('a transaction batch applies every request in one transaction', async () => {
    const a = item(b.id);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: {
        transaction: 'tx-1',
        requests: [
          { method: 'put', route: `items/${a.id}`, payload: a },
          { method: 'put', route: `items/${a.id}`, payload: { ...a, name: 'renamed', row_version: 2 } },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { status: 200, data: expect.objectContaining({ id: a.id, row_version: 1 }) },
      { status: 200, data: expect.objectContaining({ id: a.id, row_version: 2, name: 'renamed' }) },
    ]);
  });

  it('a transaction batch rolls back entirely when one request fails', async () => {
    const a = item(b.id);
    const before = recorder.events.length;
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: {
        transaction: 'tx-2',
        requests: [
          { method: 'put', route: `items/${a.id}`, payload: a },
          { method: 'put', route: `items/${a.id}`, payload: { ...a, row_version: 7 } },
        ],
      },
    });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body).toMatchObject({ message: Messages.conflict, type: 'transaction_failed' });
    expect(body.data).toEqual([
      { status: 424, data: expect.objectContaining({ type: 'transaction_rolled_back' }) },
      { status: 409, data: expect.objectContaining({ message: Messages.conflict, data: expect.objectContaining({ id: a.id, row_version: 1 }) }) },
    ]);
    expect(await stored(a.id)).toBeUndefined();
    expect(await changesOf(a.id)).toBe(0);
    expect(recorder.events.length).toBe(before); // nothing broadcast for a rolled-back batch
  });

  it('without a transaction each request applies on its own', async () => {
    const a = item(b.id);
    const c = item(b.id);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: {
        transaction: null,
        requests: [
          { method: 'put', route: `items/${a.id}`, payload: a },
          { method: 'put', route: `items/${c.id}`, payload: { ...c, row_version: 4 } },
          { method: 'delete', route: `items/${a.id}` },
          { method: 'put', route: 'nothing/here', payload: {} },
          { method: 'put', route: 'items/%E0%A4%A', payload: {} },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: any) => r.status)).toEqual([200, 409, 200, 404, 404]);
    expect((await stored(a.id))?.row_version).toBe(2);
    expect(await stored(c.id)).toBeUndefined();
  });

  it('a failed request of a batch leaves no trace for the next ones (savepoint and caches rolled back)', async () => {
    const x = item(b.id);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: {
        transaction: null,
        requests: [
          // save-multiple writes x, then fails on the second record: x must be undone.
          { method: 'put', route: 'items', payload: [x, { ...item(b.id), row_version: 9 }] },
          { method: 'put', route: `items/${x.id}`, payload: x },
        ],
      },
    });
    expect(res.json().map((r: any) => r.status)).toEqual([409, 200]);
    expect((await stored(x.id))?.row_version).toBe(1);
    expect(await changesOf(x.id)).toBe(1);
  });

  it('a retried request with the same key gets the stored response and is applied once', async () => {
    const a = item(b.id);
    const headers = { 'x-idempotency-key': 'key-save-1' };
    const first = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers });
    expect(first.statusCode).toBe(200);
    const eventsAfterFirst = recorder.events.length;
    // The same request again (its response was lost): same answer, no second version, no event.
    const retry = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['x-idempotent-replay']).toBe('true');
    expect((await stored(a.id))?.row_version).toBe(1);
    expect(await changesOf(a.id)).toBe(1);
    expect(recorder.events.length).toBe(eventsAfterFirst);
    // Another user's identical key is theirs alone.
    const other = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.admin.token, body: a, headers });
    expect(other.statusCode).toBe(409);
  });

  it('two copies of one request delivered at once are applied once, both answered alike', async () => {
    const a = item(b.id);
    const headers = { 'x-idempotency-key': 'key-duplicate-delivery' };
    const [one, two] = await Promise.all([
      api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers }),
      api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers }),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(one.json()).toEqual(two.json());
    expect(await changesOf(a.id)).toBe(1);
  });

  it('a retried batch is applied once', async () => {
    const a = item(b.id);
    const body = { transaction: 'tx-3', requests: [{ method: 'put', route: `items/${a.id}`, payload: a }, { method: 'delete', route: `items/${a.id}` }] };
    const headers = { 'x-idempotency-key': 'key-batch-1' };
    const first = await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: t.full.token, body, headers });
    const retry = await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: t.full.token, body, headers });
    expect(first.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect((await stored(a.id))?.row_version).toBe(2);
    expect(await changesOf(a.id)).toBe(2);
  });

  it('does not store failures: a retry after the cause is gone succeeds', async () => {
    const later = board();
    const a = item(later.id);
    const headers = { 'x-idempotency-key': 'key-early-item' };
    const early = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.owner.token, body: a, headers });
    expect(early.statusCode).toBe(422);
    await api(server.app, 'PUT', `/api/${t.teamId}/folders/${later.id}`, { token: t.owner.token, body: later });
    const retry = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.owner.token, body: a, headers });
    expect(retry.statusCode).toBe(200);
  });

  it('broadcasts saves on the board channel after commit, excluding the sender socket', async () => {
    const a = item(b.id);
    await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers: { 'x-socket-id': '123.456' } });
    const event = recorder.events.find((e) => e.data?.data?.id === a.id);
    expect(event).toMatchObject({ channel: `private-team.${t.teamId}.board.${b.id}`, event: 'saved', data: { collection: 'item' }, opts: { excludeSocketId: '123.456' } });
  });
  it('refuses a key reused for another request, and keys expire after 24 h', async () => {
    const a = item(b.id);
    const headers = { 'x-idempotency-key': 'key-reuse' };
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token: t.full.token, body: a, headers })).statusCode).toBe(200);
    const c = item(b.id);
    const reused = await api(server.app, 'PUT', `/api/${t.teamId}/items/${c.id}`, { token: t.full.token, body: c, headers });
    expect(reused.statusCode).toBe(422);
    // Last test of the file: the clock moves past the key's 24 h (and the token's life: sign in again).
    server.advance(24 * 60 * 60 * 1000 + 1000);
    const token = (await issueTokens(server.ctx.db, t.full.user.id, server.ctx.now())).access_token;
    const afterTtl = await api(server.app, 'PUT', `/api/${t.teamId}/items/${a.id}`, { token, body: a, headers });
    expect(afterTtl.statusCode).toBe(409); // evaluated afresh: the record is already at version 1
  });

});
