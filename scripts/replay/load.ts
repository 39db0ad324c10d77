/**
 * Puts an unsynced-changes file back into a replica (fake-indexeddb in the replay tool): the same
 * Dexie database the worker keeps (sync-worker/db.ts), with the file's queue, drafts, conflict
 * rows, refused edits and local copies. Queued requests lose their reservation (the sender that
 * held them is gone), as after a browser restart.
 */
import { toStored } from '../../sync-worker/apply';
import { upgradeConflictRow, type UserDb } from '../../sync-worker/db';
import type { UnsyncedExport } from '../../sync-worker/unsynced-export';

export async function loadReplica(db: UserDb, file: UnsyncedExport): Promise<void> {
  const t = db.strict;
  await t.transaction('rw', [t.records, t.failedRequests, t.drafts, t.conflicts, t.refusedEdits], async () => {
    await t.records.bulkPut(file.records.map((r) => toStored(r.collection, r.record)));
    await t.failedRequests.bulkPut(file.queue.map((r) => ({ ...r, reserved_at: null })));
    await t.drafts.bulkPut(file.drafts);
    // A file from before field merge holds whole-record rows: upgraded as the database upgrades them.
    await t.conflicts.bulkPut(
      file.conflicts.map((row) => {
        const copy = { ...row } as Record<string, unknown>;
        upgradeConflictRow(copy);
        return copy as unknown as (typeof file.conflicts)[number];
      }),
    );
    await t.refusedEdits.bulkPut(file.refused);
  });
}
