import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { waitFor } from '../helpers/wait';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { rotateServerIdentity } from '../../server/sync/identity';
import type { FetchLike } from '../../sync-worker/http';
import { rebaseChains } from '../../sync-worker/reset';
import type { QueuedRequest, SyncRecord } from '../../sync-worker/types';
import { createClient, createWorld, newItem, type Client, type World } from './harness';

/**
 * Decision 0102: the server comes back on another database (reset onto an empty one, or restored
 * from a backup). The real engine on fake-indexeddb, against real servers: one device's fetch is
 * pointed at a second server on a fresh database, the way a restarted server answers at the same
 * address. Boards of the old database must disappear, and an edit made meanwhile must reach the
 * new server or the "Not saved" list — never vanish.
 */

const ADDRESS = 'http://cairn.test';

/** One address, whichever server answers behind it; `down` cuts the cable. */
function switchable(first: World) {
  const net = {
    target: first.url,
    down: false,
    fetch: (async (input, init) => {
      if (net.down) throw new TypeError('fetch failed (network down)');
      return fetch(input.replace(ADDRESS, net.target), init);
    }) as FetchLike,
  };
  return net;
}

let before: World;
beforeAll(async () => {
  before = await createWorld();
});
afterAll(() => before.close());

/** A device signed in on `before`, with its board opened and one item saved through the engine. */
async function deviceWithBoard(net: ReturnType<typeof switchable>) {
  const client = await createClient({ ...before, url: ADDRESS }, { token: before.owner.tokens, userId: before.owner.user.id, fetch: net.fetch });
  await client.engine.openBoard(before.teamId, before.boardId);
  const item = newItem(before, { name: 'Draft plan' });
  await client.engine.save('item', item, { teamId: before.teamId });
  await client.engine.idle();
  const saved = (await client.local('item', item.id))!;
  expect(saved.row_version).toBe(1);
  expect(await client.db.relaxed.failedRequests.count()).toBe(0);
  return { client, item: saved };
}

/** Renames while the network is down: the edit waits in the queue. */
async function renameOffline(client: Client, net: ReturnType<typeof switchable>, item: SyncRecord, name: string) {
  net.down = true;
  client.engine.connection.networkFailure();
  await client.engine.save('item', { ...item, name }, { teamId: before.teamId });
  expect(await client.db.relaxed.failedRequests.count()).toBe(1);
}

/** The user signs in again on the new server (its accounts are its own). */
function signInOn(client: Client, world: World) {
  client.http.setToken(world.owner.tokens, Date.parse(world.owner.tokens.created_at ?? new Date().toISOString()));
}

async function boardRecords(client: Client, boardId: string) {
  return client.db.relaxed.records.where('[collection+board_id]').anyOf(['folder', boardId], ['item', boardId], ['attribute', boardId]).toArray();
}

