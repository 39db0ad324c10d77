import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInTabEngine } from '../../sync-worker/in-tab-engine';
import { openUserDb } from '../../sync-worker/db';
import { allowedOn, chainTo, type ChainFolder } from '../../schema/permission-chain';
import { explain, PERMISSION_NAMES, ROLES, type PermissionName, type RoleOrGuest } from '../../schema/permissions';
import { boardAccess } from '../../src/boards/model/access';
import { api } from '../helpers/test-server';
import { createWorld, newItem, serverCopy, wire, type World } from './harness';

/**
 * Preview (pretend) mode, decision 0280: a preview tab's own engine over its own database, against
 * the real server. Its edits show in its database at once and never leave the tab; the user's
 * replica and the server are untouched, while a normal engine beside it still saves.
 */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

describe('preview engine', () => {
  it('loads the board with GET calls only, keeps every edit in its own database and sends no write', async () => {
    // What the server holds before the preview opens: one item the preview will edit and one it will delete.
    const kept = newItem(world, { name: 'on the server' });
    const doomed = newItem(world, { name: 'deleted in preview only' });
    for (const item of [kept, doomed]) {
      const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, { token: world.owner.token, body: { ...item, row_version: 1 } });
      expect(res.statusCode).toBe(200);
    }
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const net = wire();
    const preview = await createInTabEngine({
      userId: world.owner.user.id,
      token: () => world.owner.tokens,
      baseUrl: world.url,
      fetch: net.fetch,
      idb,
      preview: { database: 'preview-test000001' },
    });
    expect(preview.engine.isPreview).toBe(true);
    expect(preview.engine.db.name).toBe('cairn-preview-test000001');

    await preview.openBoard(world.teamId, world.boardId);
    await preview.engine.boardComplete(world.teamId, world.boardId);
    const loaded = await preview.engine.db.relaxed.records.get(['item', kept.id]);
    expect(loaded).toMatchObject({ name: 'on the server' });
    const reads = net.calls.length;
    expect(reads).toBeGreaterThan(0);

    // Every kind of write: a new item (action), a rename (action), a plain save, a delete.
    const added = newItem(world, { name: 'made in preview' });
    await preview.apply('createItem', { item: added, values: {} }, { teamId: world.teamId });
    await preview.apply('updateRecord', { collection: 'item', id: kept.id, patch: { name: 'renamed in preview' } }, { teamId: world.teamId });
    const saved = await preview.save('item', { ...(await local(preview, kept.id)), description: 'saved in preview' } as never, { teamId: world.teamId });
    expect(saved).toMatchObject({ name: 'renamed in preview' });
    await preview.apply('deleteRecords', { collection: 'item', ids: [doomed.id] }, { teamId: world.teamId });
    await preview.engine.idle();

    // Shown at once in the preview's own database…
    expect(await local(preview, added.id)).toMatchObject({ name: 'made in preview' });
    expect(await local(preview, kept.id)).toMatchObject({ name: 'renamed in preview' });
    expect(await local(preview, doomed.id)).toBeUndefined();
    // …queued nowhere, and nothing but GET ever went out.
    expect(await preview.engine.queue.pendingCount()).toBe(0);
    expect(await preview.engine.db.relaxed.failedRequests.count()).toBe(0);
    expect(net.calls.map((c) => c.method).filter((m) => m !== 'GET')).toEqual([]);
    // An online-only write (restore, members, purge) is answered in the tab, unsent.
    const answer = await preview.request('post', `/api/${world.teamId}/items/${doomed.id}/restore`);
    expect(answer).toMatchObject({ status: 403, ok: false, body: { type: 'preview', message: 'This feature is not available in preview mode.' } });
    expect(net.calls.map((c) => c.method).filter((m) => m !== 'GET')).toEqual([]);
    // Reads still work.
    expect((await preview.request('get', '/api/me/workspaces')).ok).toBe(true);

    // The server never heard of any of it.
    expect(await serverCopy(world, 'items', added.id)).toBeUndefined();
    expect(await serverCopy(world, 'items', kept.id)).toMatchObject({ name: 'on the server', row_version: 1 });
    expect(await serverCopy(world, 'items', doomed.id)).toMatchObject({ name: 'deleted in preview only' });

    // The user's replica (same browser, same IndexedDB) is another database and holds none of it.
    const replica = await openUserDb(world.owner.user.id, idb);
    expect(await replica.relaxed.records.get(['item', added.id])).toBeUndefined();
    expect(await replica.relaxed.failedRequests.count()).toBe(0);
    replica.close();
    preview.stop();
  });

  it('leaves a normal engine of the same browser saving to the server', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const previewNet = wire();
    const preview = await createInTabEngine({ userId: world.owner.user.id, token: () => world.owner.tokens, baseUrl: world.url, fetch: previewNet.fetch, idb, preview: { database: 'preview-test000002' } });
    const normal = await createInTabEngine({ userId: world.owner.user.id, token: () => world.owner.tokens, baseUrl: world.url, idb });
    await Promise.all([preview.openBoard(world.teamId, world.boardId), normal.openBoard(world.teamId, world.boardId)]);

    const inPreview = newItem(world, { name: 'preview tab' });
    const inNormal = newItem(world, { name: 'normal tab' });
    await preview.apply('createItem', { item: inPreview, values: {} }, { teamId: world.teamId });
    await normal.apply('createItem', { item: inNormal, values: {} }, { teamId: world.teamId });
    await Promise.all([preview.engine.idle(), normal.engine.idle()]);

    expect(await serverCopy(world, 'items', inNormal.id)).toMatchObject({ name: 'normal tab' });
    expect(await serverCopy(world, 'items', inPreview.id)).toBeUndefined();
    expect(await normal.engine.db.relaxed.records.get(['item', inPreview.id])).toBeUndefined();
    expect(await local(preview, inPreview.id)).toMatchObject({ name: 'preview tab' });
    expect(previewNet.calls.every((c) => c.method === 'GET')).toBe(true);
    preview.stop();
    normal.stop();
  });
});

