import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { Messages } from '../../schema/messages';
import { SyncRuntime } from '../../sync-worker/api';
import { systemClock } from '../../sync-worker/clock';
import { LeaderForwarder, type LeaderApi, type LockManagerLike } from '../../sync-worker/leader';
import { createWorld, newItem, serverCopy, type World } from './harness';

/** The Comlink surface (SyncRuntime) and the dedicated-worker fallback (leader election + forwarding). */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

function runtime(idb = { indexedDB: new IDBFactory(), IDBKeyRange }) {
  return new SyncRuntime({ baseUrl: world.url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb });
}

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('SyncRuntime', () => {
  it('validates the token record on sign-in', async () => {
    await expect(runtime().signIn({ expires_in: 3600 } as never, 1)).rejects.toThrow(Messages.missingAccessToken);
  });

  it('signs in, saves through the engine, and a restarted worker resumes the session from the database', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const r1 = runtime(idb);
    await r1.signIn(world.owner.tokens, world.owner.user.id);
    expect(await r1.currentUser()).toBe(world.owner.user.id);
    const events: string[] = [];
    await r1.subscribe((e) => void events.push(e));
    await r1.openBoard(world.teamId, world.boardId);
    expect(events).toContain('loaded');
    const item = newItem(world, { name: 'via runtime' });
    await r1.save('item', item, { teamId: world.teamId });
    await r1.flush();
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'via runtime' });
    // Online-only calls go through the worker's session (the tab has no token).
    const trash = await r1.request('get', `/api/${world.teamId}/trash?board_id=${world.boardId}`);
    expect(trash.status).toBe(200);
    const teams = await r1.request('get', '/api/me/workspaces');
    expect((teams.body as { data: { id: number }[] }).data.map((t) => t.id)).toContain(world.teamId);

    // The worker restarts (tab reload, browser restart): no sign-in needed.
    const r2 = runtime(idb);
    expect(await r2.resume()).toBe(true);
    expect(await r2.currentUser()).toBe(world.owner.user.id);
    const r2item = newItem(world, { name: 'after restart' });
    await r2.save('item', r2item, { teamId: world.teamId });
    await r2.flush();
    expect(await serverCopy(world, 'items', r2item.id)).toMatchObject({ name: 'after restart' });

    // Signing out forgets the token but not the user's unsynced work.
    await r2.setQueueing(true);
    const pending = newItem(world, { name: 'waits for next sign-in' });
    await r2.save('item', pending, { teamId: world.teamId });
    await r2.signOut();
    expect(await r2.currentUser()).toBeNull();
    await expect(r2.save('item', newItem(world), { teamId: world.teamId })).rejects.toThrow(Messages.unauthorized);
    const r3 = runtime(idb);
    expect(await r3.resume()).toBe(false);
    await r3.signIn(world.owner.tokens, world.owner.user.id);
    await r3.flush();
    expect(await serverCopy(world, 'items', pending.id)).toMatchObject({ name: 'waits for next sign-in' });
  });
});

/** The Web Locks API is not in Node 20: a minimal exclusive lock with the same contract. */
function locks(): LockManagerLike {
  const holders = new Map<string, boolean>();
  const waiting = new Map<string, (() => void)[]>();
  return {
    async request(name, callback) {
      if (holders.get(name)) await new Promise<void>((resolve) => waiting.set(name, [...(waiting.get(name) ?? []), resolve]));
      holders.set(name, true);
      try {
        return await callback();
      } finally {
        holders.set(name, false);
        const next = waiting.get(name)?.shift();
        next?.();
      }
    },
  };
}

describe('dedicated-worker fallback: one leader, the others forward', () => {
  it('a follower’s commands run on the leader, its tab gets the events, and leadership moves when the leader goes', async () => {
    const lockManager = locks();
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const name = 'cairn-sync-test-' + nanoid(6);
    const make = () =>
      new LeaderForwarder({ locks: lockManager, bus: new BroadcastChannel(name) as never, createRuntime: () => runtime(idb), newId: () => nanoid(), clock: systemClock }) as LeaderApi;
    const tab1 = make();
    const tab2 = make();
    await settle();
    expect(tab1.isLeader).toBe(true);
    expect(tab2.isLeader).toBe(false);
    const seen: string[] = [];
    await tab2.subscribe((e) => void seen.push(e));

    await tab2.signIn(world.owner.tokens, world.owner.user.id);
    expect(await tab1.currentUser()).toBe(world.owner.user.id);
    await tab2.openBoard(world.teamId, world.boardId);
    const item = newItem(world, { name: 'from follower' });
    const saved = await tab2.save('item', item, { teamId: world.teamId });
    expect(saved).toMatchObject({ row_version: 1 });
    await tab2.flush();
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'from follower' });
    await settle();
    expect(seen).toContain('loaded');
    await expect(tab2.refresh(world.teamId, 'item', null)).rejects.toThrow(Messages.refreshNotInitialized);

    // The leader's tab closes: tab2 takes over and resumes the session from the database.
    tab1.close();
    await settle(100);
    expect(tab2.isLeader).toBe(true);
    expect(await tab2.currentUser()).toBe(world.owner.user.id);
    tab2.close();
  });
});

describe('storage persistence', () => {
  it('asks navigator.storage.persist() unless already persisted, and survives its absence', async () => {
    const { requestPersistence } = await import('../../sync-worker/browser-runtime');
    const asked: string[] = [];
    expect(await requestPersistence({ storage: { persisted: async () => false, persist: async () => (asked.push('persist'), true) } })).toBe(true);
    expect(asked).toEqual(['persist']);
    expect(await requestPersistence({ storage: { persisted: async () => true, persist: async () => (asked.push('again'), true) } })).toBe(true);
    expect(asked).toEqual(['persist']);
    expect(await requestPersistence({})).toBe(false);
  });
});
