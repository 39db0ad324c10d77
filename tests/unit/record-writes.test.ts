import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUserDb, type UserDb } from '../../sync-worker/db';
import { writeIndexRecords } from '../../sync-worker/stream';
import { watchRecordWrites } from '../../sync-worker/record-writes';
import type { StoredRecord, SyncRecord } from '../../sync-worker/types';

/**
 * A stream writes a cold page without reading the replica, except the records written since it
 * began (decision 0310). Those are known from the writes themselves, as each is issued: any Dexie
 * write to `records` on either handle, and every other stream's raw puts.
 */
let db: UserDb;
const item = (id: string, row_version = 1): StoredRecord => ({ collection: 'item', id, board_id: 'B', folder_id: 'B', name: id, row_version });

beforeEach(async () => {
  db = await openUserDb(`writes-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

describe('writes noted as they are issued (sync-worker/record-writes.ts)', () => {
  it('knows a Dexie write on either handle before its transaction completes, only for its collection and only after the watch began', async () => {
    await db.relaxed.records.put(item('before'));
    const watch = watchRecordWrites(db.name, 'item');
    try {
      expect(watch.has('before')).toBe(false);
      await db.strict.transaction('rw', db.strict.records, async () => {
        await db.strict.records.put(item('saved', 2));
        // Inside the transaction, not at its completion notice.
        expect(watch.has('saved')).toBe(true);
      });
      await db.relaxed.records.bulkPut(Array.from({ length: 60 }, (_, i) => item(`bulk${i}`)));
      expect(watch.has('bulk59')).toBe(true);
      await db.relaxed.records.put({ ...item('v1'), collection: 'value' });
      expect(watch.has('v1')).toBe(false);
      await db.relaxed.records.delete(['item', 'before']);
      expect(watch.has('before')).toBe(true);
      expect(watch.has('never')).toBe(false);
      // A delete by query names the keys it found.
      await db.relaxed.records.where('[collection+board_id]').equals(['item', 'B']).delete();
      expect(watch.has('bulk0')).toBe(true);
      expect(watch.has('never')).toBe(false);
      // A write that names no keys (a clear): every id counts as written.
      await db.relaxed.records.clear();
      expect(watch.has('never')).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('knows another stream’s raw puts, so a page read earlier does not write over them', async () => {
    const watch = watchRecordWrites(db.name, 'item');
    try {
      await writeIndexRecords(db, 'item', [item('fresh', 3) as unknown as SyncRecord], undefined, 100, () => false);
      expect(watch.has('fresh')).toBe(true);
      // The older copy of a page of this stream: compared (the watch names it), and not written.
      await writeIndexRecords(db, 'item', [item('fresh', 1) as unknown as SyncRecord], undefined, 100, (id) => watch.has(id));
      expect(await db.relaxed.records.get(['item', 'fresh'])).toMatchObject({ row_version: 3 });
    } finally {
      watch.stop();
    }
  });

  it('forgets a stopped watch', async () => {
    const watch = watchRecordWrites(db.name, 'item');
    watch.stop();
    await db.relaxed.records.put(item('late'));
    expect(watch.has('late')).toBe(false);
  });
});
