import 'fake-indexeddb/auto';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import type { SyncRecord } from '../../sync-worker/types';
import { createClient, createWorld, newItem, wire, type World } from './harness';

/**
 * setItemValues (a gantt bar over start + end date attributes): both values of one item in one
 * action, one request batch, against the real server; an invalid one refuses the whole action.
 */
describe('named mutation setItemValues', () => {
  let world: World;
  const startId = nanoid();
  const endId = nanoid();
  let seed: SyncRecord[] = [];

  beforeAll(async () => {
    world = await createWorld();
    for (const [id, name] of [[startId, 'Start'], [endId, 'End']] as const) {
      const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${id}`, {
        token: world.owner.token,
        body: { id, board_id: world.boardId, folder_id: world.boardId, name, kind: 'date', row_version: 1 },
      });
      expect(res.statusCode).toBe(200);
      seed.push({ ...res.json().data, collection: 'attribute' });
    }
  });
  afterAll(() => world.close());

  it('writes both dates as one action and one request, and refuses an invalid one whole', async () => {
    const w = wire();
    const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
    await c.db.relaxed.records.bulkPut(seed.map((record) => ({ ...record })) as never);
    const item = newItem(world, { name: 'Phase' });
    await c.engine.apply('createRecords', { records: [{ collection: 'item', record: item }] }, { teamId: world.teamId });
    await c.engine.idle();
    w.calls.length = 0;

    const result = await c.engine.apply('setItemValues', { itemId: item.id, values: { [startId]: '2026-03-28', [endId]: '2026-04-02' } }, { teamId: world.teamId });
    expect(result.entries).toHaveLength(2);
    await c.engine.idle();
    const writes = w.calls.filter((call) => call.method !== 'GET');
    expect(writes).toHaveLength(1);
    expect((writes[0]!.body as { requests: unknown[] }).requests).toHaveLength(2);
    const server = (await api(world.server.app, 'GET', `/api/${world.teamId}/values?board_id=${world.boardId}`, { token: world.owner.token })).json().data as SyncRecord[];
    expect(server.find((v) => v.id === `${item.id}.${startId}`)?.value).toBe('2026-03-28');
    expect(server.find((v) => v.id === `${item.id}.${endId}`)?.value).toBe('2026-04-02');

    await expect(c.engine.apply('setItemValues', { itemId: item.id, values: { [startId]: '2026-03-30', [endId]: 'not a date' } }, { teamId: world.teamId })).rejects.toThrow();
    expect((await c.local('value', `${item.id}.${startId}`))?.value).toBe('2026-03-28');
    c.close();
  });
});
