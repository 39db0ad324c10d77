import { describe, expect, it } from 'vitest';
import { BoardActions } from '../../src/boards/store/actions';
import type { BoardBackend } from '../../src/boards/store/backend';
import type { ApplyResult } from '../../sync-worker/client';

/**
 * The tab's side of undo (src/boards/store/actions.ts): an edit shows at once, but its undo step is
 * recorded when the worker answers. The worker here answers when the test says, as a loaded one
 * answers late; the mutators themselves are tested in tests/engine against the real server.
 */
function slowWorker() {
  const calls: { name: string; args: unknown; answer: (result: ApplyResult) => void }[] = [];
  const backend = {
    userId: 1,
    apply: (name: string, args: unknown) => new Promise<ApplyResult>((answer) => calls.push({ name, args, answer })),
  } as unknown as BoardBackend;
  return { backend, calls };
}

const folder = { id: 'f1', row_version: 1, name: 'Old name' };
const renamed = { ...folder, row_version: 2, name: 'New name' };

describe('undo pressed while the edit is still on its way to the worker', () => {
  it('waits for the edit and takes back that edit, not nothing', async () => {
    const { backend, calls } = slowWorker();
    const actions = new BoardActions(backend, 7, 'b1');
    const rename = actions.updateFolder(folder, { name: 'New name' });
    const undo = actions.undo();
    await Promise.resolve();
    expect(calls.map((c) => c.name)).toEqual(['updateRecord']);

    calls[0]!.answer({ entries: [{ collection: 'folder', id: 'f1', before: folder, after: renamed }] });
    await rename;
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[1]!.name).toBe('revert');
    expect(calls[1]!.args).toEqual({ entries: [{ collection: 'folder', id: 'f1', before: folder, after: renamed }], to: 'before' });
    calls[1]!.answer({ entries: [{ collection: 'folder', id: 'f1', before: renamed, after: { ...folder, row_version: 3 } }] });
    expect(await undo).toBe('edit folder');
  });

  it('takes back the newest of two edits when the second is still on its way', async () => {
    const { backend, calls } = slowWorker();
    const actions = new BoardActions(backend, 7, 'b1');
    const first = actions.updateFolder(folder, { name: 'New name' }, 'first');
    calls[0]!.answer({ entries: [{ collection: 'folder', id: 'f1', before: folder, after: renamed }] });
    await first;
    const second = actions.updateFolder(renamed, { name: 'Newer name' }, 'second');
    const undo = actions.undo();
    calls[1]!.answer({ entries: [{ collection: 'folder', id: 'f1', before: renamed, after: { ...renamed, row_version: 3, name: 'Newer name' } }] });
    await second;
    await expect.poll(() => calls.length).toBe(3);
    calls[2]!.answer({ entries: [] });
    expect(await undo).toBe('second');
  });
});
