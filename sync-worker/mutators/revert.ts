/**
 * Undo and redo as actions (decision 0100): the inverse of a step is planned inside the action's
 * own transaction, against the copies as they are now (undo.ts keeps other people's later edits),
 * and goes out as one request like the step did.
 */
import type { SyncRecord } from '../types';
import { planInverse, type HistoryEntry } from '../undo';
import type { Mutator } from './transaction';

export const revert: Mutator<{ entries: HistoryEntry[]; to: 'before' | 'after' }> = async (tx, { entries, to }) => {
  const writes = await planInverse(entries, to, (collection, id) => tx.get(collection, id));
  for (const write of writes) {
    if (write.kind === 'save') tx.put(write.collection, write.record as SyncRecord);
    else if (write.kind === 'delete') tx.delete(write.collection, write.id);
    // Never on the server (created and deleted before it went out): create it anew.
    else if (write.unsynced) tx.put(write.collection, { ...(write.record as SyncRecord), row_version: 0 });
    else tx.restore(write.collection, write.record as SyncRecord);
  }
};
