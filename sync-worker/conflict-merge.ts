/**
 * What the worker does with a 409 (issue 30, decision 0345), the pure part: the server's copy is
 * adopted, fields only this user changed are re-applied over it as a new save, and fields both
 * sides changed become conflict rows holding both values. No Dexie, no I/O: apply.ts runs it
 * inside the settling transaction, the property tests run it against a simulated server.
 */
import { isTextField, mergeThreeWay } from '../schema/sync-merge';
import type { ConflictRecord } from '../schema/sync-conflicts';
import { itemOfValueId, attributeOfValueId } from '../schema/records';
import type { SyncRecord } from './types';

export interface ConflictPlan {
  /** The copy to keep locally: theirs, with re-applied fields when `resave` is set (null: gone). */
  adopt: SyncRecord | null;
  /** The save to queue over theirs (row_version = theirs + 1), or null when nothing of mine is left to send. */
  resave: SyncRecord | null;
  /** Conflict rows to record (no `seq` yet). */
  conflicts: ConflictRecord[];
}

/** The item a record belongs to: an item itself, a value's item, else its `item_id` field. */
export function itemIdOf(collection: string, record: SyncRecord | null, id: string): string | null {
  if (collection === 'item') return id;
  if (collection === 'value') return itemOfValueId(id);
  const field = record?.item_id;
  return typeof field === 'string' ? field : null;
}

/**
 * Who saved theirs: `updated_by` when the server sends it; for a first version (row_version 1)
 * its creator. Never the creator of a later version (that would name the wrong person).
 */
function authorOf(remote: SyncRecord | null): number | string | null {
  if (!remote) return null;
  const keys = remote.row_version <= 1 ? ['updated_by', 'created_by', 'user_id'] : ['updated_by'];
  for (const key of keys) {
    const v = remote[key];
    if (typeof v === 'number' || typeof v === 'string') return v;
  }
  return null;
}

/** Strips the local table's tag so stored copies compare like server copies. */
function plain(record: SyncRecord | null): SyncRecord | null {
  if (!record) return null;
  const { collection: _c, ...rest } = record as SyncRecord & { collection?: string };
  return rest as SyncRecord;
}

/**
 * Plans the answer to a 409. `base` is the copy the first unanswered edit of the record started
 * from (its request's `old`; null for a new record), `mine` the latest queued copy (null: a delete),
 * `theirs` the 409's record (null: removed for good; `deleted_at` set: in the trash).
 */
export function planConflict(collection: string, id: string, baseIn: SyncRecord | null, mineIn: SyncRecord | null, theirsIn: SyncRecord | null, now: number): ConflictPlan {
  const base = plain(baseIn);
  const mine = plain(mineIn);
  const theirs = plain(theirsIn);
  const adopt = theirs && theirs.deleted_at ? null : theirs;
  const common = {
    collection,
    id,
    item_id: itemIdOf(collection, mine ?? theirs ?? base, id),
    attribute_id: collection === 'value' ? attributeOfValueId(id) : null,
    theirs_by: authorOf(theirs),
    theirs_at: typeof theirs?.updated_at === 'string' ? theirs.updated_at : null,
    theirs_row_version: theirs ? theirs.row_version : null,
    time: now,
    local: mine,
    remote: theirs,
  };
  // A delete on either side: the whole record is the conflict (a field merge has nothing to merge into).
  if (!mine || !adopt) {
    return { adopt, resave: null, conflicts: [{ ...common, kind: 'record', field: null, text: false, mine, theirs, base }] };
  }
  const result = mergeThreeWay(collection, base, mine, adopt);
  const conflicts: ConflictRecord[] = result.conflicts.map((c) => ({
    ...common,
    kind: 'field',
    field: c.field,
    text: isTextField(collection, c.field),
    mine: c.mine,
    theirs: c.theirs,
    base: c.base,
  }));
  if (result.reapplied.length === 0) return { adopt, resave: null, conflicts };
  const resave = { ...result.merged, row_version: adopt.row_version + 1 } as SyncRecord;
  return { adopt: resave, resave, conflicts };
}

/** The copy a conflict's "Keep mine" saves over `current` (null: nothing to save, e.g. the record is gone). */
export function keepMineRecord(conflict: Pick<ConflictRecord, 'kind' | 'field' | 'mine' | 'local'>, current: SyncRecord | null): SyncRecord | null {
  if (conflict.kind === 'field' && conflict.field) {
    if (!current) return null;
    return { ...current, [conflict.field]: conflict.mine };
  }
  const mine = conflict.local as SyncRecord | null;
  if (!mine) return null;
  return { ...mine, row_version: current ? current.row_version : mine.row_version };
}