describe('a server that came back on another database', () => {
  it('answers from an empty database (new identity): stale boards go, the rename made meanwhile lands in Not saved, the user is told once', async () => {
    const net = switchable(before);
    const { client, item } = await deviceWithBoard(net);
    await renameOffline(client, net, item, 'Plan renamed offline');
    expect(await boardRecords(client, before.boardId)).not.toHaveLength(0);

    const after = await createWorld();
    try {
      // Test databases are copies of one template: give this one an id of its own, as a newly
      // created database has.
      await rotateServerIdentity(after.server.ctx.db);
      net.target = after.url;
      net.down = false;
      signInOn(client, after);
      client.engine.connection.browserOnline();

      await waitFor(async () => (await client.db.relaxed.refusedEdits.count()) === 1, 10_000, 'the rename in Not saved');
      expect(client.of('server-reset')).toEqual([{ reason: 'identity', queued: 1 }]);
      const [refused] = await client.engine.refusedEdits();
      expect(refused).toMatchObject({ collection: 'item', id: item.id, item: { name: 'Plan renamed offline' }, old: null });
      expect(await client.db.relaxed.failedRequests.count()).toBe(0);
      // Nothing of the old database's board is left to show.
      await waitFor(async () => (await boardRecords(client, before.boardId)).length === 0, 5_000, 'the stale board gone');
      expect(await client.db.relaxed.meta.get(`cursor:${before.teamId}`)).toBeUndefined();

      // The new server's board loads as usual, and later answers are used again.
      await client.engine.openBoard(after.teamId, after.boardId);
      // The board, the world's attribute and the name attribute every board gets (decision 0170).
      expect((await boardRecords(client, after.boardId)).map((r) => r.collection).sort()).toEqual(['attribute', 'attribute', 'folder']);
      expect(client.of('server-reset')).toHaveLength(1);

      // Retry creates the item anew (its old copy belonged to the other database): it is refused
      // again here, because its board does not exist on this server — and stays listed.
      await client.engine.retryRefused('item', item.id);
      await client.engine.idle();
      await waitFor(async () => (await client.db.relaxed.failedRequests.count()) === 0, 5_000, 'the retry answered');
      expect(await client.db.relaxed.refusedEdits.count()).toBe(1);
    } finally {
      client.close();
      await after.close();
    }
  }, HEAVY_TEST_TIMEOUT_MS); // it starts a second server on another database: a backstop for a loaded machine (issue #32)

  it('keeps and sends an edit the new server can take (its board is there): created from scratch there', async () => {
    const net = switchable(before);
    const client = await createClient({ ...before, url: ADDRESS }, { token: before.owner.tokens, userId: before.owner.user.id, fetch: net.fetch });
    const after = await createWorld();
    try {
      await rotateServerIdentity(after.server.ctx.db);
      // A replica of `before`'s board, then an item made offline on a board both databases hold
      // (a restored backup has it): seen from the new server, a record it never had.
      await client.engine.openBoard(before.teamId, before.boardId);
      net.down = true;
      client.engine.connection.networkFailure();
      const offline = newItem(after, { name: 'Written during the outage' });
      await client.engine.save('item', offline, { teamId: after.teamId });
      await client.engine.save('item', { ...(await client.local('item', offline.id))!, name: 'Written during the outage, edited' }, { teamId: after.teamId });

      net.target = after.url;
      net.down = false;
      signInOn(client, after);
      client.engine.connection.browserOnline();
      await waitFor(async () => (await client.db.relaxed.failedRequests.count()) === 0, 10_000, 'the queue sent');
      expect(client.of('server-reset')).toHaveLength(1);
      const res = await api(after.server.app, 'GET', `/api/${after.teamId}/items?board_id=${after.boardId}`, { token: after.owner.token });
      expect(res.json().data.find((r: SyncRecord) => r.id === offline.id)).toMatchObject({ name: 'Written during the outage, edited', row_version: 1 });
      expect(await client.db.relaxed.refusedEdits.count()).toBe(0);
    } finally {
      client.close();
      await after.close();
    }
  }, HEAVY_TEST_TIMEOUT_MS); // it starts a second server on another database: a backstop for a loaded machine (issue #32)

  it('answers from a database behind our cursor (same identity, a restored backup): starts over too', async () => {
    const net = switchable(before);
    const { client, item } = await deviceWithBoard(net);
    // Move the cursor well past what a fresh copy of the template has handed out.
    for (let i = 0; i < 3; i++) {
      const other = newItem(before, { name: `Busy ${i}`, row_version: 1 });
      expect((await api(before.server.app, 'PUT', `/api/${before.teamId}/items/${other.id}`, { token: before.owner.token, body: other })).statusCode).toBe(200);
    }
    await client.engine.catchUp(before.teamId);
    const cursor = (await client.db.relaxed.meta.get(`cursor:${before.teamId}`))!.value as number;
    await renameOffline(client, net, item, 'Renamed before the restore');

    const restored = await createWorld(); // a far lower horizon
    try {
      // A backup of `before` carries its identity.
      const { id } = (await api(before.server.app, 'GET', '/api/server')).json().data;
      await rotateServerIdentity(restored.server.ctx.db, id);
      const horizon = (await api(restored.server.app, 'GET', '/api/server')).json().data.cursor as number;
      expect(horizon).toBeLessThan(cursor);
      net.target = restored.url;
      net.down = false;
      signInOn(client, restored);
      client.engine.connection.browserOnline();

      await waitFor(() => client.of('server-reset').length === 1, 10_000, 'the start-over');
      expect(client.of('server-reset')[0]).toMatchObject({ reason: 'cursor' });
      await waitFor(async () => (await client.db.relaxed.failedRequests.count()) === 0, 10_000, 'the queue answered');
      // The rename is kept for the user, whichever answer came first.
      const kept = await client.engine.refusedEdits();
      expect(kept.map((r) => r.item?.name)).toEqual(['Renamed before the restore']);
      await waitFor(async () => (await boardRecords(client, before.boardId)).length === 0, 5_000, 'the stale board gone');
    } finally {
      client.close();
      await restored.close();
    }
  }, HEAVY_TEST_TIMEOUT_MS); // it starts a second server on another database: a backstop for a loaded machine (issue #32)
});

describe('rebaseChains', () => {
  const request = (seq: number, method: 'put' | 'delete', row_version: number, name = 'x', id = 'a'): QueuedRequest => ({
    key: nanoid(),
    seq,
    teamId: 1,
    collection: 'item',
    id,
    method,
    route: `items/${id}`,
    channel: 'c',
    transaction: null,
    multiple: false,
    item: method === 'put' ? { id, row_version, name } : null,
    old: { id, row_version: row_version - 1, name: 'old' },
    created_at: 0,
    attempts: 1,
    error: null,
    reserved_at: 5,
    batch_key: 'b',
  });

  it('starts each record from nothing: first save is version 1, later ones build on it, a delete resets', () => {
    const rows = rebaseChains([request(3, 'put', 9, 'second'), request(1, 'put', 8, 'first'), request(4, 'delete', 0), request(5, 'put', 11, 'again'), request(2, 'put', 4, 'other', 'b')]);
    const byKey = rows.sort((a, b) => a.seq - b.seq).map((r) => [r.id, r.method, r.item?.row_version ?? null, r.old?.row_version ?? null]);
    expect(byKey).toEqual([
      ['a', 'put', 1, null],
      ['b', 'put', 1, null],
      ['a', 'put', 2, 1],
      ['a', 'delete', null, 2],
      ['a', 'put', 1, null],
    ]);
    // Keys and batch keys stay (an answer refused during the switch may have been applied);
    // reservations are released.
    expect(rows.every((r) => r.reserved_at === null && r.batch_key === 'b')).toBe(true);
  });
});
