import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { ManualClock } from '../../sync-worker/clock';
import { BOARD_FRESH_MS } from '../../sync-worker/engine';
import { createClient, createWorld, newItem, wire, type World } from './harness';

/** Opening a board already in the replica asks only for the delta (DESIGN.md §3), not every index. */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

const indexLoads = (w: ReturnType<typeof wire>) => w.calls.filter((c) => c.method.toLowerCase() === 'get' && c.url.includes('board_id=')).length;
const deltas = (w: ReturnType<typeof wire>) => w.calls.filter((c) => c.url.includes('/changes?')).length;

describe('opening a board', () => {
  it('loads every index the first time, then only catches up: again in the session, and in a new session on the same device', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const clock = new ManualClock(Date.now());
    const w1 = wire();
    const first = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w1.fetch, idb, clock });
    await first.engine.openBoard(world.teamId, world.boardId);
    const loads = indexLoads(w1);
    expect(loads).toBeGreaterThan(0);

    // Someone else adds an item while the board is closed.
    const missed = newItem(world, { name: 'Added elsewhere' });
    await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${missed.id}`, { token: world.owner.token, body: { ...missed, row_version: 1 } });
    await first.engine.openBoard(world.teamId, world.boardId);
    expect(indexLoads(w1)).toBe(loads);
    expect(deltas(w1)).toBeGreaterThan(0);
    expect(await first.local('item', missed.id)).toMatchObject({ name: 'Added elsewhere' });
    first.close();

    // A new session (a restarted worker) on the same device: still only the delta, and refresh works.
    const w2 = wire();
    const second = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w2.fetch, idb, clock });
    const deleted = missed.id;
    await api(world.server.app, 'DELETE', `/api/${world.teamId}/items/${deleted}`, { token: world.owner.token });
    await second.engine.openBoard(world.teamId, world.boardId);
    expect(indexLoads(w2)).toBe(0);
    expect(await second.local('item', deleted)).toBeUndefined();
    await second.engine.refresh(world.teamId, 'item', world.boardId);
    expect(indexLoads(w2)).toBe(1);

    // A board not opened for longer than the freshness window is loaded again.
    second.close();
    clock.advance(BOARD_FRESH_MS + 1);
    const w3 = wire();
    const third = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w3.fetch, idb, clock });
    await third.engine.openBoard(world.teamId, world.boardId);
    expect(indexLoads(w3)).toBe(loads);
    third.close();
  });
});
