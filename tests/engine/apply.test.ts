import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { applyRemoteChanges, replaceIndex, settleRequests, Tombstones } from '../../sync-worker/apply';
import { openUserDb } from '../../sync-worker/db';
import { Emitter } from '../../sync-worker/events';
import type { QueuedRequest, SyncRecord } from '../../sync-worker/types';

/** apply.ts on a real (fake-indexeddb) database: late copies never resurrect deleted records. */

const open = () => openUserDb(Math.floor(Math.random() * 1e9), { indexedDB: new IDBFactory(), IDBKeyRange });
const rec = (v: number, name = 'x'): SyncRecord => ({ id: 'a', board_id: 'B', name, row_version: v });

function request(over: Partial<QueuedRequest>): QueuedRequest {
  return {
    key: 'k1', seq: 1, teamId: 1, collection: 'item', id: 'a', method: 'put', route: 'items/a', channel: 'c',
    transaction: null, multiple: false, item: rec(2), old: rec(1), created_at: 0, attempts: 1, error: null, reserved_at: null, batch_key: null, ...over,
  };
}

describe('late copies and tombstones', () => {
  it('a saved copy not newer than a delete we saw is ignored; a newer one (a restore) applies', async () => {
    const db = await open();
    const tombstones = new Tombstones();
    await applyRemoteChanges(db, [{ collection: 'item', op: 'saved', record: rec(1) }], tombstones);
    await applyRemoteChanges(db, [{ collection: 'item', op: 'deleted', record: { ...rec(2), deleted_at: 'now' } }], tombstones);
    expect(await db.relaxed.records.get(['item', 'a'])).toBeUndefined();
    await applyRemoteChanges(db, [{ collection: 'item', op: 'saved', record: rec(2, 'late echo') }], tombstones);
    expect(await db.relaxed.records.get(['item', 'a'])).toBeUndefined();
    await applyRemoteChanges(db, [{ collection: 'item', op: 'saved', record: rec(3, 'restored') }], tombstones);
    expect(await db.relaxed.records.get(['item', 'a'])).toMatchObject({ name: 'restored' });
    db.close();
  });

  it('a lost answer replayed after the delete arrived does not bring the record back', async () => {
    const db = await open();
    const tombstones = new Tombstones();
    const pending = request({});
    await db.strict.failedRequests.put(pending);
    await db.strict.records.put({ ...rec(2, 'mine'), collection: 'item' });
    // The delta delivers someone's delete (trash, version 3) before our save's answer.
    await applyRemoteChanges(db, [{ collection: 'item', op: 'deleted', record: { ...rec(3), deleted_at: 'now' } }], tombstones);
    await settleRequests(db, [{ request: pending, outcome: { kind: 'applied', record: rec(2, 'mine') } }], new Emitter(), 0, tombstones);
    expect(await db.relaxed.records.get(['item', 'a'])).toBeUndefined();
    expect(await db.relaxed.failedRequests.count()).toBe(0);
    db.close();
  });

  it('an index load keeps records with pending requests or drafts and drops what the server no longer lists', async () => {
    const db = await open();
    await db.strict.records.bulkPut([
      { ...rec(1), id: 'gone', collection: 'item' },
      { ...rec(1), id: 'pending', collection: 'item' },
      { ...rec(5, 'local newer'), id: 'kept', collection: 'item' },
    ]);
    await db.strict.failedRequests.put(request({ id: 'pending', key: 'p' }));
    await replaceIndex(db, 'item', 'B', [{ ...rec(2, 'server'), id: 'new' }, { ...rec(4, 'server older'), id: 'kept' }]);
    const ids = (await db.relaxed.records.toArray()).map((r) => r.id).sort();
    expect(ids).toEqual(['kept', 'new', 'pending']);
    expect(await db.relaxed.records.get(['item', 'kept'])).toMatchObject({ name: 'local newer' });
    db.close();
  });
});
