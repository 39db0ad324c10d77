import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { waitFor } from '../helpers/wait';
import { Messages } from '../../schema/messages';
import { ManualClock } from '../../sync-worker/clock';
import { OfflineError } from '../../sync-worker/queue';
import { addMember, createClient, createWorld, newItem, serverCopy, wire, type World } from './harness';

/** The engine against the real server over real HTTP, on fake-indexeddb. */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

const client = (extra: Parameters<typeof createClient>[1] extends infer O ? Partial<O> : never = {}) =>
  createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, ...extra });

describe('saves', () => {
  it('apply locally at once with row_version raised by one, then reach the server', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    const item = newItem(world, { name: 'First' });
    const local = await c.engine.save('item', item, { teamId: world.teamId });
    expect(local).toMatchObject({ id: item.id, row_version: 1, name: 'First' });
    expect(await c.local('item', item.id)).toMatchObject({ row_version: 1, name: 'First' });
    await c.engine.idle();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ row_version: 1, name: 'First' });
    // The local copy is now the server's (it stamped updated_at).
    expect((await c.local('item', item.id))?.updated_at).toBeTruthy();
    const edited = await c.engine.save('item', { ...(await c.local('item', item.id))!, name: 'Second' });
    expect(edited?.row_version).toBe(2);
    await c.engine.idle();
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ row_version: 2, name: 'Second' });
    c.close();
  });

  it('carry the spec headers, and an unchanged save sends nothing', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    c.http.setPassword('s3cret');
    const item = newItem(world);
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    const put = w.calls.find((call) => call.method === 'PUT')!;
    expect(put.headers.authorization).toBe(`Bearer ${world.owner.token}`);
    expect(put.headers['x-client-version']).toBe('34.3.6');
    expect(put.headers['x-idempotency-key']).toBeTruthy();
    expect(put.headers['x-sw-uuid']).toMatch(/^sw-/);
    expect(put.headers['x-authorization-password']).toBe('s3cret');
    const before = w.calls.length;
    const stored = (await c.local('item', item.id))!;
    const same = await c.engine.save('item', { ...stored, updated_at: new Date().toISOString() });
    await c.engine.idle();
    expect(w.calls.length).toBe(before);
    expect(same?.row_version).toBe(stored.row_version);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('a 409 records the conflict (local and remote) and adopts the remote copy', async () => {
    const c = await client();
    const item = newItem(world, { name: 'Base' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    // Someone else saves version 2 first.
    const other = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, {
      token: world.owner.token,
      body: { ...item, row_version: 2, name: 'Theirs' },
    });
    expect(other.statusCode).toBe(200);
    const mine = (await c.local('item', item.id))!;
    await c.engine.save('item', { ...mine, name: 'Mine' });
    await c.engine.idle();
    const conflicts = await c.db.relaxed.conflicts.toArray();
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ collection: 'item', id: item.id, local: { name: 'Mine', row_version: 2 }, remote: { name: 'Theirs', row_version: 2 } });
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Theirs', row_version: 2 });
    expect(c.of('conflict')).toHaveLength(1);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('another refusal restores the previous copy, or removes a new record, and reports it', async () => {
    const c = await client();
    const bad = newItem(world, { folder_id: 'no-such-folder' });
    await c.engine.save('item', bad, { teamId: world.teamId });
    expect(await c.local('item', bad.id)).toBeTruthy();
    await c.engine.idle();
    expect(await c.local('item', bad.id)).toBeUndefined();
    expect(c.of('rejected')[0]).toMatchObject({ collection: 'item', id: bad.id, status: 422 });

    const good = newItem(world, { name: 'Keep' });
    await c.engine.save('item', good, { teamId: world.teamId });
    await c.engine.idle();
    const stored = (await c.local('item', good.id))!;
    await c.engine.save('item', { ...stored, folder_id: 'no-such-folder', name: 'Broken' });
    await c.engine.idle();
    expect(await c.local('item', good.id)).toMatchObject({ name: 'Keep', row_version: 1, folder_id: world.folderId });
    c.close();
  });

  it('a successful delete removes the record', async () => {
    const c = await client();
    const item = newItem(world);
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    await c.engine.delete('item', item.id);
    expect(await c.local('item', item.id)).toBeUndefined();
    await c.engine.idle();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toBeUndefined();
    c.close();
  });

  it('several edits before sending go out as one request (never merged with one already sent)', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    await c.engine.setQueueing(true);
    const item = newItem(world, { name: 'a' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.save('item', { ...item, name: 'b' }, { teamId: world.teamId });
    await c.engine.save('item', { ...item, name: 'c' }, { teamId: world.teamId });
    expect(await c.db.relaxed.failedRequests.count()).toBe(1);
    expect(await c.local('item', item.id)).toMatchObject({ name: 'c', row_version: 1 });
    await c.engine.setQueueing(false);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'c', row_version: 1 });
    c.close();
  });
});

