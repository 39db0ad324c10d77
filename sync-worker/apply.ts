/**
 * Applies the decisions of merge.ts to the database: answers to requests, changes from elsewhere
 * (realtime events and /changes deltas) and index loads. Each entry point is one transaction.
 */
import Dexie from 'dexie';
import type { UserDb } from './db';
import type { Emitter } from './events';
import { afterApplied, afterRejected, applyRemoteChange, isNewer } from './merge';
import { planConflict } from './conflict-merge';
import { inboxEntries, namesWanted } from './inbox';
import type { InboxEntry, NamedConflict } from '../schema/sync-conflicts';
import type { Settled } from './queue';
import { refusedEditOf } from './refused';
import type { ConflictEntry, DraftEntry, QueuedRequest, RefusedEdit, StoredRecord, SyncRecord } from './types';

export const toStored = (collection: string, record: SyncRecord): StoredRecord => ({ ...record, collection });

export function fromStored(row: StoredRecord | undefined | null): SyncRecord | null {
  if (!row) return null;
  const { collection: _collection, ...record } = row;
  return record as SyncRecord;
}

const pairKey = (collection: string, id: string) => `${collection}\u0000${id}`;

/** Writes `value` as the local copy: a record, null to remove, undefined to leave alone. */
function decide(puts: StoredRecord[], deletes: [string, string][], collection: string, id: string, value: SyncRecord | null | undefined) {
  if (value === undefined) return;
  if (value === null) deletes.push([collection, id]);
  else puts.push(toStored(collection, value));
}

/**
 * Settles answered requests: applied ones leave the queue (the server copy is kept unless a later
 * local edit is pending); 409s adopt the remote copy and merge field by field (conflict-merge.ts):
 * fields only this user changed are queued again over it, fields both changed become conflict rows; refusals restore the previous copy and move the
 * refused request, with the later edits of that record, whole into `refusedEdits` (decision 0094).
 */
