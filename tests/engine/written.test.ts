import 'fake-indexeddb/auto';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { WRITTEN_SHOWN } from '../../sync-worker/events';
import type { SyncRecord } from '../../sync-worker/types';
import { createClient, createWorld, newItem, wire, type World } from './harness';

/**
 * The engine tells every tab what an action stored right after its transaction committed
 * (`written`, decision 0295), so another tab shows an edit without waiting for its own read of
 * the replica. Real server over HTTP, online, never paused.
 */

let world: World;
let textId: string;

beforeAll(async () => {
  world = await createWorld();
  textId = nanoid();
  const attr = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${textId}`, {
    token: world.owner.token,
    body: { id: textId, board_id: world.boardId, folder_id: world.boardId, name: 'Notes', kind: 'text', row_version: 1 },
  });
  expect(attr.statusCode).toBe(200);
});
afterAll(() => world.close());

describe('written: what an action stored, told to every tab', () => {
  it('is told once per action, after the commit and before the request goes out, with the stored copies', async () => {
    const w = wire();
    const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
    const attribute = (await api(world.server.app, 'GET', `/api/${world.teamId}/attributes?board_id=${world.boardId}`, { token: world.owner.token })).json().data as SyncRecord[];
    await c.db.relaxed.records.bulkPut(attribute.map((a) => ({ ...a, collection: 'attribute' })));
    const sentWhenTold: number[] = [];
    c.events.on((event) => {
      if (event === 'written') sentWhenTold.push(w.calls.filter((call) => call.method !== 'GET').length);
    });
    const item = newItem(world, { name: 'Told' });
    await c.engine.apply('createItem', { item, values: { [textId]: 'first' } }, { teamId: world.teamId });
    let told = c.of('written');
    expect(told).toHaveLength(1);
    expect(sentWhenTold).toEqual([0]);
    const valueId = `${item.id}.${textId}`;
    const byKey = new Map(told[0]!.records.map((r) => [`${r.collection}/${r.id}`, r.record]));
    expect(byKey.get(`item/${item.id}`)).toEqual(await c.local('item', item.id));
    expect(byKey.get(`value/${valueId}`)).toEqual(await c.local('value', valueId));
    await c.engine.idle();

    // A value edit: the told copy is the replica's, at the version the edit produced.
    const before = (await c.local('value', valueId))!;
    await c.engine.apply('setValues', { itemIds: [item.id], attributeId: textId, value: 'second' }, { teamId: world.teamId });
    told = c.of('written');
    expect(told).toHaveLength(2);
    expect(told[1]!.records).toEqual([{ collection: 'value', id: valueId, record: await c.local('value', valueId) }]);
    expect(told[1]!.records[0]!.record!.row_version).toBeGreaterThan(before.row_version);
    await c.engine.idle();

    // Nothing changed: nothing told. A delete is told as null.
    await c.engine.apply('setValues', { itemIds: [item.id], attributeId: textId, value: 'second' }, { teamId: world.teamId });
    expect(c.of('written')).toHaveLength(2);
    await c.engine.apply('deleteRecords', { collection: 'item', ids: [item.id] }, { teamId: world.teamId });
    expect(c.of('written')[2]!.records).toContainEqual({ collection: 'item', id: item.id, record: null });
    await c.engine.idle();
    c.close();
  });

  it('a bulk action of more records than tabs overlay is not told (tabs wait for the replica)', async () => {
    const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id });
    const items = Array.from({ length: WRITTEN_SHOWN + 1 }, (_, i) => newItem(world, { name: `bulk ${i}` }));
    await c.engine.apply('createRecords', { records: items.map((record) => ({ collection: 'item', record })) }, { teamId: world.teamId });
    expect(c.of('written')).toHaveLength(0);
    await c.engine.idle();
    c.close();
  });
});
