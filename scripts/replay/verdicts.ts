/**
 * What each edit of an unsynced-changes file would do on a server (issue #30 part 7, decision
 * 0350), the pure part. An edit is one record's chain of queued requests (or a draft, or an edit
 * the server refused before): its base (the copy the first request started from) and mine (what
 * the last one means). Against the server's copy the verdict is:
 *   land      the server still holds the base (or the record is new, or a delete): saved as is;
 *   merge     the server moved on, but only in fields I did not change: mine are re-applied over theirs;
 *   conflict  both sides changed a field (named), or one side deleted the record;
 *   refused   the server will not take it (a record it points at is gone, the board is not readable);
 * decided by the worker's own merge (sync-worker/conflict-merge.ts planConflict over
 * schema/sync-merge.ts), so the replay cannot drift from what the browser does.
 */
import { collectionByName } from '../../schema/collections';
import { refusedReasonOf, type RefusedReason } from '../../schema/sync-conflicts';
import { itemIdOf, planConflict } from '../../sync-worker/conflict-merge';
import { holdsFields } from '../../sync-worker/merge';
import type { SyncRecord } from '../../sync-worker/types';
import type { UnsyncedExport } from '../../sync-worker/unsynced-export';

export type VerdictKind = 'land' | 'merge' | 'conflict' | 'refused' | 'unsent';

export interface ReplayEdit {
  /** Where the edit waits in the replica: the queue, a draft, or the refused edits. */
  source: 'queue' | 'draft' | 'refused';
  collection: string;
  id: string;
  teamId: number | null;
  method: 'put' | 'delete' | 'restore';
  base: SyncRecord | null;
  /** null: a delete. */
  mine: SyncRecord | null;
  /** How many queued requests the chain holds. */
  requests: number;
}

export interface Verdict {
  source: ReplayEdit['source'];
  collection: string;
  id: string;
  item_id: string | null;
  method: ReplayEdit['method'];
  verdict: VerdictKind;
  /** Fields merged (merge) or in conflict (conflict); 'record' for a whole-record conflict. */
  fields: string[];
  /** Why, in plain words. */
  reason: string;
  /** refused: the HTTP status the server answers (or would). */
  status?: number;
  refused_reason?: RefusedReason;
}

/** What the server holds for one record, as read with GETs (or after a replay). */
export type ServerState =
  | { state: 'live'; record: SyncRecord }
  | { state: 'trash'; record: SyncRecord }
  | { state: 'missing' }
  | { state: 'unreadable'; status: number; message: string };

/** The edits of a file, one per record and source, in the order the worker would send them. */
export function editsOf(file: UnsyncedExport): ReplayEdit[] {
  const edits: ReplayEdit[] = [];
  const chains = new Map<string, ReplayEdit>();
  for (const r of [...file.queue].sort((a, b) => a.seq - b.seq)) {
    const key = `${r.collection}\u0000${r.id}`;
    const chain = chains.get(key);
    const mine = r.method === 'delete' ? null : r.item;
    if (!chain) {
      const edit: ReplayEdit = { source: 'queue', collection: r.collection, id: r.id, teamId: r.teamId, method: r.method, base: r.old, mine, requests: 1 };
      chains.set(key, edit);
      edits.push(edit);
    } else {
      chain.method = r.method;
      chain.mine = mine;
      chain.requests += 1;
    }
  }
  for (const r of file.refused) edits.push({ source: 'refused', collection: r.collection, id: r.id, teamId: r.teamId, method: r.method, base: r.old, mine: r.item, requests: r.requests.length });
  const teamOfBoard = new Map<string, number>();
  for (const e of edits) {
    const board = (e.mine ?? e.base)?.board_id;
    if (typeof board === 'string' && e.teamId !== null) teamOfBoard.set(board, e.teamId);
  }
  for (const d of file.drafts) {
    const team = typeof d.draft.team_id === 'number' ? d.draft.team_id : teamOfBoard.get(String(d.draft.board_id)) ?? null;
    edits.push({ source: 'draft', collection: d.collection, id: d.id, teamId: team, method: 'put', base: d.previous, mine: d.draft, requests: 0 });
  }
  return edits;
}

function refused(edit: ReplayEdit, status: number, reason: string, fields: string[] = []): Verdict {
  return { ...head(edit), verdict: 'refused', fields, reason, status, refused_reason: refusedReasonOf(status, reason) };
}

function head(edit: ReplayEdit) {
  return { source: edit.source, collection: edit.collection, id: edit.id, item_id: itemIdOf(edit.collection, edit.mine ?? edit.base, edit.id), method: edit.method };
}

/** Fields whose value differs between two copies (the merge's own field list is in schema/sync-merge.ts). */
function changedFields(after: SyncRecord, before: SyncRecord): string[] {
  const skip = new Set(['row_version', 'updated_at', 'created_at', 'updated_by', 'collection']);
  return Object.keys(after)
    .filter((k) => !skip.has(k) && JSON.stringify(after[k]) !== JSON.stringify(before[k]))
    .sort();
}

/**
 * The verdict for one edit. `server` gives the record's state, `reference` the state of a record
 * it points at (folder, item…) on the same board, as read from the server.
 */
