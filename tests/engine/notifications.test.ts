import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import Pusher from 'pusher-js';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { SyncRuntime } from '../../sync-worker/api';
import { systemClock } from '../../sync-worker/clock';
import { createRealtime, type PusherConstructor, type Realtime } from '../../sync-worker/realtime';
import { attachRealtime } from '../../sync-worker/worker-realtime';
import type { NotificationsEvent } from '../../sync-worker/notifications';
import { waitFor } from '../helpers/wait';

/**
 * The worker keeps the unread count live (issue #11): a mention saved on the real server becomes a
 * notification through the real event → job → consumer path, reaches the recipient's worker on
 * private-App.User.{id}, and the count follows marks made in this worker or in another one.
 */
describe('unread notifications in the worker', () => {
  let server: TestServer;
  let url: string;
  let teamId: number;
  let boardId: string;
  let itemId: string;
  let author: Awaited<ReturnType<typeof createUserWithToken>>;
  let reader: Awaited<ReturnType<typeof createUserWithToken>>;
  const stops: (() => unknown)[] = [];

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    author = await createUserWithToken(server.ctx, { name: 'Ana Author' });
    reader = await createUserWithToken(server.ctx, { name: 'Ben Reader' });
    const team = await api(server.app, 'POST', '/api/teams', { token: author.token, body: { name: 'Mentions' } });
    teamId = team.json().data.id as number;
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: reader.user.id, role: 'admin', verified_at: new Date(), invited_by: author.user.id, created_at: new Date() }).execute();
    boardId = nanoid();
    itemId = nanoid();
    expect((await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, { token: author.token, body: { id: boardId, board_id: boardId, parent_id: null, name: 'B', row_version: 1 } })).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', `/api/${teamId}/items/${itemId}`, { token: author.token, body: { id: itemId, board_id: boardId, folder_id: boardId, name: 'Launch', row_version: 1 } })).statusCode).toBe(200);
    await server.ctx.jobs.drain();
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await server.close();
  });

  /** A worker of `user` with its realtime client, as browser-runtime.ts builds it. */
  async function worker(user: typeof reader, realtimes: Realtime[] = [], onFetch: (input: RequestInfo | URL) => unknown = () => undefined) {
    const runtime = new SyncRuntime({ baseUrl: url, fetch: (i, init) => (onFetch(i), fetch(i, init)), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const seen: NotificationsEvent[] = [];
    runtime.events.on((event, payload) => event === 'notifications' && seen.push(payload as NotificationsEvent));
    const detach = attachRealtime(runtime, (opts) =>
      // The test server listens on port 0, so its app-vars cannot name the port it got.
    {
      const realtime = createRealtime({ ...opts, appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } }, Pusher: Pusher as unknown as PusherConstructor, authBatchMs: 10, origin: null });
      realtimes.push(realtime);
      return realtime;
    });
    await runtime.signIn(user.tokens, user.user.id);
    stops.push(async () => {
      detach();
      await runtime.signOut();
    });
    return { runtime, seen };
  }

  async function mention(): Promise<string> {
    const id = nanoid();
    const res = await api(server.app, 'PUT', `/api/${teamId}/comments/${id}`, {
      token: author.token,
      body: { text: { html: `<p>Look <span data-mention="${reader.user.id}">@Ben Reader</span></p>` }, board_id: boardId, item_id: itemId, parent_id: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    await server.ctx.jobs.drain();
    return id;
  }

  const count = (runtime: SyncRuntime) => runtime.notificationCount();

  it('a mention saved on the server raises the count live; marks here and elsewhere move it in every worker', async () => {
    const tab = await worker(reader);
    const other = await worker(reader); // a second browser of the same user
    await waitFor(async () => (await count(tab.runtime)) === 0 && (await count(other.runtime)) === 0, 8000, 'the first count');
    // Subscriptions are authorised in batches: let them settle before anything is published.
    await waitFor(async () => tab.runtime.current() !== null, 2000, 'a session');
    await new Promise((r) => setTimeout(r, 500));

    const commentId = await mention();
    await waitFor(async () => (await count(tab.runtime)) === 1, 8000, 'the count after the mention');
    const saved = tab.seen.find((e) => e.change?.kind === 'saved');
    expect(saved?.unread).toBe(1);
    const notification = saved?.change?.kind === 'saved' ? saved.change.notification : null;
    expect(notification).toMatchObject({ notification_type: 'comment_mentioned', item_id: itemId, comment_id: commentId, board_id: boardId, read_at: null, created_by_name: 'Ana Author' });
    await waitFor(async () => (await count(other.runtime)) === 1, 8000, 'the other worker’s count');

    // Read in this worker: its count drops at once; the other hears "notification saved".
    expect(await tab.runtime.markNotifications([notification!.id], true)).toBe(true);
    expect(await count(tab.runtime)).toBe(0);
    await waitFor(async () => (await count(other.runtime)) === 0, 8000, 'the other worker after the read');

    // Unread again, then two more mentions, then all read from the other worker.
    expect(await other.runtime.markNotifications([notification!.id], false)).toBe(true);
    await waitFor(async () => (await count(tab.runtime)) === 1, 8000, 'unread again');
    await mention();
    await mention();
    await waitFor(async () => (await count(tab.runtime)) === 3, 8000, 'three unread');
    expect(await other.runtime.markAllNotificationsRead()).toBe(true);
    await waitFor(async () => (await count(tab.runtime)) === 0, 8000, 'all read');
    expect(tab.seen.some((e) => e.change?.kind === 'all-read')).toBe(true);
  });

  it('asks the count again after the realtime connection comes back (events sent meanwhile are lost)', async () => {
    const realtimes: Realtime[] = [];
    // The count requests this worker makes, to see the one the reconnect makes.
    const asked: number[] = [];
    const tab = await worker(reader, realtimes, (input) => String(input).includes('/api/notifications/unread-count') && asked.push(Date.now()));
    await waitFor(async () => realtimes.length === 1 && realtimes[0]!.state === 'connected', 8000, 'a connection');
    await waitFor(async () => (await count(tab.runtime)) !== null, 8000, 'the first count');
    // A mention heard live proves the user channel is subscribed. Its event may come after the
    // first count's answer already held it: then it is not counted twice (notifications.ts).
    const first = (await count(tab.runtime))!;
    await mention();
    await waitFor(async () => (await count(tab.runtime)) === first + 1, 8000, 'a live mention, counted once');
    const before = first + 1;
    const pusher = (realtimes[0] as unknown as { pusher: { disconnect(): void; connect(): void } }).pusher;
    pusher.disconnect();
    await waitFor(async () => realtimes[0]!.state === 'disconnected', 8000, 'the drop');
    await mention(); // published while this worker is not listening
    const reconnectedAt = Date.now();
    pusher.connect();
    await waitFor(async () => asked.some((at) => at >= reconnectedAt), 8000, 'the count asked again after the reconnect');
    await waitFor(async () => (await count(tab.runtime)) === before + 1, 8000, 'the count after the reconnect');
  });

  it('the author is not notified of their own comment, and a refused mark changes nothing', async () => {
    const own = await worker(author);
    await waitFor(async () => (await count(own.runtime)) === 0, 8000, 'the author’s count');
    await mention();
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(own.runtime)).toBe(0);
    // 422: not a notification id. Swallowed (workspace.md §4), reported as false, count kept.
    expect(await own.runtime.markNotifications(['not-an-id'], true)).toBe(false);
    expect(await count(own.runtime)).toBe(0);
  });

  it('a worker started offline shows the last known count until the server answers', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const online = new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb });
    await online.signIn(reader.tokens, reader.user.id);
    const known = await fetch(`${url}/api/notifications/unread-count`, { headers: { authorization: `Bearer ${reader.token}` } }).then((r) => r.json());
    await waitFor(async () => (await online.notificationCount()) === known.unread_count, 8000, 'the count online');
    // The worker restarts (browser reopened) with no network: it resumes the stored session.
    online.current()!.engine.stop();
    online.current()!.db.close();
    const offline = new SyncRuntime({ baseUrl: url, fetch: async () => { throw new TypeError('fetch failed (offline)'); }, clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb, online: () => false });
    expect(await offline.resume()).toBe(true);
    await waitFor(async () => (await offline.notificationCount()) === known.unread_count, 8000, 'the remembered count');
    await offline.signOut();
  });

  it('signed out, the worker has no count and refuses marks', async () => {
    const runtime = new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    expect(await runtime.notificationCount()).toBeNull();
    await expect(runtime.markAllNotificationsRead()).rejects.toThrow();
  });
});