describe('queueing and batches', () => {
  it('queued requests wait until flushed, then drain in batch calls', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch, batchSize: 20 });
    await c.engine.setQueueing(true);
    const items = Array.from({ length: 50 }, (_, i) => newItem(world, { name: `q${i}` }));
    for (const item of items) await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.flush(); // queueing still on: nothing goes
    expect(w.calls).toHaveLength(0);
    expect(await c.db.relaxed.failedRequests.count()).toBe(50);
    await c.engine.setQueueing(false);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    const batches = w.calls.filter((call) => call.url.endsWith('/batch'));
    expect(batches).toHaveLength(3);
    expect((batches[0]!.body as any).requests).toHaveLength(20);
    expect((batches[0]!.body as any).requests[0]).toMatchObject({ method: 'put', route: `items/${items[0]!.id}` });
    for (const item of items) expect((await c.local('item', item.id))?.updated_at).toBeTruthy();
    c.close();
  });

  it('an action goes out whole as one batch, online and never paused: a refused record takes the rest with it', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    const ok = newItem(world, { name: 'together' });
    const bad = newItem(world, { folder_id: 'missing' });
    // As the app runs: one apply per user action, the queue sending as soon as it is stored.
    const result = await c.engine.apply('createRecords', { records: [{ collection: 'item', record: ok }, { collection: 'item', record: bad }] }, { teamId: world.teamId });
    expect(result.entries.map((e) => e.id)).toEqual([ok.id, bad.id]);
    await c.engine.idle();
    const sent = w.calls.filter((call) => call.method !== 'GET');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toMatch(/\/batch$/);
    expect((sent[0]!.body as any).requests.map((r: any) => r.route)).toEqual([`items/${ok.id}`, `items/${bad.id}`]);
    expect((sent[0]!.body as any).transaction).toBeTruthy();
    expect(await serverCopy(world, 'items', ok.id)).toBeUndefined();
    expect(await c.local('item', ok.id)).toBeUndefined();
    expect(c.of('rejected').map((r) => r.id).sort()).toEqual([ok.id, bad.id].sort());
    // Both wait whole in the Not saved list (decision 0094), nothing dropped.
    expect((await c.engine.refusedEdits()).map((r) => r.id).sort()).toEqual([ok.id, bad.id].sort());
    c.close();
  });
});

