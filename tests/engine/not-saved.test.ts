import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { SyncRuntime } from '../../sync-worker/api';
import { ManualClock, systemClock } from '../../sync-worker/clock';
import { dbNameFor } from '../../sync-worker/db';
import { OVERFLOW_RETRY_MS } from '../../sync-worker/engine';
import type { SyncRecord } from '../../sync-worker/types';
import { addMember, createClient, createWorld, newItem, serverCopy, wire, type World } from './harness';

/**
 * Decision 0094: an edit the server refuses for good is kept whole (refusedEdits) until the user
 * retries, copies or discards it; edits the quota refused reach the durable queue once space
 * frees; sign-out can remove this device's copy. The engine against the real server, on
 * fake-indexeddb.
 */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

const client = (extra: Partial<Parameters<typeof createClient>[1]> = {}) =>
  createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, ...extra });

const owner = () => ({ token: world.owner.token });

let textAttributeId: string | null = null;
/** A text attribute on the world's board (its values take any words). */
async function textAttribute(): Promise<string> {
  if (textAttributeId) return textAttributeId;
  const id = nanoid();
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${id}`, {
    ...owner(),
    body: { id, board_id: world.boardId, folder_id: world.boardId, name: 'Notes', kind: 'text', row_version: 1 },
  });
  expect(res.statusCode).toBe(200);
  textAttributeId = id;
  return id;
}

/** A folder on the world's board with one item in it, made through the API. */
async function folderWithItem(name = 'In folder'): Promise<{ folderId: string; item: SyncRecord }> {
  const folderId = nanoid();
  const folder = await api(world.server.app, 'PUT', `/api/${world.teamId}/folders/${folderId}`, {
    ...owner(),
    body: { id: folderId, board_id: world.boardId, parent_id: world.boardId, name: 'Folder', row_version: 1 },
  });
  expect(folder.statusCode).toBe(200);
  const item = newItem(world, { folder_id: folderId, name, row_version: 1 });
  const saved = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, { ...owner(), body: item });
  expect(saved.statusCode).toBe(200);
  return { folderId, item: saved.json().data };
}

const trashFolder = async (folderId: string) =>
  expect((await api(world.server.app, 'DELETE', `/api/${world.teamId}/folders/${folderId}`, owner())).statusCode).toBe(200);
const restoreFolder = async (folderId: string) =>
  expect((await api(world.server.app, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`, owner())).statusCode).toBe(200);

async function serverValue(id: string): Promise<any> {
  const res = await api(world.server.app, 'GET', `/api/${world.teamId}/values?board_id=${world.boardId}`, owner());
  return (res.json().data as any[]).find((v) => v.id === id);
}

