import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import Pusher from 'pusher-js';
import { createTestServer, api } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, createClient, type World } from './harness';
import { createRealtime, type PusherConstructor, type Realtime, type RealtimeEvent } from '../../sync-worker/realtime';
import { waitFor } from '../helpers/wait';

/**
 * End to end: a write accepted by the real sync endpoints is broadcast on its board channel and
 * reaches another user's worker (pusher-js + the sync engine's applyRemote) without polling,
 * while the writer's own socket (X-Socket-Id) is skipped.
 */


describe('sync writes over realtime', () => {
  let world: World;
  let port: number;
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    const server = await createTestServer({ realtime: true });
    const url = await server.listen();
    port = Number(new URL(url).port);
    const owner = await createUserWithToken(server.ctx, { name: 'Writer A' });
    const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Realtime team' } });
    expect(team.statusCode).toBe(201);
    const teamId = team.json().data.id as number;
    const boardId = nanoid();
    const board = await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, {
      token: owner.token,
      body: { id: boardId, board_id: boardId, parent_id: null, name: 'Board', row_version: 1 },
    });
    expect(board.statusCode).toBe(200);
    world = { server, url, owner: owner as World['owner'], teamId, boardId, folderId: boardId, attributeId: '', close: () => server.close() };
  });
  afterAll(async () => {
    for (const stop of stops.splice(0)) stop();
    await world.close();
  });

  function realtimeFor(token: string, onEvent: (e: RealtimeEvent) => void): Realtime {
    const realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port, useTLS: false } },
      apiBase: world.url,
      getToken: () => token,
      fetch: (input, init) => fetch(input, init),
      onEvent,
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 10,
    });
    stops.push(() => realtime.stop());
    return realtime;
  }

  it("delivers A's save and delete to B's engine, never back to A's socket", async () => {
    const b = await addMember(world, 'full-member');
    const device = await createClient(world, { token: b.tokens, userId: b.user.id });
    stops.push(() => device.close());
    const bEvents: RealtimeEvent[] = [];
    const bRealtime = realtimeFor(b.token, (event) => {
      bEvents.push(event);
      if (event.scope === 'board' && event.event !== 'changed') void device.engine.applyRemote({ event: event.event, collection: event.collection, data: event.data as never }, { teamId: event.teamId, boardId: event.boardId });
    });
    const aEvents: RealtimeEvent[] = [];
    const aRealtime = realtimeFor(world.owner.token, (event) => aEvents.push(event));
    await Promise.all([bRealtime.subscribeBoard(world.teamId, world.boardId), aRealtime.subscribeBoard(world.teamId, world.boardId)]);

    const item = { id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name: 'From A', row_version: 1 };
    const saved = await fetch(`${world.url}/api/${world.teamId}/items/${item.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.owner.token}`, 'x-socket-id': aRealtime.socketId()! },
      body: JSON.stringify(item),
    });
    expect(saved.status).toBe(200);
    await waitFor(async () => (await device.local('item', item.id))?.name === 'From A', 5000, "B's local copy");
    expect(bEvents[0]).toMatchObject({ scope: 'board', event: 'saved', collection: 'item', data: { id: item.id, row_version: 1 } });

    const deleted = await fetch(`${world.url}/api/${world.teamId}/items/${item.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${world.owner.token}`, 'x-socket-id': aRealtime.socketId()! },
    });
    expect(deleted.status).toBeLessThan(300);
    await waitFor(() => bEvents.some((e) => e.event === 'deleted'), 5000, 'deleted event');

    // A third write without X-Socket-Id reaches A too: A saw nothing before because it was excluded.
    const other = { id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name: 'No socket', row_version: 1 };
    await fetch(`${world.url}/api/${world.teamId}/items/${other.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.owner.token}` },
      body: JSON.stringify(other),
    });
    await waitFor(() => aEvents.length > 0, 5000, 'event at A');
    expect(aEvents.map((e) => (e.data as { id?: string }).id)).toEqual([other.id]);
  });

  it('broadcasts every request of a queued batch, skipping the writer socket', async () => {
    const b = await addMember(world, 'full-member');
    const bEvents: RealtimeEvent[] = [];
    const bRealtime = realtimeFor(b.token, (event) => bEvents.push(event));
    const aEvents: RealtimeEvent[] = [];
    const aRealtime = realtimeFor(world.owner.token, (event) => aEvents.push(event));
    await Promise.all([bRealtime.subscribeBoard(world.teamId, world.boardId), aRealtime.subscribeBoard(world.teamId, world.boardId)]);
    const items = [1, 2, 3].map((n) => ({ id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name: `Batch ${n}`, row_version: 1 }));
    const res = await fetch(`${world.url}/api/${world.teamId}/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.owner.token}`, 'x-socket-id': aRealtime.socketId()! },
      body: JSON.stringify({ transaction: null, requests: items.map((item) => ({ method: 'put', route: `items/${item.id}`, payload: item })) }),
    });
    expect(res.status).toBe(200);
    await waitFor(() => bEvents.length === 3, 5000, 'three saved events at B');
    expect(bEvents.map((e) => (e.data as { id: string }).id).sort()).toEqual(items.map((i) => i.id).sort());
    await new Promise((r) => setTimeout(r, 200));
    expect(aEvents).toEqual([]);
  });
});
