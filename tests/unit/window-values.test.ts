import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDexie, openUserDb, type UserDb } from '../../sync-worker/db';
import type { StoredRecord } from '../../sync-worker/types';
import { MAX_ITEMS, WindowValues } from '../../src/boards/store/window-values';
import { heldRecord, recordList } from '../../src/boards/store/record-lists';
import { waitFor } from '../helpers/wait';

/**
 * The values of the rows on screen (decision 0295): each item is read once while it is held, a
 * write re-reads only the items it touched, and the tab holds at most MAX_ITEMS items. The writer
 * is a second handle on the same database, as the worker is for a tab.
 */

const value = (item: string, attribute: string, v: unknown, row_version = 1): StoredRecord => ({
  collection: 'value',
  id: `${item}.${attribute}`,
  board_id: 'B',
  item_id: item,
  attribute_id: attribute,
  value: v as never,
  row_version,
});
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `i${from + i}`);

let writer: UserDb;
let reader: CairnDexie;
let cache: WindowValues;
let notices = 0;
let off: () => void;

beforeEach(async () => {
  const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  writer = await openUserDb('window', idb);
  reader = new CairnDexie('cairn-window', 'default', idb);
  const rows = ids(0, 300).flatMap((id) => [value(id, 'a', `${id} a`), value(id, 'b', `${id} b`)]);
  for (let i = 0; i < rows.length; i += 40) await writer.relaxed.records.bulkPut(rows.slice(i, i + 40));
  cache = new WindowValues(reader);
  notices = 0;
  off = cache.subscribe(() => notices++);
});

afterEach(() => {
  off();
  writer.close();
  reader.close();
});

describe('values of the rows on screen', () => {
  it('reads a window once, then only the rows scrolled to', async () => {
    const owner = {};
    cache.show(owner, ids(0, 128));
    await waitFor(() => cache.get('i127') !== undefined, 5000, 'first window');
    expect(cache.get('i5')!.get('a')).toBe('i5 a');
    expect(cache.reads).toBe(1);
    const kept = cache.get('i100');
    // Scrolled one block down: the overlapping rows are not read again and keep their Maps.
    cache.show(owner, ids(64, 192));
    await waitFor(() => cache.get('i191') !== undefined, 5000, 'next block');
    expect(cache.reads).toBe(2);
    expect(cache.get('i100')).toBe(kept);
    // The same window again reads nothing.
    cache.show(owner, ids(64, 192));
    expect(cache.reads).toBe(2);
  });

  it('a write re-reads only the items it touched, and an untouched row keeps its Map', async () => {
    const owner = {};
    cache.show(owner, ids(0, 64));
    await waitFor(() => cache.get('i63') !== undefined, 5000, 'window');
    const other = cache.get('i2');
    const before = notices;
    await writer.strict.records.put(value('i1', 'a', 'edited', 2));
    await waitFor(() => cache.get('i1')?.get('a') === 'edited', 5000, 'edit seen');
    expect(notices).toBeGreaterThan(before);
    expect(cache.get('i2')).toBe(other);
    expect(cache.versions.get('i1.a')).toBe(2);
    expect(cache.reads).toBe(2);
    // A value removed is removed from the row.
    await writer.strict.records.delete(['value', 'i1.b']);
    await waitFor(() => cache.get('i1')?.has('b') === false, 5000, 'delete seen');
  });

  it('holds at most MAX_ITEMS items, never letting go of the ones on screen', async () => {
    const owner = {};
    const many = Array.from({ length: MAX_ITEMS + 100 }, (_, i) => `x${i}`);
    cache.show(owner, many.slice(0, MAX_ITEMS));
    await waitFor(() => cache.get(`x${MAX_ITEMS - 1}`) !== undefined, 10_000, 'big window');
    cache.show(owner, many.slice(100));
    await waitFor(() => cache.get(`x${MAX_ITEMS + 99}`) !== undefined, 10_000, 'moved');
    expect(cache.get('x0')).toBeUndefined();
    expect(cache.get('x100')).toBeDefined();
  });
});

describe('a record held by a kept-current list (warm opens read no IndexedDB)', () => {
  it('answers from a list already read, and nothing for a list never read', async () => {
    const key = 'board\u0000value\u0000B';
    expect(heldRecord(reader, key, 'i1.a')).toBeUndefined();
    const list = recordList(reader, key, () => ({ collection: 'value', load: (db) => db.records.where('[collection+board_id]').equals(['value', 'B']).toArray(), belongs: (r) => r.board_id === 'B' }));
    const stop = list.subscribe(() => undefined);
    await waitFor(() => list.snapshot() !== undefined, 5000, 'list read');
    expect(heldRecord(reader, key, 'i1.a')?.value).toBe('i1 a');
    await writer.strict.records.put(value('i1', 'a', 'renamed', 2));
    await waitFor(() => heldRecord(reader, key, 'i1.a')?.value === 'renamed', 5000, 'kept current');
    stop();
    list.stop();
  });
});
