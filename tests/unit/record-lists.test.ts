import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { RangeSet } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDexie, openUserDb, type UserDb } from '../../sync-worker/db';
import { writeIndexRecords } from '../../sync-worker/stream';
import type { StoredRecord } from '../../sync-worker/types';
import { keysOfRangeSet, RecordList, valueListSource, type ListSource } from '../../src/boards/store/record-lists';
import { waitFor } from '../helpers/wait';
import { storedReaders, valueChangesBetween } from '../../src/boards/store/value-readers';

/**
 * Updates in place (decision 0101): a board list in the tab is read once, then patched from
 * Dexie's change notices — a rename or a remote save reads the record it wrote, not the board.
 * The writer is a second handle on the same database, as the worker is for a tab.
 */

const item = (id: string, board: string, fields: Record<string, unknown> = {}): StoredRecord => ({ collection: 'item', id, board_id: board, folder_id: board, name: `Item ${id}`, row_version: 1, ...fields });
const itemsOf = (board: string): ListSource<StoredRecord> => ({
  collection: 'item',
  load: (db) => db.records.where('[collection+board_id]').equals(['item', board]).toArray(),
  belongs: (r) => r.board_id === board,
});

let writer: UserDb;
let reader: CairnDexie;
let list: RecordList<StoredRecord>;
let unsubscribe: () => void;
let notices = 0;

beforeEach(async () => {
  const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  writer = await openUserDb('lists', idb);
  reader = new CairnDexie('cairn-lists', 'default', idb);
  const rows = Array.from({ length: 200 }, (_, i) => item(`i${i}`, 'B'));
  for (let i = 0; i < rows.length; i += 40) await writer.relaxed.records.bulkPut(rows.slice(i, i + 40));
  await writer.relaxed.records.put(item('other', 'C'));
  list = new RecordList(reader, itemsOf('B'));
  notices = 0;
  unsubscribe = list.subscribe(() => notices++);
  await waitFor(() => list.snapshot()?.length === 200, 5000, 'first read');
});

afterEach(() => {
  unsubscribe();
  list.stop();
  writer.close();
  reader.close();
});