export async function settleRequests(
  db: UserDb,
  results: Settled[],
  events: Emitter,
  now: number,
  tombstones?: Tombstones,
  newId: () => string = () => crypto.randomUUID(),
): Promise<void> {
  const conflicts: ConflictEntry[] = [];
  /** Merged copies to send again over the server's (field merge after a 409). */
  const resaves: QueuedRequest[] = [];
  const rejected: { request: QueuedRequest; status: number; message: string }[] = [];
  const t = db.strict;
  const refused = new Map<string, RefusedEdit>();
  await t.transaction('rw', [t.records, t.failedRequests, t.conflicts, t.drafts, t.refusedEdits], async () => {
    const pairs = results.map((r) => [r.request.collection, r.request.id] as [string, string]);
    const chains = new Map<string, QueuedRequest[]>();
    // One lookup per record (anyOf over a large queue is far slower in some IndexedDB engines).
    const distinct = [...new Map(pairs.map((p) => [pairKey(p[0], p[1]), p])).values()];
    const found = await Promise.all(distinct.map((p) => t.failedRequests.where('[collection+id]').equals(p).toArray()));
    for (const row of found.flat()) {
      const k = pairKey(row.collection, row.id);
      const list = chains.get(k) ?? [];
      list.push(row);
      chains.set(k, list);
    }
    for (const list of chains.values()) list.sort((a, b) => a.seq - b.seq);
    const locals = new Map<string, SyncRecord | null>();
    const stored = await t.records.bulkGet(pairs);
    pairs.forEach(([c, id], i) => locals.set(pairKey(c, id), fromStored(stored[i])));

    const removeKeys = new Set<string>();
    /** Actions (transactions) that lost a request to a refusal or conflict. */
    const brokenActions = new Set<string>();
    /** Later requests whose `old` becomes the server's copy of the request just applied. */
    const rebased = new Map<string, QueuedRequest>();
    const puts: StoredRecord[] = [];
    const deletes: [string, string][] = [];
    for (const { request, outcome } of results) {
      const k = pairKey(request.collection, request.id);
      const chain = (chains.get(k) ?? []).filter((r) => !removeKeys.has(r.key));
      const later = chain.filter((r) => r.seq > request.seq);
      const local = locals.get(k) ?? null;
      let next: SyncRecord | null | undefined;
      if (outcome.kind === 'applied') {
        removeKeys.add(request.key);
        next = afterApplied(request, outcome.record, local, later.length > 0);
        // The next edit of the record was built on our copy of this one; the server's copy (with
        // the fields it fills in) is what a refusal of that edit must bring back.
        const following = later[0];
        if (following && outcome.record && request.method !== 'delete' && following.old?.row_version === outcome.record.row_version) {
          rebased.set(following.key, { ...following, old: outcome.record });
        }
      } else if (outcome.kind === 'conflict') {
        // Field merge (decision 0345): base is what the first unanswered edit started from, mine
        // what the user last meant (the newest request of the chain), theirs the 409's record.
        const latest = later.length ? later[later.length - 1]! : request;
        const mine = latest.method === 'delete' ? null : latest.item;
        const plan = planConflict(request.collection, request.id, request.old, mine, outcome.remote, now);
        conflicts.push(...plan.conflicts.map((c) => ({ ...c, team_id: request.teamId })));
        for (const r of [request, ...later]) removeKeys.add(r.key);
        if (plan.conflicts.length) for (const r of [request, ...later]) if (r.transaction) brokenActions.add(r.transaction);
        if (plan.resave && outcome.remote) {
          // Fields only mine changed go out again at once, over theirs (a new request, new key).
          resaves.push({
            ...latest,
            key: newId(),
            method: 'put',
            item: plan.resave,
            old: outcome.remote,
            transaction: null,
            multiple: false,
            created_at: now,
            attempts: 0,
            error: null,
            reserved_at: null,
            batch_key: null,
          });
        }
        next = plan.adopt;
      } else if (outcome.kind === 'rejected') {
        // Later edits were built on the refused one: they leave the queue too, and each is
        // reported. All of them are kept, whole, for the user to retry, copy or discard.
        for (const r of [request, ...later]) removeKeys.add(r.key);
        for (const r of [request, ...later]) if (r.transaction) brokenActions.add(r.transaction);
        for (const r of [request, ...later]) rejected.push({ request: r, status: outcome.status, message: outcome.message });
        const existing = refused.get(k) ?? (await t.refusedEdits.get([request.collection, request.id]));
        refused.set(k, refusedEditOf(existing, request, later, outcome.status, outcome.message, now));
        next = afterRejected(request);
      } else {
        continue;
      }
      // An answer that arrives after we saw the record deleted (a lost answer, retried) must not
      // bring it back: the delete is newer than that copy.
      if (next && !local && tombstones && (tombstones.get(k) ?? -1) >= next.row_version) next = undefined;
      if (next !== undefined) locals.set(k, next);
      if (next === null && tombstones) {
        const remote = outcome.kind === 'conflict' ? outcome.remote : outcome.kind === 'applied' ? outcome.record : null;
        tombstones.note(k, Math.max(local?.row_version ?? 0, request.old?.row_version ?? 0, remote?.row_version ?? 0));
      }
      decide(puts, deletes, request.collection, request.id, next);
    }
    if (brokenActions.size) {
      // Later actions with a request built on one that just failed cannot land whole: each goes
      // whole, every record of it, to the Not saved list (decision 0100), never half sent.
      const dropped = await dropBrokenActions(t, brokenActions, removeKeys, refused, now);
      for (const d of dropped) {
        rejected.push({ request: d.requests[0]!, status: DEPENDENT_STATUS, message: DEPENDENT_MESSAGE });
        decide(puts, deletes, d.requests[0]!.collection, d.requests[0]!.id, d.requests[0]!.old);
      }
    }
    if (removeKeys.size) await t.failedRequests.bulkDelete([...removeKeys]);
    const stillQueued = [...rebased.values()].filter((r) => !removeKeys.has(r.key));
    if (stillQueued.length) await t.failedRequests.bulkPut(stillQueued);
    if (deletes.length) await t.records.bulkDelete(deletes);
    if (puts.length) await t.records.bulkPut(dedupeLast(puts));
    if (resaves.length) await t.failedRequests.bulkPut(resaves);
    if (conflicts.length) {
      const seqs = await t.conflicts.bulkAdd(conflicts, { allKeys: true });
      conflicts.forEach((c, i) => (c.seq = seqs[i] as number));
    }
    if (refused.size) await t.refusedEdits.bulkPut([...refused.values()]);
  });
  if (conflicts.length) {
    // Each row goes out with the names it is known by (item, field in words) for the toast.
    const named = await namedConflicts(db, conflicts);
    for (const c of named) events.emit('conflict', c);
    events.emit('conflicts', { count: await db.relaxed.conflicts.count(), added: named, removed: [] });
  }
  for (const r of rejected) {
    events.emit('rejected', { collection: r.request.collection, id: r.request.id, method: r.request.method, status: r.status, message: r.message });
  }
  if (refused.size) events.emit('not-saved', { count: await db.relaxed.refusedEdits.count() });
}

