import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { SyncRuntime } from '../../sync-worker/api';
import { systemClock } from '../../sync-worker/clock';
import { createWorld, type World } from './harness';

/**
 * One owner of online/offline (issue #10 part 4): a tab hands what its own calls saw to the
 * worker (`reportServerReach`), whose connection machine tells every tab. The real runtime against
 * the real server.
 */
let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

describe('the worker owns connectivity', () => {
  it('goes offline at once when a tab got no answer, and online again when one did; every tab hears it', async () => {
    const runtime = new SyncRuntime({ baseUrl: world.url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    // Signed out: nothing to own yet, and nothing breaks.
    await runtime.reportServerReach(false);
    await runtime.signIn(world.owner.tokens, world.owner.user.id);
    const heard: string[] = [];
    await runtime.subscribe((event, payload) => {
      if (event === 'connection') heard.push((payload as { status: string }).status);
    });
    expect(await runtime.connectionStatus()).toBe('connected');
    await runtime.reportServerReach(false);
    expect(await runtime.connectionStatus()).toBe('disconnected');
    await runtime.reportServerReach(true);
    expect(await runtime.connectionStatus()).toBe('connected');
    expect(heard).toEqual(['disconnected', 'connected']);
    await runtime.signOut();
  });
});