describe('a board list updated in place', () => {
  it('names the records each change touched (changedBetween), and not what a full read changed', async () => {
    const v0 = list.version()!;
    expect(list.changedBetween(v0, v0)).toEqual([]);
    expect(list.changedBetween(v0 - 1, v0), 'the first read changed everything').toBeNull();
    await writer.relaxed.records.put(item('i3', 'B', { name: 'Three', row_version: 2 }));
    await waitFor(() => list.version() === v0 + 1, 5000, 'the rename');
    await writer.relaxed.records.delete(['item', 'i4']);
    await waitFor(() => list.version() === v0 + 2, 5000, 'the delete');
    expect(list.changedBetween(v0, v0 + 1)).toEqual(['i3']);
    expect(list.changedBetween(v0, v0 + 2)?.sort()).toEqual(['i3', 'i4']);
    expect(list.changedBetween(v0 + 1, v0 + 2)).toEqual(['i4']);
  });

  it('patches a rename without reading the board again, and keeps the other records as they were', async () => {
    const before = list.snapshot()!;
    expect(list.loads).toBe(1);
    await writer.relaxed.records.put(item('i7', 'B', { name: 'Renamed', row_version: 2 }));
    await waitFor(() => list.snapshot() !== before, 5000, 'the rename');
    const after = list.snapshot()!;
    expect(list.loads).toBe(1);
    expect(after).toHaveLength(200);
    expect(after.find((r) => r.id === 'i7')).toMatchObject({ name: 'Renamed', row_version: 2 });
    // Every other record is the same object: rows memoised on them do not render again.
    for (let i = 0; i < before.length; i++) if (before[i]!.id !== 'i7') expect(after[i]).toBe(before[i]);
  });

  it('adds, removes and moves records out, and ignores writes that are not its own', async () => {
    let before = list.snapshot()!;
    // Another board's item, a value, and a record written again unchanged: no new list.
    await writer.relaxed.records.put(item('other2', 'C'));
    await writer.relaxed.records.put({ collection: 'value', id: 'i1.a', board_id: 'B', item_id: 'i1', attribute_id: 'a', value: 'x', row_version: 1 });
    await writer.relaxed.records.put(item('i3', 'B'));
    await list.settled();
    await new Promise((r) => setTimeout(r, 50));
    await list.settled();
    expect(list.snapshot()).toBe(before);
    expect(notices).toBe(1); // the first read only

    await writer.relaxed.records.put(item('new', 'B', { name: 'Arrived' }));
    await waitFor(() => list.snapshot() !== before, 5000, 'the new item');
    expect(list.snapshot()!.at(-1)).toMatchObject({ id: 'new', name: 'Arrived' });
    before = list.snapshot()!;
    await writer.relaxed.records.delete(['item', 'i0']);
    await waitFor(() => list.snapshot() !== before, 5000, 'the delete');
    expect(list.snapshot()!.some((r) => r.id === 'i0')).toBe(false);
    before = list.snapshot()!;
    await writer.relaxed.records.put(item('i1', 'C', { row_version: 2 }));
    await waitFor(() => list.snapshot() !== before, 5000, 'the move');
    expect(list.snapshot()!.some((r) => r.id === 'i1')).toBe(false);
    expect(list.snapshot()).toHaveLength(199);
    expect(list.loads).toBe(1);
  });

  it('follows a streamed index load key by key (bulkPuts under 50), and reads again after a write Dexie cannot name', async () => {
    const before = list.snapshot()!;
    const streamed = Array.from({ length: 300 }, (_, i) => item(`s${i}`, 'B'));
    await writeIndexRecords(writer, 'item', streamed, undefined, 100);
    await waitFor(() => list.snapshot()!.length === 500, 5000, 'the streamed pages');
    expect(list.loads).toBe(1);
    expect(list.snapshot()!.slice(0, 200)).toEqual(before);
    // One bulkPut of 60: Dexie marks the whole table, and the list reads itself again.
    await writer.relaxed.records.bulkPut(Array.from({ length: 60 }, (_, i) => item(`b${i}`, 'B')));
    await waitFor(() => list.snapshot()!.length === 560, 5000, 'the big bulkPut');
    expect(list.loads).toBe(2);
  });
});

describe('a value column (what a view places items by), read by id without copies', () => {
  const value = (itemId: string, attributeId: string, v: unknown, row_version = 1): StoredRecord => ({ collection: 'value', id: `${itemId}.${attributeId}`, board_id: 'B', item_id: itemId, attribute_id: attributeId, value: v, row_version });

  it('answers values by id, changes its version on an edit of its own attributes only, and never reads the column again', async () => {
    await writer.relaxed.records.bulkPut(Array.from({ length: 40 }, (_, i) => value(`i${i}`, 'due', `2026-03-${String((i % 28) + 1).padStart(2, '0')}`)));
    await writer.relaxed.records.put(value('i1', 'status', 'todo'));
    const column = new RecordList(reader, valueListSource(['due']));
    const off = column.subscribe(() => undefined);
    try {
      expect(column.version()).toBeUndefined();
      await waitFor(() => column.version() !== undefined, 5000, 'first read');
      const first = column.version();
      expect(column.lookup('i3.due')?.value).toBe('2026-03-04');
      expect(column.lookup('i1.status')).toBeUndefined();

      // Another attribute's value: no change, and not even read (its id names its attribute).
      await writer.relaxed.records.put(value('i1', 'status', 'done', 2));
      await column.settled();
      await new Promise((r) => setTimeout(r, 50));
      await column.settled();
      expect(column.version()).toBe(first);
      expect(column.keysRead).toBe(0);
      const untouched = column.lookup('i4.due');
      await writer.relaxed.records.put(value('i3', 'due', '2026-04-01', 2));
      await waitFor(() => column.version() !== first, 5000, 'the edit');
      expect(column.lookup('i3.due')).toMatchObject({ value: '2026-04-01', row_version: 2 });
      expect(column.keysRead).toBe(1);
      // The other records are the same objects (per-item memos compare by identity).
      expect(column.lookup('i4.due')).toBe(untouched);
      expect(column.loads).toBe(1);
      // The array form is built when asked (a column read by id never builds it) and kept until a change.
      const array = column.snapshot()!;
      expect(array).toHaveLength(40);
      expect(column.snapshot()).toBe(array);
    } finally {
      off();
      column.stop();
    }
  });
});

