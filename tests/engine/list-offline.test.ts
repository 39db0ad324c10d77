import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { waitFor } from '../helpers/wait';
import { CairnDexie, dbNameFor } from '../../sync-worker/db';
import type { SyncRecord } from '../../sync-worker/types';
import { BoardActions } from '../../src/boards/store/actions';
import type { BoardBackend } from '../../src/boards/store/backend';
import { RecordList, valueListSource } from '../../src/boards/store/record-lists';
import { groupItems } from '../../src/boards/model/query';
import { createClient, createWorld, wire, type Client, type World } from './harness';

/**
 * The List view's data path with a status changed offline (issue #12): the List groups the
 * folder pane's items by the status column it reads into an in-place list (store/record-lists.ts
 * valueListSource, what useAttributeValues builds) and saves a picked status with
 * BoardActions.setValue. Offline, the change is in the replica and in the list's groups at once;
 * back online it reaches the real server; another device's list regroups when the value reaches
 * its replica (here by the delta its engine asks, as on a reconnect; live, realtime brings it).
 */
const OPTIONS = [
  { id: 'todo', name: 'To do', color: '#DDDDDD' },
  { id: 'done', name: 'Done', color: '#A8E6A1' },
];

let world: World;
let status: SyncRecord;
const itemIds: Record<string, string> = {};

beforeAll(async () => {
  world = await createWorld();
  const token = world.owner.token;
  const statusId = nanoid();
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${statusId}`, {
    token,
    body: { id: statusId, board_id: world.boardId, folder_id: world.boardId, name: 'Stage', kind: 'status', position: 2, row_version: 1, settings: { options: OPTIONS } },
  });
  expect(res.statusCode).toBe(200);
  status = res.json().data;
  for (const [position, name] of ['Alpha', 'Bravo'].entries()) {
    const id = (itemIds[name] = nanoid());
    const item = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${id}`, { token, body: { id, board_id: world.boardId, folder_id: world.folderId, name, position: position + 1, row_version: 1 } });
    expect(item.statusCode).toBe(200);
    const value = await api(world.server.app, 'PUT', `/api/${world.teamId}/values/${id}.${statusId}`, { token, body: { id: `${id}.${statusId}`, board_id: world.boardId, item_id: id, attribute_id: statusId, value: 'todo', row_version: 1 } });
    expect(value.statusCode).toBe(200);
  }
}, 120_000);
afterAll(() => world?.close());

/** A device with the List open: its engine, and the status column as the List's pane reads it. */
async function device(fetch = wire().fetch) {
  const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  const client = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch, idb });
  await client.engine.openBoard(world.teamId, world.boardId);
  await client.engine.boardComplete(world.teamId, world.boardId);
  const reader = new CairnDexie(dbNameFor(world.owner.user.id), 'default', idb);
  const column = new RecordList(reader, valueListSource([status.id]));
  const off = column.subscribe(() => undefined);
  await waitFor(() => column.version() !== undefined, 10_000, 'the status column');
  // In the pane's order (by position when the view has no sort).
  const items = ((await reader.records.where('[collection+board_id]').equals(['item', world.boardId]).toArray()) as unknown as { id: string; name: string; position: number }[]).sort((a, b) => a.position - b.position);
  /** The list's groups as it shows them: option id → item names. */
  const groups = () =>
    Object.fromEntries(
      groupItems(items, status as never, (itemId, attributeId) => column.lookup(`${itemId}.${attributeId}`)?.value ?? null).map((g) => [g.key, g.items.map((i) => i.name)]),
    );
  return {
    client,
    column,
    groups,
    close() {
      off();
      column.stop();
      reader.close();
      client.close();
    },
  };
}

function backendOf(c: Client): BoardBackend {
  return { userId: world.owner.user.id, db: c.db.relaxed, apply: (name, args, options) => c.engine.apply(name, args, options) } as BoardBackend;
}

const serverStage = async (itemId: string) => {
  const res = await api(world.server.app, 'GET', `/api/${world.teamId}/values?board_id=${world.boardId}`, { token: world.owner.token });
  return (res.json().data as SyncRecord[]).find((v) => v.id === `${itemId}.${status.id}`)?.value;
};

describe('List view: a status changed offline', () => {
  it('regroups at once offline, reaches the server when back online, and regroups another device’s list through its replica', async () => {
    const w = wire();
    const mine = await device(w.fetch);
    const other = await device();
    try {
      expect(mine.groups()).toMatchObject({ todo: ['Alpha', 'Bravo'], done: [] });
      expect(other.groups()).toMatchObject({ todo: ['Alpha', 'Bravo'], done: [] });

      // Offline: the network is gone (nothing reaches the server) and the engine knows it.
      w.down = true;
      mine.client.engine.connection.networkFailure();
      const loads = mine.column.loads;
      const actions = new BoardActions(backendOf(mine.client), world.teamId, world.boardId);
      const alpha = (await mine.client.local('item', itemIds.Alpha!))!;
      await actions.setValue(alpha, status as never, 'done');
      await waitFor(() => mine.groups().done?.includes('Alpha') ?? false, 5000, 'the offline regroup');
      expect(mine.groups()).toMatchObject({ todo: ['Bravo'], done: ['Alpha'] });
      // Patched in place: the column was not read again for one value.
      expect(mine.column.loads).toBe(loads);
      expect(await serverStage(itemIds.Alpha!)).toBe('todo');
      // Undoable like any edit (one step), though nothing has been sent.
      expect(actions.history.canUndo).toBe(true);

      // Back online: the queued change reaches the server.
      w.down = false;
      mine.client.engine.connection.browserOnline();
      await mine.client.engine.idle();
      await waitFor(async () => (await serverStage(itemIds.Alpha!)) === 'done', 20_000, 'the server copy');
      expect(await mine.client.db.relaxed.failedRequests.count()).toBe(0);

      // The other device: the value reaches its replica, and its list regroups from it.
      expect(other.groups()).toMatchObject({ todo: ['Alpha', 'Bravo'] });
      await other.client.engine.catchUp(world.teamId, world.boardId);
      await waitFor(() => other.groups().done?.includes('Alpha') ?? false, 10_000, 'the other device’s regroup');
      expect(other.groups()).toMatchObject({ todo: ['Bravo'], done: ['Alpha'] });
    } finally {
      mine.close();
      other.close();
    }
  }, 120_000);
});