describe('preview seeded from the replica', () => {
  it('starts from what the user\'s replica holds, unsaved edits too, opens offline, and leaves the replica as it was', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    // The user's real engine on this device: one saved item, then a rename made offline (queued).
    const realNet = wire();
    const real = await createInTabEngine({ userId: world.owner.user.id, token: () => world.owner.tokens, baseUrl: world.url, fetch: realNet.fetch, idb });
    await real.openBoard(world.teamId, world.boardId);
    const item = newItem(world, { name: 'saved on the server' });
    await real.apply('createItem', { item, values: {} }, { teamId: world.teamId });
    await real.engine.idle();
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'saved on the server' });
    realNet.down = true;
    await real.apply('updateRecord', { collection: 'item', id: item.id, patch: { name: 'renamed offline, not saved yet' } }, { teamId: world.teamId });
    await real.engine.idle();
    expect(await real.engine.queue.pendingCount()).toBe(1);

    // A preview tab with the network down: its board comes from the replica.
    const previewNet = wire();
    previewNet.down = true;
    const preview = await createInTabEngine({
      userId: world.owner.user.id,
      token: () => world.owner.tokens,
      baseUrl: world.url,
      fetch: previewNet.fetch,
      idb,
      online: false,
      preview: { database: 'preview-test000003', seedFrom: world.owner.user.id },
    });
    await preview.openBoard(world.teamId, world.boardId).catch(() => undefined);
    expect(await local(preview, item.id)).toMatchObject({ name: 'renamed offline, not saved yet' });
    expect(await preview.engine.db.relaxed.records.get(['folder', world.boardId])).toMatchObject({ name: 'Board' });
    expect(await preview.engine.db.relaxed.records.get(['attribute', world.attributeId])).toBeTruthy();

    // Edits in preview stay there; the replica and its queue are as they were.
    await preview.apply('updateRecord', { collection: 'item', id: item.id, patch: { name: 'renamed in preview' } }, { teamId: world.teamId });
    await preview.engine.idle();
    expect(await local(preview, item.id)).toMatchObject({ name: 'renamed in preview' });
    expect(await real.engine.db.relaxed.records.get(['item', item.id])).toMatchObject({ name: 'renamed offline, not saved yet' });
    expect(await real.engine.queue.pendingCount()).toBe(1);
    // Seeding once per board: opening again does not bring the replica's copy back over the preview's.
    await preview.openBoard(world.teamId, world.boardId).catch(() => undefined);
    expect(await local(preview, item.id)).toMatchObject({ name: 'renamed in preview' });
    expect(previewNet.calls.every((c) => c.method === 'GET')).toBe(true);

    // The network returns: the real engine saves its own edit, never the preview's.
    realNet.down = false;
    real.reportOnline(true);
    await expect.poll(async () => (await serverCopy(world, 'items', item.id))?.name, { timeout: 10_000 }).toBe('renamed offline, not saved yet');
    preview.stop();
    real.stop();
  });

  it('copies nothing and creates no replica when the device has none', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const preview = await createInTabEngine({ userId: 424242, token: () => world.owner.tokens, baseUrl: world.url, idb, preview: { database: 'preview-test000004', seedFrom: 424242 } });
    await preview.seedBoard(world.boardId);
    expect((await idb.indexedDB.databases()).map((d) => d.name)).toEqual(['cairn-preview-test000004']);
    preview.stop();
  });
});