describe('offline', () => {
  it('a request while offline fails at once with the Offline error and is kept; retry says "still offline"', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    c.engine.connection.networkFailure();
    const item = newItem(world, { name: 'offline' });
    await c.engine.save('item', item, { teamId: world.teamId });
    expect(w.calls).toHaveLength(0);
    const [failed] = await c.db.relaxed.failedRequests.toArray();
    expect(failed).toMatchObject({ id: item.id, error: { kind: 'offline', message: Messages.offlineAction } });
    await expect(c.engine.retryFailed()).rejects.toThrow(Messages.stillOffline);
    await expect(c.engine.openBoard(world.teamId, world.boardId)).rejects.toBeInstanceOf(OfflineError);
    c.engine.connection.browserOnline();
    await c.engine.idle();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'offline' });
    c.close();
  });

  it('a missing answer disconnects at once and keeps the request with its idempotency key for the retry', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    w.down = true;
    const item = newItem(world);
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    expect(c.engine.connection.status).toBe('disconnected');
    const [failed] = await c.db.relaxed.failedRequests.toArray();
    expect(failed).toMatchObject({ attempts: 1, reserved_at: null, error: { kind: 'network' } });
    const firstKey = w.calls[0]!.headers['x-idempotency-key'];
    w.down = false;
    c.engine.connection.realtimeReconnected();
    await c.engine.idle();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(w.calls[1]!.headers['x-idempotency-key']).toBe(firstKey);
    c.close();
  });

  it('while disconnected the server is probed with backoff; its answer reconnects and flushes', async () => {
    const clock = new ManualClock(Date.now());
    const w = wire();
    const c = await client({ fetch: w.fetch, clock });
    w.down = true;
    const item = newItem(world, { name: 'probed' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    expect(c.engine.connection.status).toBe('disconnected');
    const probes = () => w.calls.filter((call) => call.url.endsWith('/api/app-vars')).length;
    await clock.advanceAsync(5_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(probes()).toBe(1); // still down: next probe in 10 s
    w.down = false;
    await clock.advanceAsync(9_999);
    expect(probes()).toBe(1);
    await clock.advanceAsync(1);
    await new Promise((r) => setTimeout(r, 100));
    await c.engine.idle();
    expect(probes()).toBe(2);
    expect(c.engine.connection.status).toBe('connected');
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'probed' });
    c.close();
  });

  it('connected by an answer while the realtime socket is still away, it asks the server itself and shows a new cut', async () => {
    const clock = new ManualClock(Date.now());
    const w = wire();
    const c = await client({ fetch: w.fetch, clock });
    const probes = () => w.calls.filter((call) => call.url.endsWith('/api/app-vars')).length;
    // The socket was live, dropped with the network, and the network came back before it did.
    c.engine.connection.realtimeReconnected();
    c.engine.connection.realtimeDropped();
    await clock.advanceAsync(3_000);
    expect(c.engine.connection.status).toBe('disconnected');
    const before = probes();
    c.engine.connection.browserOnline(); // an answer to a save, say: connected, the socket not back
    expect(c.engine.connection.status).toBe('connected');
    expect(c.engine.connection.unheard).toBe(true);
    await clock.advanceAsync(5_000);
    await waitFor(async () => probes() === before + 1, 20_000, 'the liveness probe');
    expect(c.engine.connection.status).toBe('connected');
    // The network goes again before the socket is back: the next probe finds it, nothing else would.
    w.down = true;
    await clock.advanceAsync(5_000);
    await waitFor(async () => c.engine.connection.status === 'disconnected', 20_000, 'the cut seen by the probe');
    // Back, and the socket too: no more liveness probes.
    w.down = false;
    c.engine.connection.realtimeReconnected();
    expect(c.engine.connection.unheard).toBe(false);
    await c.engine.idle();
    const settled = probes();
    await clock.advanceAsync(20_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(probes()).toBe(settled);
    c.close();
  });

  it('a request reserved by another sender is left alone for 10 s', async () => {
    const clock = new ManualClock(Date.now());
    const w = wire();
    const c = await client({ fetch: w.fetch, clock });
    await c.engine.setQueueing(true);
    const item = newItem(world);
    await c.engine.save('item', item, { teamId: world.teamId });
    const [row] = await c.db.relaxed.failedRequests.toArray();
    // Another tab's leader reserved it a moment ago (and may be sending it now).
    await c.db.strict.failedRequests.put({ ...row!, reserved_at: clock.now() - 2_000 });
    await c.engine.setQueueing(false);
    expect(w.calls).toHaveLength(0);
    clock.advance(8_000);
    await c.engine.flush();
    expect(w.calls).toHaveLength(1);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('rebroadcasts the failed list debounced by 500 ms', async () => {
    const clock = new ManualClock(Date.now());
    const c = await client({ clock });
    c.engine.connection.networkFailure();
    for (let i = 0; i < 3; i++) await c.engine.save('item', newItem(world), { teamId: world.teamId });
    await new Promise((r) => setTimeout(r, 20));
    await clock.advanceAsync(499);
    expect(c.of('failed-requests')).toHaveLength(0);
    await clock.advanceAsync(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(c.of('failed-requests')).toHaveLength(1);
    expect(c.of('failed-requests')[0]).toMatchObject({ count: 3, pending: 3 });
    c.close();
  });
});

describe('drafts and preview', () => {
  it('a draft shows locally, discard restores, flush saves for real', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    const item = newItem(world, { name: 'Saved' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    const calls = w.calls.length;
    const stored = (await c.local('item', item.id))!;
    await c.engine.addDraft('item', { ...stored, name: 'Draft' });
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Draft', row_version: 1 });
    expect(await c.db.relaxed.drafts.count()).toBe(1);
    await c.engine.discardDraft('item', item.id);
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Saved', row_version: 1 });
    expect(await c.db.relaxed.drafts.count()).toBe(0);
    expect(w.calls.length).toBe(calls);

    await c.engine.addDraft('item', { ...stored, name: 'Draft 2' });
    await c.engine.flushDraft('item', item.id);
    await c.engine.idle();
    expect(await c.db.relaxed.drafts.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Draft 2', row_version: 2 });

    // A draft of a record that did not exist goes away entirely on discard.
    const fresh = newItem(world);
    await c.engine.addDraft('item', fresh);
    await c.engine.discardDraft('item', fresh.id);
    expect(await c.local('item', fresh.id)).toBeUndefined();
    c.close();
  });

  it('preview mode applies edits locally and sends nothing', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    c.engine.setPreview(true);
    const item = newItem(world);
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    expect(await c.local('item', item.id)).toMatchObject({ row_version: 1 });
    expect(w.calls).toHaveLength(0);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });
});

describe('loading and remote changes', () => {
  it('refresh needs initialisation and an index address', async () => {
    const c = await client();
    await expect(c.engine.refresh(world.teamId, 'item', world.boardId)).rejects.toThrow(Messages.refreshNotInitialized);
    const noIndex = c.engine.collection(world.teamId, 'item', null);
    noIndex.markInitialized();
    await expect(noIndex.refresh()).rejects.toThrow(Messages.refreshWithoutIndex);
    c.close();
  });

  it('opens a board, applies newer remote events only, reloads on a refresh event, and catches up through /changes', async () => {
    const c = await client();
    const item = newItem(world, { name: 'Server side' });
    const put = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, { token: world.owner.token, body: { ...item, row_version: 1 } });
    expect(put.statusCode).toBe(200);
    await c.engine.openBoard(world.teamId, world.boardId);
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Server side', row_version: 1 });
    expect(await c.local('folder', world.boardId)).toMatchObject({ parent_id: null });
    expect(await c.local('attribute', world.attributeId)).toBeTruthy();

    await c.engine.applyRemote({ event: 'saved', collection: 'item', data: { ...item, row_version: 1, name: 'Stale' } });
    expect((await c.local('item', item.id))?.name).toBe('Server side');
    await c.engine.applyRemote({ event: 'saved', collection: 'item', data: { ...item, row_version: 5, name: 'Newer' } });
    expect((await c.local('item', item.id))?.name).toBe('Newer');
    // A refresh event reloads the collection: what the server added quietly shows up.
    const quiet = newItem(world, { name: 'Quiet' });
    await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${quiet.id}`, { token: world.owner.token, body: { ...quiet, row_version: 1 } });
    expect(await c.local('item', quiet.id)).toBeUndefined();
    await c.engine.applyRemote({ event: 'refresh', collection: 'item', data: { board_id: world.boardId } });
    expect(await c.local('item', quiet.id)).toMatchObject({ name: 'Quiet', row_version: 1 });

    // Changes made elsewhere while we were not listening arrive through /changes.
    const later = newItem(world, { name: 'Missed' });
    await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${later.id}`, { token: world.owner.token, body: { ...later, row_version: 1 } });
    await api(world.server.app, 'DELETE', `/api/${world.teamId}/items/${quiet.id}`, { token: world.owner.token });
    const applied = await c.engine.catchUp(world.teamId);
    expect(applied).toBeGreaterThanOrEqual(2);
    expect(await c.local('item', later.id)).toMatchObject({ name: 'Missed' });
    expect(await c.local('item', quiet.id)).toBeUndefined();
    c.close();
  });

  it('a remote delete is ignored while we hold a newer local edit', async () => {
    const c = await client();
    const item = newItem(world);
    await c.engine.setQueueing(true);
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.applyRemote({ event: 'deleted', collection: 'item', data: { ...item, row_version: 0 } });
    expect(await c.local('item', item.id)).toBeTruthy();
    c.close();
  });

  it('a second member sees the first one’s saves after catching up', async () => {
    const member = await addMember(world);
    const a = await client();
    const b = await createClient(world, { token: member.tokens, userId: member.user.id });
    await b.engine.openBoard(world.teamId, world.boardId);
    const item = newItem(world, { name: 'From A' });
    await a.engine.save('item', item, { teamId: world.teamId });
    await a.engine.idle();
    await b.engine.catchUp(world.teamId);
    expect(await b.local('item', item.id)).toMatchObject({ name: 'From A', row_version: 1 });
    a.close();
    b.close();
  });
});

describe('reconnect', () => {
  it('catches up the open board at once, then runs the full sync after the random wait', async () => {
    const clock = new ManualClock(Date.now());
    const b = await client({ clock, random: () => 0.5 });
    await b.engine.openBoard(world.teamId, world.boardId);
    b.engine.connection.networkFailure();
    // Meanwhile someone else saves two items.
    const missed = [newItem(world, { name: 'missed 1' }), newItem(world, { name: 'missed 2' })];
    for (const m of missed) await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${m.id}`, { token: world.owner.token, body: { ...m, row_version: 1 } });
    b.engine.connection.browserOnline();
    // The catch-up of the open board comes at once (no clock advance); wait for its state, not a time
    // (each request took about a second on the loaded machine, so a fixed 300 ms failed there).
    await waitFor(async () => (await Promise.all(missed.map((m) => b.local('item', m.id)))).every((r) => r != null), 30_000, 'the open board caught up with the missed items');
    for (const m of missed) expect(await b.local('item', m.id)).toMatchObject({ name: m.name });
    expect(b.of('syncing')).toHaveLength(0);
    await clock.advanceAsync(210_000 - 1);
    expect(b.of('syncing')).toHaveLength(0);
    await clock.advanceAsync(1);
    expect(b.of('syncing')).toHaveLength(1);
    b.close();
  });
});