/** Conflict rows with their labels, from the names the replica holds now. */
async function namedConflicts(db: UserDb, rows: ConflictEntry[]): Promise<NamedConflict[]> {
  const keys = namesWanted(rows, []);
  const found = await db.relaxed.records.bulkGet(keys);
  const byKey = new Map(keys.map((k, i) => [pairKey(k[0], k[1]), fromStored(found[i])]));
  const entries = inboxEntries(rows, [], (collection, id) => byKey.get(pairKey(collection, id)));
  return entries.map((e) => {
    const { type: _type, ...row } = e as Extract<InboxEntry, { type: 'conflict' }>;
    return row;
  });
}

/** The answer a request gets when its action fell with an earlier edit it was built on. */
export const DEPENDENT_STATUS = 424;
export const DEPENDENT_MESSAGE = 'Not applied: the action was built on an edit that was not saved.';

/**
 * Takes every queued request of the broken actions out of the queue, each with the later
 * requests of its record (built on it); those belong to actions that break in turn. Each record's
 * requests become one refused edit; its local copy goes back to the first dropped request's `old`.
 */
async function dropBrokenActions(
  t: UserDb['strict'],
  broken: Set<string>,
  removeKeys: Set<string>,
  refused: Map<string, RefusedEdit>,
  now: number,
): Promise<{ requests: QueuedRequest[] }[]> {
  const queued = (await t.failedRequests.orderBy('seq').toArray()).filter((r) => !removeKeys.has(r.key));
  const out: { requests: QueuedRequest[] }[] = [];
  const done = new Set<string>();
  let next = new Set(broken);
  while (next.size) {
    const current = next;
    next = new Set();
    for (const tx of current) done.add(tx);
    const members = queued.filter((r) => r.transaction && current.has(r.transaction) && !removeKeys.has(r.key));
    for (const member of members) {
      if (removeKeys.has(member.key)) continue;
      const k = pairKey(member.collection, member.id);
      const chain = queued.filter((r) => pairKey(r.collection, r.id) === k && r.seq >= member.seq && !removeKeys.has(r.key));
      for (const r of chain) {
        removeKeys.add(r.key);
        if (r.transaction && !done.has(r.transaction)) next.add(r.transaction);
      }
      const existing = refused.get(k) ?? (await t.refusedEdits.get([member.collection, member.id]));
      refused.set(k, refusedEditOf(existing, chain[0]!, chain.slice(1), DEPENDENT_STATUS, DEPENDENT_MESSAGE, now));
      out.push({ requests: chain });
    }
  }
  return out;
}

/** Later puts of the same record replace earlier ones (bulkPut keeps the last anyway; this keeps it explicit). */
function dedupeLast(rows: StoredRecord[]): StoredRecord[] {
  const map = new Map<string, StoredRecord>();
  for (const row of rows) map.set(pairKey(row.collection, row.id), row);
  return [...map.values()];
}

/**
 * Versions of records seen deleted (newest first, bounded): a realtime event or delta page that
 * was on its way before the delete must not bring the record back.
 */
export class Tombstones {
  private map = new Map<string, number>();
  constructor(private readonly limit = 50_000) {}
  get(key: string): number | undefined {
    return this.map.get(key);
  }
  note(key: string, version: number): void {
    this.map.delete(key);
    this.map.set(key, Math.max(version, this.map.get(key) ?? -1));
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as string);
  }
}

