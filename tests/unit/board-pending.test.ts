import { describe, expect, it } from 'vitest';
import { PendingWrites } from '../../src/boards/store/pending';

/** This tab's writes shown before the replica has them (src/boards/store/pending.ts). */
describe('pending writes', () => {
  const record = (row_version: number, name: string) => ({ id: 'a', row_version, name });

  it('an entry shows until the replica holds the version the write produces, then gives way', () => {
    let now = 1_000;
    const pending = new PendingWrites(() => now);
    const token = pending.put('item', 'a', record(3, 'New'), 3);
    const entry = pending.get('item', 'a')!;
    expect(pending.replicaWins(entry, { row_version: 2 })).toBe(false);
    pending.settle('item', 'a', token, record(3, 'New'));
    expect(pending.replicaWins(entry, { row_version: 2 })).toBe(false);
    // The replica caught up: it wins; the entry stays a second for readers still re-reading.
    expect(pending.replicaWins(entry, { row_version: 3 })).toBe(true);
    expect(pending.size).toBe(1);
    now += 1_001;
    expect(pending.replicaWins(entry, { row_version: 3 })).toBe(true);
    expect(pending.size).toBe(0);
  });

  it('a newer copy from elsewhere wins over an unanswered write; a shown-only entry waits for the save', () => {
    const pending = new PendingWrites();
    pending.put('item', 'a', record(2, 'Mine'), 2);
    expect(pending.replicaWins(pending.get('item', 'a')!, { row_version: 5 })).toBe(true);
    pending.put('item', 'a', record(2, 'Shown'), Number.POSITIVE_INFINITY);
    expect(pending.replicaWins(pending.get('item', 'a')!, { row_version: 5 })).toBe(false);
  });

  it('an edit merged into an unsent request keeps the old version: the replica copy from before does not win', () => {
    const pending = new PendingWrites(() => 0);
    const token = pending.put('item', 'a', record(2, 'Second'), 2);
    pending.settle('item', 'a', token, record(1, 'Second'));
    expect(pending.replicaWins(pending.get('item', 'a')!, { row_version: 1 })).toBe(false);
    expect(pending.replicaWins(pending.get('item', 'a')!, { row_version: 2 })).toBe(true);
  });

  it('an older call cannot end a newer entry; drop without a token ends any', () => {
    const pending = new PendingWrites();
    const first = pending.put('value', 'a', record(1, 'x'), 1);
    pending.put('value', 'a', record(1, 'y'), 1);
    pending.drop('value', 'a', first);
    pending.settle('value', 'a', first, null);
    expect(pending.get('value', 'a')?.record).toMatchObject({ name: 'y' });
    expect(pending.get('value', 'a')?.settledAt).toBeNull();
    pending.drop('value', 'a');
    expect(pending.get('value', 'a')).toBeUndefined();
  });

  it('versions count per collection, so readers of other collections do not render again', () => {
    const pending = new PendingWrites();
    let calls = 0;
    const off = pending.subscribe(() => calls++);
    pending.put('value', 'a', record(1, 'x'), 1);
    expect(pending.versionOf('value')).toBe(1);
    expect(pending.versionOf('item')).toBe(0);
    expect(pending.of('value')).toHaveLength(1);
    expect(pending.of('item')).toHaveLength(0);
    off();
    pending.drop('value', 'a');
    expect(calls).toBe(1);
  });

  it('a delete hides the record until answered and the replica no longer has it', () => {
    const pending = new PendingWrites(() => 0);
    const token = pending.put('item', 'a', null, Number.POSITIVE_INFINITY);
    const entry = pending.get('item', 'a')!;
    expect(pending.replicaWins(entry, undefined)).toBe(false);
    pending.settle('item', 'a', token, undefined);
    expect(pending.replicaWins(entry, { row_version: 4 })).toBe(false);
    expect(pending.replicaWins(entry, undefined)).toBe(true);
  });
});
