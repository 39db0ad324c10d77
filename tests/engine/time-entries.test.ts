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
import { notificationChannel } from '../../schema/notifications';
import { holdsWithin, waitFor } from '../helpers/wait';

/**
 * Time entries in the worker (issue #15): a timer started or stopped elsewhere reaches the owner's
 * other browsers on the personal channel private-App.User.{id} (even with the board not open
 * there), a TimeEntrySaved replaces the local copy only when its row_version is newer, and a start
 * through the startTimer action ends the running entry it replaces in the same request.
 */
describe('time entries in the worker', () => {
  let server: TestServer;
  let url: string;
  let teamId: number;
  let boardId: string;
  let itemId: string;
  let attributeId: string;
  let user: Awaited<ReturnType<typeof createUserWithToken>>;
  const stops: (() => unknown)[] = [];

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    user = await createUserWithToken(server.ctx, { name: 'Tia Tracker' });
    const team = await api(server.app, 'POST', '/api/teams', { token: user.token, body: { name: 'Hours' } });
    teamId = team.json().data.id as number;
    boardId = nanoid();
    itemId = nanoid();
    attributeId = nanoid();
    expect((await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, { token: user.token, body: { id: boardId, board_id: boardId, parent_id: null, name: 'B', row_version: 1 } })).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', `/api/${teamId}/items/${itemId}`, { token: user.token, body: { id: itemId, board_id: boardId, folder_id: boardId, name: 'Write report', row_version: 1 } })).statusCode).toBe(200);
    const attr = await api(server.app, 'PUT', `/api/${teamId}/attributes/${attributeId}`, {
      token: user.token,
      body: { id: attributeId, board_id: boardId, folder_id: boardId, name: 'Time', kind: 'time-tracking', settings: { allowParallel: false, sharedEntries: true }, position: 1, row_version: 1 },
    });
    expect(attr.statusCode, attr.body).toBe(200);
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await server.close();
  });

  async function worker(realtimes: Realtime[] = []) {
    const runtime = new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const detach = attachRealtime(runtime, (opts) => {
      const realtime = createRealtime({ ...opts, appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } }, Pusher: Pusher as unknown as PusherConstructor, authBatchMs: 10, origin: null });
      realtimes.push(realtime);
      return realtime;
    });
    await runtime.signIn(user.tokens, user.user.id);
    stops.push(async () => {
      detach();
      await runtime.signOut();
    });
    await waitFor(async () => realtimes.length === 1 && realtimes[0]!.state === 'connected', 15_000, 'a connection');
    // The personal channel is subscribed (channel auth is batched; slow on a busy machine) once a
    // probe published there is stored: probes go until one arrives.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const probe = { id: nanoid(), board_id: boardId, item_id: itemId, attribute_id: attributeId, description: 'probe', started_at: new Date().toISOString(), ended_at: new Date().toISOString(), created_by: user.user.id, row_version: 1 };
      await server.ctx.broadcaster.publish(notificationChannel(user.user.id), 'TimeEntrySaved', { collection: 'time_entry', data: probe });
      const seen = await holdsWithin(async () => (await runtime.current()?.db.relaxed.records.get(['time_entry', probe.id])) !== undefined, 1000);
      if (seen) break;
      if (Date.now() > deadline) throw new Error('the personal channel was never subscribed');
    }
    return runtime;
  }

  const held = async (runtime: SyncRuntime, id: string) => (await runtime.current()!.db.relaxed.records.get(['time_entry', id])) as Record<string, unknown> | undefined;

  async function saveOnServer(body: Record<string, unknown>) {
    const res = await api(server.app, 'POST', `/api/${teamId}/time-tracking`, { token: user.token, body: { board_id: boardId, item_id: itemId, attribute_id: attributeId, ...body } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, unknown> & { id: string; row_version: number };
  }

  it('a timer started and stopped elsewhere reaches this browser on the personal channel, the board never opened here', async () => {
    const device = await worker();
    const entry = await saveOnServer({ id: nanoid(), description: 'Drafting', started_at: new Date(Date.now() - 60_000).toISOString(), ended_at: null, row_version: 1 });
    await waitFor(async () => (await held(device, entry.id)) !== undefined, 20_000, 'the started entry');
    expect(await held(device, entry.id)).toMatchObject({ id: entry.id, ended_at: null, description: 'Drafting', created_by: user.user.id });

    const stopped = await saveOnServer({ ...entry, ended_at: new Date().toISOString(), row_version: entry.row_version + 1 });
    await waitFor(async () => (await held(device, entry.id))?.row_version === stopped.row_version, 20_000, 'the stopped entry');
    expect((await held(device, entry.id))?.ended_at).toBe(stopped.ended_at);
  });

  it('a TimeEntrySaved older than the copy held is ignored; a newer one replaces it', async () => {
    const device = await worker();
    const entry = await saveOnServer({ id: nanoid(), description: 'Reviewing', started_at: new Date(Date.now() - 120_000).toISOString(), ended_at: null, row_version: 1 });
    const stopped = await saveOnServer({ ...entry, ended_at: new Date().toISOString(), row_version: entry.row_version + 1 });
    await waitFor(async () => (await held(device, entry.id))?.row_version === stopped.row_version, 20_000, 'the stopped entry');

    // A late copy of the running version arrives after the stopped one (a retried delivery).
    const channel = notificationChannel(user.user.id);
    await server.ctx.broadcaster.publish(channel, 'TimeEntrySaved', { collection: 'time_entry', data: { ...entry, description: 'stale' } });
    // Then a marker on the same channel: once it is stored, the stale event was handled before it.
    const marker = { ...entry, id: nanoid(), description: 'marker', row_version: 0 };
    await server.ctx.broadcaster.publish(channel, 'TimeEntrySaved', { collection: 'time_entry', data: marker });
    await waitFor(async () => (await held(device, marker.id)) !== undefined, 20_000, 'the marker');
    expect(await held(device, entry.id)).toMatchObject({ row_version: stopped.row_version, description: 'Reviewing', ended_at: stopped.ended_at });

    // A newer version does replace it.
    await server.ctx.broadcaster.publish(channel, 'TimeEntrySaved', { collection: 'time_entry', data: { ...stopped, description: 'Reviewing, done', row_version: stopped.row_version + 1 } });
    await waitFor(async () => (await held(device, entry.id))?.description === 'Reviewing, done', 20_000, 'the newer copy');
  });

  it('startTimer ends the running entry it replaces in the same action; the server holds each entry once', async () => {
    const device = await worker();
    await device.openBoard(teamId, boardId);
    const first = { id: nanoid(), team_id: teamId, board_id: boardId, item_id: itemId, attribute_id: attributeId, description: 'First', started_at: new Date(Date.now() - 30_000).toISOString(), ended_at: null, created_by: user.user.id, row_version: 0 };
    await device.apply('startTimer', { entry: first, endIds: [] }, { teamId });
    const second = { ...first, id: nanoid(), description: 'Second', started_at: new Date().toISOString() };
    await device.apply('startTimer', { entry: second, endIds: [first.id] }, { teamId });
    // Locally at once: the first stopped when the second started.
    expect((await held(device, first.id))?.ended_at).toBe(second.started_at);
    await device.flush();
    await waitFor(async () => (await server.ctx.db.selectFrom('records').select('id').where('collection', '=', 'time_entry').where('id', 'in', [first.id, second.id]).execute()).length === 2, 20_000, 'both on the server');
    const rows = await server.ctx.db.selectFrom('records').select(['id', 'data']).where('collection', '=', 'time_entry').where('id', 'in', [first.id, second.id]).execute();
    const byId = new Map(rows.map((r) => [r.id, r.data as Record<string, unknown>]));
    expect(byId.get(first.id)).toMatchObject({ ended_at: second.started_at });
    expect(byId.get(second.id)).toMatchObject({ ended_at: null, description: 'Second' });

    // A start without a description is refused before anything is stored or sent.
    await expect(device.apply('startTimer', { entry: { ...first, id: nanoid(), description: ' ' }, endIds: [second.id] }, { teamId })).rejects.toThrow();
    expect((await held(device, second.id))?.ended_at).toBeNull();
  });
});