describe('readers over one list per attribute (store/value-readers.ts)', () => {
  const value = (itemId: string, attributeId: string, v: unknown, row_version = 1): StoredRecord => ({ collection: 'value', id: `${itemId}.${attributeId}`, board_id: 'B', item_id: itemId, attribute_id: attributeId, value: v, row_version });

  it('reads the lists read so far at once, all of them only when every one is read, and names what an edit changed', async () => {
    await writer.relaxed.records.bulkPut([value('i1', 'points', 3), value('i2', 'points', 5), value('i1', 'status', 'done'), value('i2', 'status', 'todo')]);
    const points = new RecordList(reader, valueListSource(['points']));
    const status = new RecordList(reader, valueListSource(['status']));
    const lists = [['points', points], ['status', status]] as const;
    // Nothing read yet: no reader at all.
    expect(storedReaders('t1', lists)).toMatchObject({ all: undefined, partial: undefined });
    const offPoints = points.subscribe(() => undefined);
    try {
      await waitFor(() => points.version() !== undefined, 5000, 'points read');
      const half = storedReaders('t1', lists);
      expect(half.all).toBeUndefined();
      expect([...half.loaded]).toEqual(['points']);
      expect(half.partial!('i2.points')).toBe(5);
      expect(half.partial!('i1.status')).toBeUndefined();
      const offStatus = status.subscribe(() => undefined);
      try {
        await waitFor(() => status.version() !== undefined, 5000, 'status read');
        const whole = storedReaders('t1', lists);
        expect(whole.partial).toBe(whole.all);
        expect(whole.all!('i1.status')).toBe('done');
        expect(whole.all!('i1.points')).toBe(3);
        // Asked again at the same versions (another mount): the same reader.
        expect(storedReaders('t1', lists).all).toBe(whole.all);
        // An edit of one attribute: a new reader, and the change named through that list alone.
        const version = status.version();
        await writer.relaxed.records.put(value('i2', 'status', 'done', 2));
        await waitFor(() => status.version() !== version, 5000, 'the edit');
        const after = storedReaders('t1', lists);
        expect(after.all).not.toBe(whole.all);
        expect(after.all!('i2.status')).toBe('done');
        expect(valueChangesBetween(whole.all!, after.all!)).toEqual(['i2.status']);
        // Readers of other lists: not known.
        expect(valueChangesBetween(whole.all!, storedReaders('t2', [['points', points]]).all!)).toBeNull();
      } finally {
        offStatus();
      }
    } finally {
      offPoints();
      points.stop();
      status.stop();
    }
  });

  it('needs nothing for no attributes', () => {
    const none = storedReaders('t3', []);
    expect(none.all).toBeDefined();
    expect(none.all!('i1.x')).toBeUndefined();
    expect(valueChangesBetween(none.all!, none.all!)).toEqual([]);
  });
});

describe('keysOfRangeSet', () => {
  it('lists single keys and refuses a range', () => {
    const keys = new RangeSet().addKeys([
      ['item', 'a'],
      ['item', 'b'],
    ]);
    expect(keysOfRangeSet(JSON.parse(JSON.stringify(keys)))).toEqual(expect.arrayContaining([['item', 'a'], ['item', 'b']]));
    expect(keysOfRangeSet(JSON.parse(JSON.stringify(new RangeSet(['item', 'a'], ['item', 'z']))))).toBeNull();
  });
});