describe('a refused edit is kept whole', () => {
  it('422: the request, its record and the server message stay in refusedEdits; edits of other records still go', async () => {
    const c = await client();
    await c.engine.setQueueing(true);
    const bad = newItem(world, { folder_id: 'no-such-folder', name: 'Typed with care' });
    const other = newItem(world, { name: 'Other record' });
    await c.engine.save('item', bad, { teamId: world.teamId });
    await c.engine.save('item', other, { teamId: world.teamId });
    await c.engine.setQueueing(false);
    await c.engine.idle();

    const rows = await c.db.relaxed.refusedEdits.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      collection: 'item',
      id: bad.id,
      teamId: world.teamId,
      method: 'put',
      route: `items/${bad.id}`,
      item: { id: bad.id, name: 'Typed with care', folder_id: 'no-such-folder', row_version: 1 },
      old: null,
      status: 422,
    });
    expect(rows[0]!.message).toMatch(/folder_id/);
    expect(rows[0]!.requests).toHaveLength(1);
    expect(rows[0]!.requests[0]).toMatchObject({ id: bad.id, method: 'put' });
    expect(await c.local('item', bad.id)).toBeUndefined(); // the new record was taken away locally
    expect(await serverCopy(world, 'items', other.id)).toMatchObject({ name: 'Other record' });
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(c.of('not-saved').at(-1)).toEqual({ count: 1 });
    const listed = await c.engine.refusedEdits();
    expect(listed[0]).toMatchObject({ id: bad.id, status: 422, label: { item: 'Typed with care' } });
    c.close();
  });

  it('403: an edit by a user the server does not let in is kept with its message', async () => {
    const stranger = await createUserWithToken(world.server.ctx);
    const c = await createClient(world, { token: stranger.tokens as never, userId: stranger.user.id });
    const item = newItem(world, { name: 'Not yours' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    const [row] = await c.db.relaxed.refusedEdits.toArray();
    expect(row).toMatchObject({ id: item.id, status: 403, item: { name: 'Not yours' } });
    expect(row!.message).toBeTruthy();
    c.close();
  });

  it('404 on a PUT (a value of an item whose folder went to the trash) keeps the value with a readable label', async () => {
    const { folderId, item } = await folderWithItem('Plan the launch');
    const c = await client();
    await c.engine.openBoard(world.teamId, world.boardId);
    await trashFolder(folderId);
    const valueId = `${item.id}.${world.attributeId}`;
    const value = { id: valueId, item_id: item.id, attribute_id: world.attributeId, board_id: world.boardId, value: 'first', row_version: 0 };
    await c.engine.save('value', value, { teamId: world.teamId });
    await c.engine.idle();
    const [row] = await c.db.relaxed.refusedEdits.toArray();
    expect(row).toMatchObject({ collection: 'value', id: valueId, status: 404, item: { value: 'first' } });
    expect((await c.engine.refusedEdits())[0]!.label).toEqual({ item: 'Plan the launch', attribute: 'Status', value: 'first' });
    await restoreFolder(folderId);
    c.close();
  });

  it('a refusal of one edit also keeps the later edits of that record (the row holds the newest)', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    const bad = newItem(world, { folder_id: 'no-such-folder', name: 'v1' });
    // The first attempt gets no answer, so the next edit cannot merge into it: two requests.
    w.down = true;
    await c.engine.save('item', bad, { teamId: world.teamId });
    await c.engine.idle();
    await c.engine.save('item', { ...bad, name: 'v2' }, { teamId: world.teamId });
    expect(await c.db.relaxed.failedRequests.count()).toBe(2);
    w.down = false;
    c.engine.connection.realtimeReconnected();
    await c.engine.idle();
    const [row] = await c.db.relaxed.refusedEdits.toArray();
    expect(row).toMatchObject({ id: bad.id, method: 'put', item: { name: 'v2' }, old: null, status: 422 });
    expect(row!.requests.map((r) => r.item?.name)).toEqual(['v1', 'v2']);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('Retry after the cause is fixed lands the edit once, with a new idempotency key', async () => {
    const { folderId, item } = await folderWithItem('Retry me');
    const w = wire();
    const c = await client({ fetch: w.fetch });
    await c.engine.openBoard(world.teamId, world.boardId);
    // Offline, the user sets a value; meanwhile someone trashes the folder.
    c.engine.connection.networkFailure();
    const attributeId = await textAttribute();
    const valueId = `${item.id}.${attributeId}`;
    await c.engine.save('value', { id: valueId, item_id: item.id, attribute_id: attributeId, board_id: world.boardId, value: 'typed offline', row_version: 0 }, { teamId: world.teamId });
    await trashFolder(folderId);
    c.engine.connection.browserOnline();
    await c.engine.idle();
    const refusedKey = w.calls.filter((call) => call.url.includes(`/values/`)).at(-1)!.headers['x-idempotency-key'];
    expect(await c.db.relaxed.refusedEdits.get(['value', valueId])).toMatchObject({ status: 404 });
    expect(await serverValue(valueId)).toBeUndefined();

    await restoreFolder(folderId);
    const before = w.calls.length;
    await c.engine.retryRefused('value', valueId);
    await c.engine.idle();
    const sent = w.calls.slice(before).filter((call) => call.url.includes(`/values/`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-idempotency-key']).not.toBe(refusedKey);
    expect(await serverValue(valueId)).toMatchObject({ value: 'typed offline', row_version: 1 });
    expect(await c.db.relaxed.refusedEdits.count()).toBe(0);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(c.of('not-saved').at(-1)).toEqual({ count: 0 });
    c.close();
  });

  it('Retry of an edit to an existing record saves over the current version, so it lands after others changed it', async () => {
    const { folderId, item } = await folderWithItem('Existing');
    const c = await client();
    await c.engine.openBoard(world.teamId, world.boardId);
    await trashFolder(folderId);
    const stored = (await c.local('item', item.id))!;
    await c.engine.save('item', { ...stored, name: 'Renamed' });
    await c.engine.idle();
    expect(await c.db.relaxed.refusedEdits.get(['item', item.id])).toMatchObject({ status: 422, item: { name: 'Renamed', row_version: 2 } });
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Existing', row_version: 1 });
    // The folder comes back and someone else edits the item; our replica follows.
    await restoreFolder(folderId);
    const theirs = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, { ...owner(), body: { ...(await serverCopy(world, 'items', item.id)), name: 'Theirs', row_version: 2 } });
    expect(theirs.statusCode).toBe(200);
    await c.engine.applyRemote({ event: 'saved', collection: 'item', data: theirs.json().data });
    await c.engine.retryRefused('item', item.id);
    await c.engine.idle();
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Renamed', row_version: 3 });
    expect(await c.db.relaxed.refusedEdits.count()).toBe(0);
    expect(await c.db.relaxed.conflicts.count()).toBe(0);
    c.close();
  });

  it('a Retry the server refuses again brings the row back with the new answer', async () => {
    const c = await client();
    const bad = newItem(world, { folder_id: 'no-such-folder', name: 'Stubborn' });
    await c.engine.save('item', bad, { teamId: world.teamId });
    await c.engine.idle();
    const first = await c.db.relaxed.refusedEdits.get(['item', bad.id]);
    await c.engine.retryRefused('item', bad.id);
    await c.engine.idle();
    const again = await c.db.relaxed.refusedEdits.get(['item', bad.id]);
    expect(again).toMatchObject({ status: 422, item: { name: 'Stubborn', row_version: 1 } });
    expect(again!.refused_at).toBeGreaterThanOrEqual(first!.refused_at);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('Discard removes the row for good and leaves the server copy in place', async () => {
    const c = await client();
    const bad = newItem(world, { folder_id: 'no-such-folder' });
    await c.engine.save('item', bad, { teamId: world.teamId });
    await c.engine.idle();
    expect(await c.db.relaxed.refusedEdits.count()).toBe(1);
    await c.engine.discardRefused('item', bad.id);
    expect(await c.db.relaxed.refusedEdits.count()).toBe(0);
    expect(await c.engine.refusedEdits()).toEqual([]);
    expect(c.of('not-saved').at(-1)).toEqual({ count: 0 });
    await c.engine.retryRefused('item', bad.id); // nothing left to retry
    await c.engine.idle();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });
});

describe('storage quota', () => {
  const full = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };

  it('an edit refused for space is written to the durable queue on the retry timer once space frees', async () => {
    const clock = new ManualClock(Date.now());
    const c = await client({ clock });
    await c.engine.setQueueing(true);
    c.db.strict.failedRequests.hook('creating', full);
    const item = newItem(world, { name: 'typed while full' });
    await c.engine.save('item', item, { teamId: world.teamId });
    expect(c.of('quota-exceeded')).toEqual([expect.objectContaining({ held: 1 })]);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    // Still full at the first retry: held, in order.
    await clock.advanceAsync(OVERFLOW_RETRY_MS);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.db.strict.failedRequests.hook('creating').unsubscribe(full);
    // Space frees; no other write happens: the timer writes it.
    await clock.advanceAsync(OVERFLOW_RETRY_MS);
    await new Promise((r) => setTimeout(r, 30));
    const queued = await c.db.relaxed.failedRequests.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ id: item.id, item: { name: 'typed while full' } });
    expect(c.of('storage-freed')).toEqual([{ written: 1 }]);
    await c.engine.setQueueing(false);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'typed while full' });
    c.close();
  });

  it('held edits are written before a later edit of the same record, on the next successful write', async () => {
    const c = await client();
    await c.engine.setQueueing(true);
    const item = newItem(world, { name: 'first' });
    c.db.strict.failedRequests.hook('creating', full);
    await c.engine.save('item', item, { teamId: world.teamId });
    c.db.strict.failedRequests.hook('creating').unsubscribe(full);
    await c.engine.save('item', { ...item, name: 'second' }, { teamId: world.teamId });
    expect(c.engine.heldEdits).toBe(0);
    expect(await c.local('item', item.id)).toMatchObject({ name: 'second' });
    await c.engine.setQueueing(false);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'second' });
    c.close();
  });
});

