import { describe, expect, it } from 'vitest';
import { UndoHistory, noteUndone, planInverse, type HistoryRecord } from '../../sync-worker/undo';

function store(initial: Record<string, HistoryRecord>) {
  const records = new Map(Object.entries(initial));
  return { records, current: async (_c: string, id: string) => records.get(id) ?? null };
}

describe('undo and redo of own edits', () => {
  it('undoes a rename and redoes it', async () => {
    const h = new UndoHistory();
    const before = { id: 'i', row_version: 1, name: 'Old', position: 1 };
    const after = { id: 'i', row_version: 2, name: 'New', position: 1 };
    h.record({ label: 'rename', entries: [{ collection: 'item', id: 'i', before, after }] });
    const s = store({ i: after });
    const step = h.takeUndo()!;
    expect(await planInverse(step.entries, 'before', s.current)).toEqual([{ kind: 'save', collection: 'item', record: { id: 'i', row_version: 2, name: 'Old', position: 1 } }]);
    expect(h.canUndo).toBe(false);
    expect(h.canRedo).toBe(true);
    s.records.set('i', { id: 'i', row_version: 3, name: 'Old', position: 1 });
    const again = h.takeRedo()!;
    expect(again).toBe(step);
    expect(await planInverse(again.entries, 'after', s.current)).toEqual([{ kind: 'save', collection: 'item', record: { id: 'i', row_version: 3, name: 'New', position: 1 } }]);
  });

  it('never overwrites a field someone else changed since', async () => {
    const h = new UndoHistory();
    h.record({ label: 'edit', entries: [{ collection: 'item', id: 'i', before: { id: 'i', row_version: 1, name: 'A', position: 1 }, after: { id: 'i', row_version: 2, name: 'B', position: 2 } }] });
    const s = store({ i: { id: 'i', row_version: 3, name: 'Theirs', position: 2 } });
    expect(await planInverse(h.takeUndo()!.entries, 'before', s.current)).toEqual([{ kind: 'save', collection: 'item', record: { id: 'i', row_version: 3, name: 'Theirs', position: 1 } }]);
  });

  it('undoes a create with a delete and a delete with a restore; a bulk step goes back as one', async () => {
    const h = new UndoHistory();
    const item = { id: 'n', row_version: 1, name: 'New' };
    h.record({ label: 'bulk', entries: [
      { collection: 'item', id: 'n', before: null, after: item },
      { collection: 'item', id: 'o', before: { id: 'o', row_version: 4, name: 'Old' }, after: null },
    ] });
    const step = h.takeUndo()!;
    expect(await planInverse(step.entries, 'before', store({ n: item }).current)).toEqual([
      { kind: 'restore', collection: 'item', id: 'o', record: { id: 'o', row_version: 4, name: 'Old' } },
      { kind: 'delete', collection: 'item', id: 'n' },
    ]);
  });

  it('a record whose create never went out comes back as a new create, not from the trash', async () => {
    const h = new UndoHistory();
    const item = { id: 'n', row_version: 1, name: 'New' };
    h.record({ label: 'create', entries: [{ collection: 'item', id: 'n', before: null, after: item }] });
    const step = h.takeUndo()!;
    // The undo's delete dropped the still-queued create: nothing of it is on the server.
    noteUndone(step, [{ collection: 'item', id: 'n', before: item, after: null, unsynced: true }]);
    expect(await planInverse(h.takeRedo()!.entries, 'after', store({}).current)).toEqual([{ kind: 'restore', collection: 'item', id: 'n', record: item, unsynced: true }]);
    noteUndone(step, [{ collection: 'item', id: 'n', before: null, after: item }]);
    expect(step.entries[0]!.unsynced).toBe(false);
  });

  it('clears redo on a new edit and keeps a bounded history', async () => {
    const h = new UndoHistory(2);
    const entry = (n: number) => ({ collection: 'item', id: 'i', before: { id: 'i', row_version: n, name: String(n) }, after: { id: 'i', row_version: n + 1, name: String(n + 1) } });
    h.record({ label: '1', entries: [entry(1)] });
    h.record({ label: '2', entries: [entry(2)] });
    h.record({ label: '3', entries: [entry(3)] });
    h.takeUndo();
    expect(h.canRedo).toBe(true);
    h.record({ label: '4', entries: [entry(4)] });
    expect(h.canRedo).toBe(false);
    expect(h.nextUndo!.label).toBe('4');
    h.takeUndo();
    h.takeUndo();
    expect(h.canUndo).toBe(false);
  });
});
