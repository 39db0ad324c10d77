import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInTabEngine } from '../../sync-worker/in-tab-engine';
import type { TokenRecord } from '../../sync-worker/types';
import { createWorld, newItem, serverCopy, type World } from './harness';

/** The in-tab engine of visitors (sync-worker/in-tab-engine.ts) against the real server. */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

describe('in-tab engine', () => {
  it('takes its token from the getter it is given, and runs the same named mutators', async () => {
    let token: TokenRecord | null = null;
    const engine = await createInTabEngine({
      userId: world.owner.user.id,
      token: () => token,
      baseUrl: world.url,
      idb: { indexedDB: new IDBFactory(), IDBKeyRange },
    });
    const first = newItem(world, { name: 'before the token' });
    await engine.apply('createRecords', { records: [{ collection: 'item', record: first }] }, { teamId: world.teamId });
    await engine.engine.idle();
    // No session yet: the edit waits in the queue, nothing was sent.
    expect(await engine.engine.queue.pendingCount()).toBe(1);
    expect(await serverCopy(world, 'items', first.id)).toBeUndefined();
    const anonymous = await engine.request('get', '/api/me/workspaces');
    expect(anonymous.status).toBe(401);

    token = world.owner.tokens;
    const second = newItem(world, { name: 'with the token' });
    const result = await engine.apply('createItem', { item: second, values: {} }, { teamId: world.teamId });
    expect(result.entries.map((e) => e.id)).toEqual([second.id]);
    await engine.engine.idle();
    expect(await serverCopy(world, 'items', first.id)).toMatchObject({ name: 'before the token' });
    expect(await serverCopy(world, 'items', second.id)).toMatchObject({ name: 'with the token' });
    const mine = await engine.request('get', '/api/me/workspaces');
    expect(mine.ok).toBe(true);
    engine.stop();
  });
});