describe('sign-out', () => {
  const runtime = (idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) =>
    new SyncRuntime({ baseUrl: world.url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb });

  const tableCounts = async (idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }, userId: number) => {
    const names = (await idb.indexedDB.databases()).map((d) => d.name);
    if (!names.includes(dbNameFor(userId))) return null;
    const db = new Dexie(dbNameFor(userId), idb);
    await db.open();
    const counts = Object.fromEntries(await Promise.all(db.tables.map(async (t) => [t.name, await t.count()] as const)));
    db.close();
    return counts;
  };

  it('with "remove this device\'s copy" deletes the user\'s replica, queue and meta', async () => {
    const member = await addMember(world);
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const r = runtime(idb);
    await r.signIn(member.tokens, member.user.id);
    await r.openBoard(world.teamId, world.boardId);
    await r.setQueueing(true);
    await r.save('item', newItem(world, { name: 'queued, then removed' }), { teamId: world.teamId });
    const before = await tableCounts(idb, member.user.id);
    expect(before!.records).toBeGreaterThan(0);
    expect(before!.failedRequests).toBe(1);
    expect(before!.meta).toBeGreaterThan(0);

    await r.signOut({ removeDataOf: member.user.id });
    expect(await r.currentUser()).toBeNull();
    expect(await tableCounts(idb, member.user.id)).toBeNull();
    // A new worker finds no one to resume.
    expect(await runtime(idb).resume()).toBe(false);
  });

  it('without it keeps the queued work for the same user', async () => {
    const member = await addMember(world);
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const r = runtime(idb);
    await r.signIn(member.tokens, member.user.id);
    await r.setQueueing(true);
    await r.save('item', newItem(world), { teamId: world.teamId });
    await r.signOut();
    expect((await tableCounts(idb, member.user.id))!.failedRequests).toBe(1);
  });
});
