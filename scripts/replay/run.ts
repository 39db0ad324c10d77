/**
 * Replays an unsynced-changes file against a server (issue #30 part 7, decision 0350).
 *
 * The file is loaded into a replica on fake-indexeddb exactly as the worker keeps it (load.ts).
 * Then, always: every record the edits touch is read from the server with GETs only (index loads
 * and the trash) and each edit gets its predicted verdict (verdicts.ts, over the worker's merge).
 * With `apply`: the worker's real engine (SyncEngine, its queue and its 409 merge) sends the queue
 * and retries the refused edits, and each edit gets the verdict the server actually gave: refused
 * (the engine's `rejected` event), conflict (its `conflict` rows), merge (a save queued again over
 * the server's copy after a 409) or land.
 *
 * Without `apply` the transport refuses anything but GET, so the server cannot be written to.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { collectionByName } from '../../schema/collections';
import { refusedReasonOf } from '../../schema/sync-conflicts';
import { systemClock, type Clock } from '../../sync-worker/clock';
import { itemIdOf } from '../../sync-worker/conflict-merge';
import { openUserDb, type IdbFactories, type UserDb } from '../../sync-worker/db';
import { Emitter } from '../../sync-worker/events';
import { HttpClient, type FetchLike } from '../../sync-worker/http';
import { SyncEngine } from '../../sync-worker/engine';
import type { QueuedRequest, SyncRecord, TokenRecord } from '../../sync-worker/types';
import type { UnsyncedExport } from '../../sync-worker/unsynced-export';
import { loadReplica } from './load';
import { editsOf, predictVerdict, type ReplayEdit, type ServerState, type Verdict } from './verdicts';

export interface ReplayTarget {
  url: string;
  token: string;
}

export interface ReplayOptions {
  /** Send the edits for real (default: GETs only). */
  apply?: boolean;
  /** The transport (tests inject faults here); defaults to global fetch. */
  fetch?: FetchLike;
  random?: () => number;
  batchSize?: number;
  clock?: Clock;
  /** How many flush rounds the apply may take before it reports what is still queued. */
  rounds?: number;
  /** Told before each flush round (tests end their injected faults after a few). */
  onRound?: (round: number) => void;
}

export interface ReplayReport {
  /** What the server's current copies say each edit would do (GETs only). */
  predicted: Verdict[];
  /** What happened when the engine sent them (apply only). */
  applied: Verdict[] | null;
  /** Requests still queued after the apply (the server never answered them for good). */
  unsent: number;
  /** Requests the transport refused to send because the replay was read-only (0 unless something tried). */
  blockedWrites: number;
}

/** The transport of a read-only replay: GETs go out, anything else is refused before the network. */
export function readOnlyFetch(inner: FetchLike, blocked: { n: number }): FetchLike {
  return (input, init) => {
    const method = String(init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      blocked.n += 1;
      return Promise.reject(new TypeError(`read-only replay: ${method} ${input} not sent`));
    }
    return inner(input, init);
  };
}

function httpFor(target: ReplayTarget, fetchImpl: FetchLike, clock: Clock, events: Emitter, onResult?: (info: { method: string; ok: boolean; networkError: boolean }) => void): HttpClient {
  const http = new HttpClient({ baseUrl: target.url.replace(/\/$/, ''), fetch: fetchImpl, clock, events, newId: () => nanoid(), swUuid: 'replay-' + nanoid(8), onResult });
  // No refresh token: the replay never refreshes (a token that expires ends the replay's session).
  const record: TokenRecord = { access_token: target.token, expires_in: 3600 * 24 * 365 };
  http.setToken(record, clock.now());
  return http;
}