export function predictVerdict(edit: ReplayEdit, server: ServerState, reference: (collection: string, id: string) => ServerState): Verdict {
  if (edit.source === 'draft') {
    // The worker sends a draft only once the user saves it: say what saving it now would do.
    const ifSaved = predictVerdict({ ...edit, source: 'queue' }, server, reference);
    return { ...ifSaved, source: 'draft', verdict: 'unsent', reason: `A draft, not sent until it is saved; saved now it would ${ifSaved.verdict}: ${ifSaved.reason}` };
  }
  if (edit.teamId === null) return { ...head(edit), verdict: 'unsent', fields: [], reason: 'A draft of a record whose workspace is not known from the file; it is not sent until it is saved.' };
  if (server.state === 'unreadable') return refused(edit, server.status, `The board cannot be read with this account (${server.status} ${server.message}).`);
  const theirs = server.state === 'missing' ? null : server.record;

  if (edit.method === 'delete') {
    if (!theirs) return { ...head(edit), verdict: 'land', fields: [], reason: 'The record is already gone from the server; the delete changes nothing.' };
    if (server.state === 'trash') return { ...head(edit), verdict: 'land', fields: [], reason: 'The record is already in the trash; the delete changes nothing.' };
    const moved = edit.base && theirs.row_version !== edit.base.row_version;
    return { ...head(edit), verdict: 'land', fields: [], reason: moved ? `Deleted, with the changes someone else saved since (version ${edit.base!.row_version} → ${theirs.row_version}); they go to the trash with it.` : 'Deleted as it was when the edit was made.' };
  }
  if (edit.method === 'restore') {
    return { ...head(edit), verdict: 'land', fields: [], reason: server.state === 'trash' ? 'Restored from the trash.' : 'Not in the trash; the restore changes nothing.' };
  }

  const mine = edit.mine!;
  // A record it points at that the server no longer has: refused as the server refuses it.
  const def = collectionByName(edit.collection);
  for (const ref of def?.references ?? []) {
    const target = mine[ref.field];
    if (target === null || target === undefined || target === '') continue;
    const state = reference(ref.collection, String(target));
    if (state.state !== 'missing') continue;
    const isParent = def?.parent?.field === ref.field;
    return isParent
      ? refused(edit, 404, `The ${ref.collection} it belongs to (${String(target)}) is no longer on the server.`, [ref.field])
      : refused(edit, 422, `${ref.field}: the ${ref.collection} ${String(target)} is not on the server.`, [ref.field]);
  }

  if (server.state === 'live' && edit.base && theirs!.row_version === edit.base.row_version) {
    return { ...head(edit), verdict: 'land', fields: changedFields(mine, edit.base), reason: `The server still holds version ${theirs!.row_version}, the one this edit was made on.` };
  }
  if (!theirs && !edit.base) return { ...head(edit), verdict: 'land', fields: [], reason: 'A new record: created.' };
  if (server.state === 'live' && !edit.base && holdsFields(theirs!, mine)) {
    return { ...head(edit), verdict: 'land', fields: [], reason: 'The server already holds this new record as sent (an earlier attempt landed).' };
  }

  const plan = planConflict(edit.collection, edit.id, edit.base, mine, server.state === 'trash' ? { ...theirs!, deleted_at: theirs!.deleted_at ?? 'trashed' } : theirs, 0);
  if (plan.conflicts.length) {
    const fields = plan.conflicts.map((c) => c.field ?? 'record');
    const whole = plan.conflicts.some((c) => c.kind === 'record');
    const merged = plan.resave && plan.adopt ? changedFields(plan.resave, theirs!) : [];
    const reason = whole
      ? server.state === 'trash'
        ? 'Someone else moved the record to the trash; my whole copy is kept as a conflict.'
        : 'The record is gone from the server; my whole copy is kept as a conflict.'
      : `Both sides changed ${fields.join(', ')} (mine ${plan.conflicts.map((c) => JSON.stringify(c.mine)).join(', ')}; theirs ${plan.conflicts.map((c) => JSON.stringify(c.theirs)).join(', ')}); theirs stays and mine is kept as a conflict${merged.length ? `; ${merged.join(', ')} merged` : ''}.`;
    return { ...head(edit), verdict: 'conflict', fields, reason };
  }
  if (plan.resave) {
    const fields = changedFields(plan.resave, theirs!);
    return { ...head(edit), verdict: 'merge', fields, reason: `Someone else saved version ${theirs!.row_version} meanwhile, in other fields; mine (${fields.join(', ')}) are saved over it.` };
  }
  return { ...head(edit), verdict: 'land', fields: [], reason: 'The server already holds every field of this edit; nothing is left to send.' };
}

/** One line per verdict, for people. */
export function formatVerdict(v: Verdict): string {
  const what = `${v.source === 'queue' ? '' : `${v.source} `}${v.method} ${v.collection} ${v.id}`;
  const fields = v.fields.length ? ` [${v.fields.join(', ')}]` : '';
  const status = v.status ? ` (${v.status})` : '';
  return `${v.verdict.toUpperCase().padEnd(8)} ${what}${fields}${status}: ${v.reason}`;
}