describe('preview permissions', () => {
  // A chain where everything is shut: a hidden board with a member list, every permission denied.
  const denyAll = Object.fromEntries(PERMISSION_NAMES.flatMap((p) => [...ROLES, 'guest'].map((r) => [`${p}:role:${r}`, 'deny' as const])));
  const board: ChainFolder = { id: 'b', parent_id: null, hidden: true, permissions: denyAll, user_ids: [999], created_by: 999 };
  const folder: ChainFolder = { id: 'f', parent_id: 'b', hidden: true, permissions: denyAll, created_by: 999 };
  const workspace = { id: 1, owner_id: 999, permissions: denyAll };
  const folders = new Map([board, folder].map((f) => [f.id, f]));
  const viewers: { id: number | null; role: RoleOrGuest }[] = [{ id: null, role: 'guest' }, ...ROLES.filter((r) => r !== 'owner').map((role, i) => ({ id: 10 + i, role }))];

  it('every permission answers allowed, for every viewer, at every level', () => {
    const chain = chainTo(workspace, folders, 'f')!;
    let refusedOutside = 0;
    for (const viewer of viewers) {
      for (const permission of PERMISSION_NAMES as readonly PermissionName[]) {
        expect(allowedOn(viewer, permission, chain, 999, true)).toBe(true);
        expect(explain({ permission, user: viewer, chain, preview: true })).toEqual({ allowed: true, reason: 'preview' });
        // Without preview the same chain refuses (so the test can fail).
        if (!allowedOn(viewer, permission, chain, 999)) refusedOutside++;
      }
    }
    expect(refusedOutside).toBeGreaterThan(viewers.length * 10);
  });

  it("the app's board access answers allowed for every permission, even for folders it does not know", () => {
    const access = boardAccess(workspace, { id: null, role: 'guest' }, [board, folder] as never, { preview: true });
    const closed = boardAccess(workspace, { id: null, role: 'guest' }, [board, folder] as never);
    for (const permission of PERMISSION_NAMES as readonly PermissionName[]) {
      expect(access.can(permission, 'f', 999)).toBe(true);
      expect(access.can(permission, 'unknown')).toBe(true);
      expect(closed.can(permission, 'f', 999)).toBe(false);
    }
  });
});

async function local(engine: { engine: { db: { relaxed: { records: { get(key: [string, string]): Promise<unknown> } } } } }, id: string) {
  const row = (await engine.engine.db.relaxed.records.get(['item', id])) as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const { collection: _collection, ...rest } = row;
  return rest;
}