/** Reads the server's copies of everything the edits touch: index loads per board and collection, and each board's trash. */
async function readServer(http: HttpClient, edits: ReplayEdit[]) {
  const loads = new Map<string, Promise<{ status: number; byId: Map<string, SyncRecord>; message: string }>>();
  const load = (teamId: number, collection: string, boardId: string | null) => {
    const def = collectionByName(collection);
    const key = `${teamId}\u0000${collection}\u0000${collection === 'folder' ? '' : boardId ?? ''}`;
    let found = loads.get(key);
    if (!found) {
      const path = collection === 'trash' ? `/api/${teamId}/trash?board_id=${encodeURIComponent(boardId ?? '')}` : `/api/${teamId}/${def?.route ?? collection}${collection === 'folder' ? '' : `?board_id=${encodeURIComponent(boardId ?? '')}`}`;
      found = http.request<{ data?: unknown[]; message?: string }>('get', path).then((res) => {
        const byId = new Map<string, SyncRecord>();
        if (res.ok) {
          for (const row of res.body?.data ?? []) {
            if (collection === 'trash') {
              const t = row as { collection: string; id: string; record: SyncRecord };
              byId.set(`${t.collection}\u0000${t.id}`, t.record);
            } else {
              const r = row as SyncRecord;
              byId.set(`${collection}\u0000${r.id}`, r);
            }
          }
        }
        return { status: res.status, byId, message: typeof res.body?.message === 'string' ? res.body.message : '' };
      });
      loads.set(key, found);
    }
    return found;
  };
  const stateOf = async (teamId: number, collection: string, id: string, boardId: string | null): Promise<ServerState> => {
    const live = await load(teamId, collection, boardId);
    if (live.status !== 200) return { state: 'unreadable', status: live.status, message: live.message };
    const record = live.byId.get(`${collection}\u0000${id}`);
    if (record) return { state: 'live', record };
    if (boardId) {
      const trash = await load(teamId, 'trash', boardId);
      const trashed = trash.byId.get(`${collection}\u0000${id}`);
      if (trashed) return { state: 'trash', record: trashed };
    }
    return { state: 'missing' };
  };
  const states = new Map<string, ServerState>();
  const refs = new Map<string, ServerState>();
  for (const edit of edits) {
    if (edit.teamId === null) continue;
    const copy = edit.mine ?? edit.base;
    const boardId = typeof copy?.board_id === 'string' ? copy.board_id : null;
    states.set(`${edit.source}\u0000${edit.collection}\u0000${edit.id}`, await stateOf(edit.teamId, edit.collection, edit.id, boardId));
    for (const ref of collectionByName(edit.collection)?.references ?? []) {
      const target = edit.mine?.[ref.field];
      if (typeof target !== 'string' || !target) continue;
      refs.set(`${ref.collection}\u0000${target}`, await stateOf(edit.teamId, ref.collection, target, boardId));
    }
  }
  return {
    state: (edit: ReplayEdit): ServerState => states.get(`${edit.source}\u0000${edit.collection}\u0000${edit.id}`) ?? { state: 'missing' },
    reference: (collection: string, id: string): ServerState => refs.get(`${collection}\u0000${id}`) ?? { state: 'missing' },
  };
}

/** Predicts every edit's verdict with GETs only. */
export async function predict(file: UnsyncedExport, target: ReplayTarget, options: ReplayOptions = {}): Promise<{ verdicts: Verdict[]; blockedWrites: number }> {
  const blocked = { n: 0 };
  const clock = options.clock ?? systemClock;
  const http = httpFor(target, readOnlyFetch(options.fetch ?? ((i, init) => fetch(i, init)), blocked), clock, new Emitter());
  const edits = editsOf(file);
  const server = await readServer(http, edits);
  return { verdicts: edits.map((edit) => predictVerdict(edit, server.state(edit), server.reference)), blockedWrites: blocked.n };
}

