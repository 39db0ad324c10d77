import { describe, expect, it } from 'vitest';
import { PendingWrites } from '../../src/boards/store/pending';

/** Records another tab's action stored, shown until this tab's replica read has them (decision 0295). */
describe('pending writes: what the engine told every tab it stored', () => {
  const record = (row_version: number, value: string) => ({ id: 'v', row_version, value });

  it('shows a told record until the replica reaches its version, then gives way', () => {
    let now = 1_000;
    const pending = new PendingWrites(() => now);
    let renders = 0;
    pending.subscribe(() => renders++);
    pending.showStored([{ collection: 'value', id: 'v', record: record(4, 'Told') }]);
    expect(renders).toBe(1);
    const entry = pending.get('value', 'v')!;
    expect(entry.record).toEqual(record(4, 'Told'));
    expect(pending.replicaWins(entry, { row_version: 3 })).toBe(false);
    expect(pending.replicaWins(entry, { row_version: 4 })).toBe(true);
    now += 1_001;
    expect(pending.replicaWins(entry, { row_version: 4 })).toBe(true);
    expect(pending.size).toBe(0);
  });

  it('never replaces this tab’s write in flight, nor a newer told copy', () => {
    const pending = new PendingWrites(() => 0);
    pending.put('value', 'v', record(5, 'Typing'), Number.POSITIVE_INFINITY);
    pending.showStored([{ collection: 'value', id: 'v', record: record(4, 'Older') }]);
    expect(pending.get('value', 'v')!.record).toEqual(record(5, 'Typing'));
    pending.drop('value', 'v');
    pending.showStored([{ collection: 'value', id: 'v', record: record(6, 'Newer') }]);
    pending.showStored([{ collection: 'value', id: 'v', record: record(5, 'Late') }]);
    expect(pending.get('value', 'v')!.record).toEqual(record(6, 'Newer'));
  });

  it('a told delete hides the record until the replica no longer has it', () => {
    const pending = new PendingWrites(() => 0);
    pending.showStored([{ collection: 'item', id: 'i', record: null }]);
    const entry = pending.get('item', 'i')!;
    expect(entry.record).toBeNull();
    expect(pending.replicaWins(entry, { row_version: 2 })).toBe(false);
    expect(pending.replicaWins(entry, undefined)).toBe(true);
  });
});