export const tombstoneKey = pairKey;

export interface RemoteChange {
  collection: string;
  op: 'saved' | 'deleted';
  record: SyncRecord | null;
  id?: string;
}

/**
 * Applies saved/deleted changes from elsewhere, each only if newer (merge.ts). A record with an
 * open draft keeps showing the draft; the newer copy becomes what discarding it restores.
 */
export async function applyRemoteChanges(db: UserDb, changes: RemoteChange[], tombstones?: Tombstones): Promise<number> {
  if (changes.length === 0) return 0;
  const t = db.relaxed;
  return t.transaction('rw', [t.records, t.drafts], async () => {
    const pairs = changes.map((c) => [c.collection, String(c.record?.id ?? c.id)] as [string, string]);
    const [stored, drafts] = await Promise.all([t.records.bulkGet(pairs), t.drafts.bulkGet(pairs)]);
    const locals = new Map<string, SyncRecord | null>();
    pairs.forEach(([c, id], i) => locals.set(pairKey(c, id), fromStored(stored[i])));
    const draftOf = new Map<string, DraftEntry>();
    pairs.forEach(([c, id], i) => drafts[i] && draftOf.set(pairKey(c, id), drafts[i]!));
    const puts: StoredRecord[] = [];
    const deletes: [string, string][] = [];
    const draftPuts: DraftEntry[] = [];
    let applied = 0;
    changes.forEach((change, i) => {
      const [collection, id] = pairs[i]!;
      const k = pairKey(collection, id);
      const draft = draftOf.get(k);
      if (draft) {
        const next = applyRemoteChange(draft.previous, change.op, change.record);
        if (next !== undefined) {
          draft.previous = next;
          draftPuts.push(draft);
          applied++;
        }
        return;
      }
      const local = locals.get(k) ?? null;
      // A copy that is not newer than one we saw deleted is a late echo, not a new record.
      if (!local && change.op === 'saved' && change.record && tombstones && (tombstones.get(k) ?? -1) >= change.record.row_version) return;
      const next = applyRemoteChange(local, change.op, change.record);
      if (next === undefined) return;
      if (next === null && tombstones) tombstones.note(k, Math.max(local?.row_version ?? 0, change.record?.row_version ?? 0));
      locals.set(k, next);
      decide(puts, deletes, collection, id, next);
      applied++;
    });
    if (deletes.length) await t.records.bulkDelete(deletes);
    if (puts.length) await t.records.bulkPut(dedupeLast(puts));
    if (draftPuts.length) await t.drafts.bulkPut(draftPuts);
    return applied;
  });
}

/**
 * Replaces what we hold for one index address (a collection of one board) with the server's list:
 * newer-or-equal server copies are taken, local copies the server no longer lists are removed —
 * except records with pending requests or drafts, which stay as the user left them.
 */
export async function replaceIndex(db: UserDb, collection: string, boardId: string, serverRecords: SyncRecord[]): Promise<void> {
  const t = db.relaxed;
  await t.transaction('rw', [t.records, t.failedRequests, t.drafts], async () => {
    const [localRows, pendingRows, draftRows] = await Promise.all([
      t.records.where('[collection+board_id]').equals([collection, boardId]).toArray(),
      t.failedRequests.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
      t.drafts.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]).toArray(),
    ]);
    const busy = new Set<string>([...pendingRows.map((r) => r.id), ...draftRows.map((d) => d.id)]);
    const local = new Map(localRows.map((r) => [r.id, r]));
    const puts: StoredRecord[] = [];
    const listed = new Set<string>();
    for (const record of serverRecords) {
      listed.add(record.id);
      if (busy.has(record.id)) continue;
      const mine = local.get(record.id);
      if (!mine || record.row_version >= mine.row_version) puts.push(toStored(collection, record));
    }
    const gone = localRows.filter((r) => !listed.has(r.id) && !busy.has(r.id)).map((r) => [collection, r.id] as [string, string]);
    if (gone.length) await t.records.bulkDelete(gone);
    if (puts.length) await t.records.bulkPut(puts);
  });
}

export { isNewer };
