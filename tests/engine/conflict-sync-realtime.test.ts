import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import Pusher from 'pusher-js';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { SyncRuntime } from '../../sync-worker/api';
import { systemClock } from '../../sync-worker/clock';
import { attachConflictSync } from '../../sync-worker/conflict-sync';
import { createRealtime, type PusherConstructor, type Realtime } from '../../sync-worker/realtime';
import { attachRealtime } from '../../sync-worker/worker-realtime';
import { waitFor } from '../helpers/wait';

/**
 * Issue #30 part 2: a conflict another device of the user reports while this worker's realtime
 * connection is away is pulled once the user channel is subscribed again. Its ConflictsChanged
 * was published to no one here, and a drop shorter than the disconnect grace (3 s) never makes
 * the engine's state go disconnected and back, so only the re-subscription can bring it.
 */
describe('conflicts after a realtime reconnect', () => {
  let server: TestServer;
  let url: string;
  let teamId: number;
  let itemId: string;
  let owner: Awaited<ReturnType<typeof createUserWithToken>>;
  const stops: (() => unknown)[] = [];

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    owner = await createUserWithToken(server.ctx, { name: 'Olga Owner' });
    const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Reconnect' } });
    teamId = team.json().data.id as number;
    const boardId = nanoid();
    itemId = nanoid();
    expect((await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, { token: owner.token, body: { id: boardId, board_id: boardId, parent_id: null, name: 'B', row_version: 1 } })).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', `/api/${teamId}/items/${itemId}`, { token: owner.token, body: { id: itemId, board_id: boardId, folder_id: boardId, name: 'Chairs', row_version: 1 } })).statusCode).toBe(200);
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await server.close();
  });

  async function report(): Promise<string> {
    const key = `other-${nanoid(10)}`;
    const res = await api(server.app, 'POST', `/api/${teamId}/conflicts`, {
      token: owner.token,
      body: { key, kind: 'field', collection: 'item', id: itemId, item_id: itemId, attribute_id: null, field: 'name', text: true, mine: 'Mine', theirs: 'Chairs', base: 'Before', theirs_by: null, theirs_at: null, theirs_row_version: null },
    });
    expect(res.statusCode, res.body).toBe(201);
    return key;
  }

  it('pulls a conflict reported while the socket was away once the user channel is subscribed again', async () => {
    const runtime = new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const realtimes: Realtime[] = [];
    const offSync = attachConflictSync(runtime, () => nanoid());
    const offRealtime = attachRealtime(runtime, (opts) => {
      // The test server listens on port 0, so its app-vars cannot name the port it got.
      const realtime = createRealtime({ ...opts, appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } }, Pusher: Pusher as unknown as PusherConstructor, authBatchMs: 10, origin: null });
      realtimes.push(realtime);
      return realtime;
    });
    await runtime.signIn(owner.tokens, owner.user.id);
    stops.push(async () => {
      offRealtime();
      offSync();
      await runtime.signOut();
    });
    const keys = async () => (await runtime.current()!.db.relaxed.conflicts.toArray()).map((r) => r.key);

    // Heard live first: the user channel is subscribed.
    await waitFor(async () => realtimes.length === 1 && realtimes[0]!.state === 'connected', 8000, 'a connection');
    const live = await report();
    await waitFor(async () => (await keys()).includes(live), 8000, 'a conflict heard live');

    const pusher = (realtimes[0] as unknown as { pusher: { disconnect(): void; connect(): void } }).pusher;
    pusher.disconnect();
    await waitFor(async () => realtimes[0]!.state === 'disconnected', 8000, 'the drop');
    const missed = await report(); // its ConflictsChanged goes to no one here
    pusher.connect();
    await waitFor(async () => (await keys()).includes(missed), 8000, 'the conflict reported while away');
    expect(runtime.current()!.engine.connection.status).toBe('connected');
  });
});