/** Sends the file's queue (and retries its refused edits) with the worker's engine, and says what each edit became. */
async function applyFile(file: UnsyncedExport, target: ReplayTarget, options: ReplayOptions): Promise<{ verdicts: Verdict[]; unsent: number }> {
  const idb: IdbFactories = { indexedDB: new IDBFactory(), IDBKeyRange };
  const db: UserDb = await openUserDb(file.user_id, idb);
  await loadReplica(db, file);
  const clock = options.clock ?? systemClock;
  const events = new Emitter();
  const rejected: { collection: string; id: string; status: number; message: string }[] = [];
  const conflicts: { collection: string; id: string; field: string | null }[] = [];
  events.on((event, payload) => {
    if (event === 'rejected') rejected.push(payload as (typeof rejected)[number]);
    if (event === 'conflict') {
      const c = payload as { collection: string; id: string; field: string | null };
      conflicts.push({ collection: c.collection, id: c.id, field: c.field });
    }
  });
  let engine: SyncEngine | null = null;
  const http = httpFor(target, options.fetch ?? ((i, init) => fetch(i, init)), clock, events, ({ ok, networkError, method }) => {
    if (networkError) engine?.connection.networkFailure();
    else if (ok) engine?.connection.requestSucceeded(method);
  });
  engine = await SyncEngine.create({ db, http, clock, random: options.random ?? Math.random, events, newId: () => nanoid(), batchSize: options.batchSize });
  // Refused edits are tried again, as the inbox's Retry does.
  for (const r of file.refused) await engine.retryRefused(r.collection, r.id);
  // Saves queued during the send are the merge's re-saves after a 409 (no one else edits here).
  const resaves: QueuedRequest[] = [];
  const before = new Set((await db.relaxed.failedRequests.toArray()).map((r) => r.key));
  for (const handle of [db.strict, db.relaxed]) {
    handle.failedRequests.hook('creating', (_key, row) => {
      if (!before.has(row.key)) resaves.push(row);
    });
  }
  const rounds = options.rounds ?? 40;
  for (let round = 0; round < rounds; round++) {
    options.onRound?.(round);
    engine.connection.browserOnline();
    await engine.flush();
    if ((await db.relaxed.failedRequests.count()) === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const unsent = await db.relaxed.failedRequests.count();
  const stillQueued = new Set((await db.relaxed.failedRequests.toArray()).map((r) => `${r.collection}\u0000${r.id}`));
  engine.stop();
  db.close();

  const verdicts = editsOf(file).map((edit): Verdict => {
    const key = `${edit.collection}\u0000${edit.id}`;
    const head = { source: edit.source, collection: edit.collection, id: edit.id, item_id: itemIdOf(edit.collection, edit.mine ?? edit.base, edit.id), method: edit.method };
    if (edit.source === 'draft') return { ...head, verdict: 'unsent', fields: [], reason: 'A draft: the worker sends it only once it is saved.' };
    const refusal = rejected.filter((r) => `${r.collection}\u0000${r.id}` === key).at(-1);
    if (refusal) return { ...head, verdict: 'refused', fields: [], reason: refusal.message, status: refusal.status, refused_reason: refusedReasonOf(refusal.status, refusal.message) };
    const mineConflicts = conflicts.filter((c) => `${c.collection}\u0000${c.id}` === key);
    const merged = resaves.filter((r) => `${r.collection}\u0000${r.id}` === key);
    const mergedFields = [...new Set(merged.flatMap((r) => (r.item && r.old ? Object.keys(r.item).filter((k) => !['row_version', 'updated_at', 'created_at', 'updated_by'].includes(k) && JSON.stringify(r.item![k]) !== JSON.stringify(r.old![k])) : [])))].sort();
    if (mineConflicts.length) {
      const fields = mineConflicts.map((c) => c.field ?? 'record');
      return { ...head, verdict: 'conflict', fields, reason: `The server answered 409; conflict rows for ${fields.join(', ')}${mergedFields.length ? `; ${mergedFields.join(', ')} merged` : ''}.` };
    }
    if (stillQueued.has(key)) return { ...head, verdict: 'unsent', fields: [], reason: 'Still queued: the server gave no final answer in the rounds allowed.' };
    if (merged.length) return { ...head, verdict: 'merge', fields: mergedFields, reason: `The server answered 409; ${mergedFields.join(', ')} re-applied over its copy and saved.` };
    return { ...head, verdict: 'land', fields: [], reason: 'Saved.' };
  });
  return { verdicts, unsent };
}

/** Predicts (GETs only), then with `apply` sends the edits for real. */
export async function replayUnsynced(file: UnsyncedExport, target: ReplayTarget, options: ReplayOptions = {}): Promise<ReplayReport> {
  const predicted = await predict(file, target, options);
  if (!options.apply) return { predicted: predicted.verdicts, applied: null, unsent: file.queue.length, blockedWrites: predicted.blockedWrites };
  const applied = await applyFile(file, target, options);
  return { predicted: predicted.verdicts, applied: applied.verdicts, unsent: applied.unsent, blockedWrites: predicted.blockedWrites };
}
