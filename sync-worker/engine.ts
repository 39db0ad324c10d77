/**
 * The sync engine of one signed-in user: the commands the app sends (save, delete, drafts, open a
 * board, refresh, preview), the changes that arrive (realtime events, /changes deltas, index
 * loads) and the reconnect work. Rules come from merge.ts, storage from apply.ts, sending from
 * queue.ts, connectivity from connection.ts.
 *
 * Entry points for the realtime client (sync-worker/realtime/): `applyRemote(event)` for board
 * events (saved / deleted / refresh) and `connection.realtimePong()`, `.realtimeReconnected()`,
 * `.realtimeDropped()`.
 */
import { boardChannel, collectionByName, collectionList, type CollectionDefinition, type DeltaResponse } from '../schema/collections';
import { CHANGES_FORMAT, decodeChanges, type LeanDeltaResponse } from '../schema/changes-wire';
import { toastMessageFor, type ApiErrorBody } from '../schema/api-error';
import { applyRemoteChanges, fromStored, settleRequests, Tombstones, toStored, type RemoteChange } from './apply';
import type { Clock, Random } from './clock';
import { Collection, type IndexAnswer } from './collection';
import { streamIndex, type HeadFetcher, type PageFetcher } from './stream';
import { Connection } from './connection';
import { isQuotaError, latestSchema, schemaHash, type UserDb } from './db';
import { buildUnsyncedExport, recordKeysOf, type UnsyncedExport } from './unsynced-export';
import { WRITTEN_SHOWN, type Emitter } from './events';
import type { HttpClient } from './http';
import { planDelete, planSave } from './merge';
import { DEFAULT_BATCH_SIZE, OfflineError, RequestQueue } from './queue';
import { refusedLabel, retryRecord, type RefusedEditView } from './refused';
import { inboxEntries, namesWanted } from './inbox';
import { keepMineRecord } from './conflict-merge';
import type { ConflictChoice, InboxEntry } from '../schema/sync-conflicts';
import { SERVER_META_KEY, startOver } from './reset';
import { BufferedTx, mutatorNamed, valuesSignature, type ApplyResult, type Mutator, type ReadSet } from './mutators';
import type { HistoryEntry, HistoryRecord } from './undo';
import type { DraftEntry, QueuedRequest, RemoteEvent, SyncRecord } from './types';

/** A request answered with an error status (reads and direct calls; queued writes never throw this). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(toastMessageFor(status, body));
    this.name = 'ApiRequestError';
  }
}

/**
 * While disconnected, the server is asked now and then whether it is back (backing off to a
 * minute), for when no browser or realtime signal will come (a server restart, a captive network).
 */
export const PROBE_MIN_MS = 5_000;
export const PROBE_MAX_MS = 60_000;

/**
 * How long a board loaded by this device counts as in the replica. /changes carries every later
 * change except losing sight of records (a folder hidden from us sends no tombstones; realtime
 * `refresh` covers that while connected), so a board not opened for a day is loaded again.
 */
export const BOARD_FRESH_MS = 24 * 60 * 60 * 1000;

/** How often an action runs again when what it read changed before it could be stored. */
export const MUTATION_ATTEMPTS = 3;
/** The most requests one action sends as a transaction: what one batch call carries (DEFAULT_BATCH_SIZE). */
export const MAX_TRANSACTION_REQUESTS = DEFAULT_BATCH_SIZE;

/** How long a cold open's stream waits after the first pages are stored (decision 0101). */
export const STREAM_AFTER_OPEN_MS = 250;

/** What a board's first screen draws: its collections are loaded before the others on a cold open. */
export const FIRST_SCREEN: ReadonlySet<string> = new Set(['folder', 'folder_view', 'attribute', 'item', 'value']);

export interface OpenBoardOptions {
  /** Answer once the first screen's collections are stored; the others load behind (a tab's open). */
  firstScreen?: boolean;
}

/** Edits the quota refused are tried again this often (and on every successful write). */
export const OVERFLOW_RETRY_MS = 10_000;

export interface EngineOptions {
  db: UserDb;
  http: HttpClient;
  clock: Clock;
  random: Random;
  events: Emitter;
  newId: () => string;
  initiallyOnline?: boolean;
  batchSize?: number;
  /** Disconnect grace after an offline signal (connection.ts). */
  graceMs?: number;
  /**
   * Whether this reader is outside the workspace (an anonymous visitor, or signed in without
   * membership): then it catches up per board (`/changes?board_id=`, one cursor per board), since
   * the server answers the workspace-wide feed to members only. Default: a member.
   */
  readsPerBoard?: (teamId: number) => boolean | Promise<boolean>;
}

export interface ApplyOptions {
  /** The workspace; defaults to the open board's workspace. */
  teamId?: number;
}

export interface WriteOptions {
  /** The workspace; defaults to the record's team_id, then the open board's workspace. */
  teamId?: number;
  /** Requests with the same transaction id apply on the server all together or not at all. */
  transaction?: string | null;
}

/** A command the database could not store (quota): kept in memory and tried again. */
type Overflow = () => Promise<'stored' | 'held'>;

export class SyncEngine {
  readonly connection: Connection;
  readonly queue: RequestQueue;
  private readonly collections = new Map<string, Collection>();
  /** Boards whose streaming load is still storing pages, by `{teamId}:{boardId}`. */
  private readonly streams = new Map<string, Promise<void>>();
  /** Boards being opened: their streams wait for this until every first page is stored (stream.ts `restAfter`). */
  private readonly openingGates = new Map<string, Promise<void>>();
  private openRef: { teamId: number; boardId: string } | null = null;
  private preview = false;
  private seq = 0;
  private overflow: Overflow[] = [];
  private stopped = false;
  private tombstones = new Tombstones();
  /** The database the replica was loaded from (decision 0102); null until an answer names one. */
  private serverId: string | null = null;
  private startingOver: Promise<void> | null = null;
  private probeTimer: unknown = null;
  private livenessTimer: unknown = null;
  private overflowTimer: unknown = null;
  private retryingOverflow: Promise<void> | null = null;
  private catchingUp: Promise<number> | null = null;

  private constructor(private readonly opts: EngineOptions) {
    this.connection = new Connection(
      opts.clock,
      opts.random,
      {
        onReconnect: () => this.onReconnect(),
        onDelayedSync: () => void this.fullSync().catch(() => undefined),
        onStatus: (status) => {
          opts.events.emit('connection', { status });
          if (status === 'disconnected') this.scheduleProbe(PROBE_MIN_MS);
        },
        onUnheard: () => this.scheduleLivenessProbe(),
      },
      opts.initiallyOnline ?? true,
      opts.graceMs,
    );
    this.queue = new RequestQueue({
      db: opts.db,
      http: opts.http,
      clock: opts.clock,
      events: opts.events,
      newId: opts.newId,
      isOnline: () => this.connection.online,
      settle: (results) => settleRequests(opts.db, results, opts.events, opts.clock.now(), this.tombstones, opts.newId),
      batchSize: opts.batchSize,
    });
  }

  static async create(opts: EngineOptions): Promise<SyncEngine> {
    const engine = new SyncEngine(opts);
    const last = await opts.db.relaxed.failedRequests.orderBy('seq').last();
    engine.seq = last?.seq ?? 0;
    const server = (await opts.db.relaxed.meta.get(SERVER_META_KEY))?.value;
    engine.serverId = typeof server === 'string' ? server : null;
    opts.http.useServerCheck((id) => engine.acceptServer(id));
    return engine;
  }

  get db(): UserDb {
    return this.opts.db;
  }

  get openBoardRef(): { teamId: number; boardId: string } | null {
    return this.openRef;
  }

  /** Waits until the queue has nothing it can send right now (tests, sign-out). */
  async idle(): Promise<void> {
    await this.queue.flush();
  }

  stop(): void {
    this.stopped = true;
    if (this.probeTimer !== null) this.opts.clock.clearTimeout(this.probeTimer);
    if (this.livenessTimer !== null) this.opts.clock.clearTimeout(this.livenessTimer);
    if (this.overflowTimer !== null) this.opts.clock.clearTimeout(this.overflowTimer);
    this.queue.stop();
    this.connection.dispose();
  }

  // ── preview ───────────────────────────────────────────────────────────────────────────────
  /** Preview (pretend) mode: edits apply locally, nothing is sent or queued. */
  setPreview(on: boolean): void {
    this.preview = on;
  }

  get isPreview(): boolean {
    return this.preview;
  }

  // ── saves and deletes ─────────────────────────────────────────────────────────────────────
  /**
   * Saves a record: applied locally at once with row_version raised by one, then sent (or kept as
   * a failed request when offline). An unchanged save changes and sends nothing. Returns the
   * local copy.
   */
  async save(collection: string, record: SyncRecord, options: WriteOptions = {}): Promise<SyncRecord | null> {
    const def = this.definition(collection);
    checkRecord(record);
    const teamId = this.teamFor(record, options);
    const write = () => this.strictTx(() => this.saveInTx(def, teamId, record, options));
    const stored = await this.writeOrHold(write);
    if (stored === 'held') return record;
    this.afterWrite();
    return stored.value;
  }

  /**
   * Runs a write of user work. When the browser refuses it for lack of space (quota), the write is
   * held in memory, in order behind any held before it, and tried again on a timer and after the
   * next successful write until it is stored; the app is told at once ('quota-exceeded').
   */
  private async writeOrHold<T>(write: () => Promise<T>): Promise<{ value: T } | 'held'> {
    // Never let a new edit overtake an older one still held: it would be overwritten by it.
    if (this.overflow.length) await this.retryOverflow();
    if (this.overflow.length) {
      this.holdOverflow(write);
      return 'held';
    }
    try {
      return { value: await write() };
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      this.holdOverflow(write);
      return 'held';
    }
  }

  // ── actions (decision 0100) ──────────────────────────────────────────────────────────────
  /**
   * Runs a named action (sync-worker/mutators/) as ONE Dexie transaction: every record it writes,
   * the drafts it replaces and its queued requests are stored together, and the requests share one
   * transaction id, so the queue sends them as one batch the server applies all or none. Answers
   * the before- and after-image of each record it changed (for undo).
   */
  apply(name: string, args: unknown, options: ApplyOptions = {}): Promise<ApplyResult> {
    return this.runMutation(mutatorNamed(name), args, options);
  }

  /** `apply` with the mutator itself (tests run spoiled ones through here). */
  async runMutation<A>(mutator: Mutator<A>, args: A, options: ApplyOptions = {}): Promise<ApplyResult> {
    const teamId = options.teamId ?? this.openRef?.teamId;
    if (teamId === undefined) throw new Error('No workspace for this action: open a board or pass teamId.');
    const write = async () => {
      for (let attempt = 1; ; attempt++) {
        const tx = await this.runMutator(mutator, args, teamId);
        const entries = await this.strictTx(() => this.commitMutation(tx, teamId, attempt < MUTATION_ATTEMPTS));
        if (entries) return entries;
      }
    };
    const stored = await this.writeOrHold(write);
    if (stored === 'held') return { entries: [], held: true };
    // Every tab shows what was stored now, not after its own read of the replica (decision 0295).
    const entries = stored.value;
    if (entries.length > 0 && entries.length <= WRITTEN_SHOWN) {
      this.opts.events.emit('written', { records: entries.map((e) => ({ collection: e.collection, id: e.id, record: (e.after as SyncRecord | null) ?? null })) });
    }
    this.afterWrite();
    return { entries };
  }

  /** Runs the mutator over the replica as it is now, collecting its writes (nothing stored yet). */
  private async runMutator<A>(mutator: Mutator<A>, args: A, teamId: number): Promise<BufferedTx> {
    const t = this.db.relaxed;
    const tx = new BufferedTx(teamId, {
      get: async (collection, id) => fromStored(await t.records.get([collection, id])),
      valuesOf: async (itemId) => (await t.records.where('[collection+item_id]').equals(['value', itemId]).toArray()).map((r) => fromStored(r)!),
    });
    await mutator(tx, args);
    for (const w of tx.writes()) this.definition(w.collection);
    return tx;
  }

  /**
   * Stores a mutator's writes and their requests, inside the strict transaction. When something
   * the mutator read changed meanwhile (a remote save landed), answers null so it runs again —
   * unless this is the last attempt, when the writes go on over the newer copies (the queue's
   * row_version check still guards the server).
   */
  private async commitMutation(tx: BufferedTx, teamId: number, mayRetry: boolean): Promise<HistoryEntry[] | null> {
    const t = this.db.strict;
    if (mayRetry && (await this.readSetChanged(tx.readSet()))) return null;
    const writes = tx.writes();
    // Larger than one batch call can carry: a bulk edit of that many records goes record by record.
    const whole = writes.length > 1 && writes.length <= MAX_TRANSACTION_REQUESTS;
    const options: WriteOptions = { teamId, transaction: whole ? this.opts.newId() : null };
    const entries: HistoryEntry[] = [];
    for (const w of writes) {
      const def = this.definition(w.collection);
      const before = fromStored(await t.records.get([def.name, w.id]));
      let after: SyncRecord | null = null;
      let unsynced = false;
      if (w.kind === 'put') {
        checkRecord({ ...w.record, row_version: 0 });
        after = await this.saveInTx(def, teamId, { ...w.record, row_version: before?.row_version ?? 0 }, options);
      } else if (w.kind === 'delete') {
        unsynced = (await this.deleteInTx(def, w.id, options)) === 'revert';
      } else {
        after = await this.restoreInTx(def, teamId, w.record, options);
      }
      if (before === null && after === null) continue;
      if (before && after && before.row_version === after.row_version) continue;
      entries.push({ collection: def.name, id: w.id, before: before as HistoryRecord | null, after: after as HistoryRecord | null, ...(unsynced ? { unsynced } : {}) });
    }
    return entries;
  }

  private async readSetChanged(reads: ReadSet): Promise<boolean> {
    const t = this.db.strict;
    const rows = await t.records.bulkGet(reads.records.map((r) => [r.collection, r.id] as [string, string]));
    if (rows.some((row, i) => (row?.row_version ?? null) !== reads.records[i]!.version)) return true;
    for (const v of reads.values) {
      const now = await t.records.where('[collection+item_id]').equals(['value', v.itemId]).toArray();
      if (valuesSignature(now.map((r) => fromStored(r)!)) !== v.signature) return true;
    }
    return false;
  }

  /**
   * Brings back a record the server keeps in its trash: shown at once as `record`, and a
   * restore request is queued (it goes out like any write, in the action's batch).
   */
  private async restoreInTx(def: CollectionDefinition, teamId: number, record: SyncRecord, options: WriteOptions): Promise<SyncRecord> {
    const t = this.db.strict;
    const shown = { ...record, deleted_at: null };
    await t.records.put(toStored(def.name, shown));
    if (this.preview) return shown;
    const request = this.newRequest(def, teamId, record.id, 'restore', shown, null, typeof record.board_id === 'string' ? record.board_id : undefined, options);
    await t.failedRequests.add({ ...request, route: `${def.route}/${encodeURIComponent(record.id)}/restore` });
    return shown;
  }

  /** Deletes a record: removed locally at once, then the delete is sent. */
  async delete(collection: string, id: string, options: WriteOptions = {}): Promise<void> {
    const def = this.definition(collection);
    const stored = await this.writeOrHold(() => this.strictTx(() => this.deleteInTx(def, id, options)));
    if (stored !== 'held') this.afterWrite();
  }

  /** Answers the plan's kind: 'revert' when the record never reached the server (its create was dropped). */
  private async deleteInTx(def: CollectionDefinition, id: string, options: WriteOptions): Promise<'unchanged' | 'revert' | 'send'> {
    const t = this.db.strict;
    const current = fromStored(await t.records.get([def.name, id]));
    const draft = await t.drafts.get([def.name, id]);
    const base = draft ? draft.previous : current;
    if (draft) await t.drafts.delete([def.name, id]);
    await t.records.delete([def.name, id]);
    if (this.preview) return 'unchanged';
    const tail = mergeable(await this.tailOf(def.name, id), options);
    const plan = planDelete(base, tail);
    if (plan.kind === 'unchanged') return 'unchanged';
    if (plan.kind === 'revert') {
      await t.failedRequests.delete(plan.drop.key);
      return 'revert';
    }
    const teamId = this.teamFor(plan.old, options);
    if (plan.replaces) {
      await t.failedRequests.put({ ...plan.replaces, method: 'delete', item: null, old: plan.old });
    } else {
      await t.failedRequests.add(this.newRequest(def, teamId, id, 'delete', null, plan.old, plan.old.board_id, options));
    }
    return 'send';
  }

  // ── drafts ────────────────────────────────────────────────────────────────────────────────
  /** Shows an edit locally without saving it; discard brings back what was there before. */
  async addDraft(collection: string, record: SyncRecord): Promise<void> {
    const def = this.definition(collection);
    checkRecord(record);
    try {
      await this.writeDraft(def, record);
    } catch (error) {
      // The draft could not be stored: tell the app (its text is still in the editor) and fail.
      if (isQuotaError(error)) this.opts.events.emit('quota-exceeded', { message: 'The browser refused to store the draft.', held: this.overflow.length });
      throw error;
    }
  }

  private async writeDraft(def: CollectionDefinition, record: SyncRecord): Promise<void> {
    await this.strictTx(async () => {
      const t = this.db.strict;
      const current = fromStored(await t.records.get([def.name, record.id]));
      const existing = await t.drafts.get([def.name, record.id]);
      const previous = existing ? existing.previous : current;
      const shown = { ...record, row_version: current?.row_version ?? record.row_version };
      const entry: DraftEntry = { collection: def.name, id: record.id, draft: shown, previous, time: this.opts.clock.now() };
      await t.drafts.put(entry);
      await t.records.put(toStored(def.name, shown));
    });
  }

  /** Drops a draft and restores the copy it covered (or removes a record that was only a draft). */
  async discardDraft(collection: string, id: string): Promise<void> {
    const def = this.definition(collection);
    await this.strictTx(async () => {
      const t = this.db.strict;
      const draft = await t.drafts.get([def.name, id]);
      if (!draft) return;
      await t.drafts.delete([def.name, id]);
      if (draft.previous) await t.records.put(toStored(def.name, draft.previous));
      else await t.records.delete([def.name, id]);
    });
  }

  /** Saves a draft for real (in the same transaction that removes the draft). */
  async flushDraft(collection: string, id: string, options: WriteOptions = {}): Promise<SyncRecord | null> {
    const def = this.definition(collection);
    const draft = await this.db.relaxed.drafts.get([def.name, id]);
    if (!draft) return null;
    const teamId = this.teamFor(draft.draft, options);
    const result = await this.strictTx(() => this.saveInTx(def, teamId, draft.draft, options));
    this.afterWrite();
    return result;
  }

  listDrafts(): Promise<DraftEntry[]> {
    return this.db.relaxed.drafts.toArray();
  }

  // ── queue controls ────────────────────────────────────────────────────────────────────────
  setQueueing(on: boolean): Promise<void> {
    return this.queue.setQueueing(on);
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** The user's retry of failed requests: "still offline" while offline. */
  retryFailed(): Promise<void> {
    return this.queue.retry();
  }

  // ── refused edits (decision 0094) ────────────────────────────────────────────────────────
  /** Edits the server refused for good, oldest first, each described by the records it names. */
  async refusedEdits(): Promise<RefusedEditView[]> {
    const t = this.db.relaxed;
    const rows = await t.refusedEdits.orderBy('refused_at').toArray();
    const wanted = new Map<string, [string, string]>();
    for (const row of rows) {
      const record = row.item ?? row.old;
      if (typeof record?.item_id === 'string') wanted.set(`item\u0000${record.item_id}`, ['item', record.item_id]);
      if (typeof record?.attribute_id === 'string') wanted.set(`attribute\u0000${record.attribute_id}`, ['attribute', record.attribute_id]);
    }
    const keys = [...wanted.values()];
    const found = await t.records.bulkGet(keys);
    const byKey = new Map(keys.map((k, i) => [`${k[0]}\u0000${k[1]}`, fromStored(found[i])]));
    const lookup = (collection: string, id: string) => byKey.get(`${collection}\u0000${id}`);
    return rows.map((row) => ({
      collection: row.collection,
      id: row.id,
      method: row.method,
      status: row.status,
      message: row.message,
      refused_at: row.refused_at,
      created_at: row.created_at,
      item: row.item,
      old: row.old,
      label: refusedLabel(row, lookup),
    }));
  }

  /**
   * Sends a refused edit again through the normal queue: a new request (new idempotency key) that
   * saves what the user meant over the current local copy — or, when the replica no longer holds
   * the record, over the copy the edit first replaced — so its row_version is the one the server
   * expects. The row leaves `refusedEdits` in the same transaction that queues the request; if the
   * server refuses again, it comes back with the new answer.
   */
  async retryRefused(collection: string, id: string): Promise<void> {
    const def = this.definition(collection);
    const t = this.db.strict;
    const queued = await t.transaction('rw', [t.records, t.failedRequests, t.drafts, t.refusedEdits], async () => {
      const entry = await t.refusedEdits.get([def.name, id]);
      if (!entry) return false;
      await t.refusedEdits.delete([def.name, id]);
      const record = retryRecord(entry);
      const base = fromStored(await t.records.get([def.name, id])) ?? entry.old;
      if (!record) {
        if (!base) return true;
        // The delete is planned against a local copy; put the known one back if it is gone.
        if (!(await t.records.get([def.name, id]))) await t.records.put(toStored(def.name, base));
        await this.deleteInTx(def, id, { teamId: entry.teamId });
        return true;
      }
      if (base && !(await t.records.get([def.name, id]))) await t.records.put(toStored(def.name, base));
      await this.saveInTx(def, entry.teamId, record, { teamId: entry.teamId });
      return true;
    });
    if (!queued) return;
    this.opts.events.emit('not-saved', { count: await this.db.relaxed.refusedEdits.count() });
    this.afterWrite();
  }

  // ── conflicts (issue 30, decision 0345) ───────────────────────────────────────────────────
  /** The conflict inbox: conflict rows, then refused edits, each named by its item and field. */
  async conflictInbox(): Promise<InboxEntry[]> {
    const t = this.db.relaxed;
    const [conflicts, refused] = await Promise.all([t.conflicts.toArray(), t.refusedEdits.toArray()]);
    const keys = namesWanted(conflicts, refused);
    const found = await t.records.bulkGet(keys);
    const byKey = new Map(keys.map((k, i) => [`${k[0]}\u0000${k[1]}`, fromStored(found[i])]));
    return inboxEntries(conflicts, refused, (collection, id) => byKey.get(`${collection}\u0000${id}`));
  }

  /**
   * Settles a conflict row. 'mine': its value is saved again as a new edit over the current local
   * copy (a whole-record row saves the whole copy, or deletes again); 'theirs': the row is dropped.
   * Answers 'gone' (row kept) when mine cannot be applied because the record is no longer held.
   */
  async resolveConflict(seq: number, choice: ConflictChoice): Promise<'resolved' | 'gone' | 'missing'> {
    const t = this.db.strict;
    const result = await t.transaction('rw', [t.records, t.failedRequests, t.drafts, t.conflicts], async () => {
      const row = await t.conflicts.get(seq);
      if (!row) return 'missing' as const;
      if (choice === 'mine') {
        const def = this.definition(row.collection);
        const current = fromStored(await t.records.get([def.name, row.id]));
        const teamId = row.team_id ?? (typeof current?.team_id === 'number' ? current.team_id : undefined) ?? this.openRef?.teamId;
        if (row.kind === 'record' && row.local === null) {
          if (current && teamId !== undefined) await this.deleteInTx(def, row.id, { teamId });
        } else {
          const record = keepMineRecord(row, current);
          if (!record || teamId === undefined) return 'gone' as const;
          await this.saveInTx(def, teamId, record, { teamId });
        }
      }
      await t.conflicts.delete(seq);
      return 'resolved' as const;
    });
    if (result !== 'resolved') return result;
    this.opts.events.emit('conflicts', { count: await this.db.relaxed.conflicts.count(), added: [], removed: [seq] });
    if (choice === 'mine') this.afterWrite();
    return result;
  }

  /**
   * The user's unsynced work as one file (issue #30 part 7, decision 0350): queue, drafts,
   * conflicts, refused edits, their local copies and the replica's schema, read in one
   * transaction. Never the session's token (unsynced-export.ts keeps meta out and strips secrets).
   */
  async exportUnsynced(userId: number): Promise<UnsyncedExport> {
    const t = this.db.relaxed;
    return t.transaction('r', [t.failedRequests, t.drafts, t.conflicts, t.refusedEdits, t.records, t.meta], async () => {
      const [queue, drafts, conflicts, refused, server] = await Promise.all([
        t.failedRequests.orderBy('seq').toArray(),
        t.drafts.toArray(),
        t.conflicts.toArray(),
        t.refusedEdits.toArray(),
        t.meta.get(SERVER_META_KEY),
      ]);
      const keys = recordKeysOf(queue, drafts, conflicts, refused);
      const found = await t.records.bulkGet(keys);
      const records = keys.flatMap(([collection], i) => {
        const record = fromStored(found[i]);
        return record ? [{ collection, record }] : [];
      });
      const schema = latestSchema();
      return buildUnsyncedExport({
        userId,
        database: this.db.name,
        schemaVersion: schema.version,
        schemaHash: schemaHash(),
        serverId: typeof server?.value === 'string' ? server.value : null,
        queue,
        drafts,
        conflicts,
        refused,
        records,
        now: this.opts.clock.now(),
      });
    });
  }

  /** Drops a refused edit for good: the local copy stays what the server holds. */
  async discardRefused(collection: string, id: string): Promise<void> {
    const t = this.db.strict;
    await t.transaction('rw', t.refusedEdits, () => t.refusedEdits.delete([collection, id]));
    this.opts.events.emit('not-saved', { count: await this.db.relaxed.refusedEdits.count() });
  }

  // ── loading ───────────────────────────────────────────────────────────────────────────────
  /** The collection of one board (created on first use). */
  collection(teamId: number, collection: string, boardId: string | null): Collection {
    const def = this.definition(collection);
    const key = `${teamId}\u0000${def.name}\u0000${boardId ?? ''}`;
    let found = this.collections.get(key);
    if (!found) {
      found = new Collection(def, teamId, boardId, (name, board, address) => this.loadIndex(name, board, address));
      this.collections.set(key, found);
    }
    return found;
  }

  /**
   * Opens a board: remembers it as the open board and brings the replica up to date. A board
   * whose index was loaded in this session, or by this device within BOARD_FRESH_MS, only
   * catches up through /changes (DESIGN.md §3): reloading ~100k records of a large board on every
   * open held IndexedDB for seconds, and reads and the user's own writes queued behind it.
   * Otherwise every collection's index is loaded, streaming (decision 0101): this answers once
   * the first page of each is stored, so the board shows while the rest streams in behind it
   * (`boardComplete` answers when it is all in). The collections a board's first screen draws
   * (FIRST_SCREEN) are asked first and the others once those answered: the server (PGlite, one
   * connection) answers them one after another, and the first screen waited on the last of
   * twelve. With `firstScreen` (a tab opening the board) this answers once those are stored;
   * the others' first pages join the stream behind them (decision 0364).
   */
  async openBoard(teamId: number, boardId: string, options: OpenBoardOptions = {}): Promise<void> {
    this.openRef = { teamId, boardId };
    const collections = collectionList.map((def) => this.collection(teamId, def.name, boardId));
    const key = await this.cursorKey(teamId, boardId);
    const known = await this.db.relaxed.meta.get(key);
    const loadedKey = `board-loaded:${teamId}:${boardId}`;
    if (known && (collections.every((c) => c.initialized) || (await this.loadedRecently(loadedKey)))) {
      for (const c of collections) c.markInitialized();
      this.opts.events.emit('loaded', { teamId, boardId });
      await this.catchUp(teamId, boardId);
      return;
    }
    let letStreamsGo!: () => void;
    this.openingGates.set(boardId, new Promise<void>((resolve) => (letStreamsGo = resolve)));
    const release = () => {
      this.openingGates.delete(boardId);
      // A moment for the tab's first reads of the board before the stream's writes queue up
      // (real time, not the engine's clock: scheduling only, nothing waits on it in logic).
      setTimeout(letStreamsGo, STREAM_AFTER_OPEN_MS);
    };
    const first = collections.filter((c) => FIRST_SCREEN.has(c.name));
    const firstAnswers = await Promise.all(first.map((c) => c.init())).finally(release);
    const others = () => Promise.all(collections.filter((c) => !FIRST_SCREEN.has(c.name)).map((c) => c.init()));
    // The others' first pages, unless the caller waits only for the first screen.
    const laterAnswers = options.firstScreen ? null : await others();
    // The first page's cursor: every later page was read after it, so /changes from it misses nothing.
    const cursors = firstAnswers.map((a) => a.cursor).filter((c): c is number => typeof c === 'number');
    if (!known && cursors.length) await this.db.relaxed.meta.put({ key, value: Math.min(...cursors) });
    this.opts.events.emit('loaded', { teamId, boardId });
    const finish = async () => {
      const answers = [...firstAnswers, ...(laterAnswers ?? (await others()))];
      await Promise.all(answers.map((a) => a.complete));
      // Only with a cursor (the team's, or this board's for a reader outside the workspace) does
      // /changes cover what happens to this board from now on; only a complete load counts.
      if (known || cursors.length) await this.db.relaxed.meta.put({ key: loadedKey, value: this.opts.clock.now() });
      if (known) await this.catchUp(teamId, boardId);
    };
    if (laterAnswers && [...firstAnswers, ...laterAnswers].every((a) => a.done)) return finish();
    const streaming = finish();
    this.streams.set(`${teamId}:${boardId}`, streaming);
    streaming
      .catch(() => undefined)
      .finally(() => {
        if (this.streams.get(`${teamId}:${boardId}`) === streaming) this.streams.delete(`${teamId}:${boardId}`);
      });
  }

  /** Settles when the board's streaming load (openBoard) has stored every page; at once when none runs. */
  boardComplete(teamId: number, boardId: string): Promise<void> {
    return this.streams.get(`${teamId}:${boardId}`) ?? Promise.resolve();
  }

  /**
   * Where the /changes cursor of a board's reader is kept: one per team for a member (the
   * workspace-wide feed covers every board), one per board for a reader outside the workspace.
   */
  private async cursorKey(teamId: number, boardId: string): Promise<string> {
    return (await this.opts.readsPerBoard?.(teamId)) ? `cursor:${teamId}:${boardId}` : `cursor:${teamId}`;
  }

  private async loadedRecently(key: string): Promise<boolean> {
    const at = (await this.db.relaxed.meta.get(key))?.value;
    return typeof at === 'number' && this.opts.clock.now() - at < BOARD_FRESH_MS;
  }

  /** Reloads one collection of a board (shell.md: only after initialisation, with an address). */
  refresh(teamId: number, collection: string, boardId: string | null): Promise<IndexAnswer> {
    return this.collection(teamId, collection, boardId).refresh();
  }

  /**
   * The delta since our cursor: only what was missed (DESIGN.md §3). A reader outside the
   * workspace catches up one board: `boardId`, else the open board when it is of that team.
   */
  catchUp(teamId = this.openRef?.teamId, boardId?: string): Promise<number> {
    const board = boardId ?? (this.openRef && this.openRef.teamId === teamId ? this.openRef.boardId : undefined);
    // One at a time: an older page applied after a newer one would undo it.
    const run = (this.catchingUp ?? Promise.resolve(0)).catch(() => 0).then(() => this.catchUpNow(teamId, board));
    this.catchingUp = run;
    void run.finally(() => {
      if (this.catchingUp === run) this.catchingUp = null;
    }).catch(() => undefined);
    return run;
  }

  private async catchUpNow(teamId: number | undefined, boardId: string | undefined): Promise<number> {
    if (teamId === undefined || !this.connection.online) return 0;
    const perBoard = (await this.opts.readsPerBoard?.(teamId)) ?? false;
    if (perBoard && boardId === undefined) return 0;
    const key = perBoard ? `cursor:${teamId}:${boardId}` : `cursor:${teamId}`;
    const scope = perBoard ? `&board_id=${encodeURIComponent(boardId!)}` : '';
    const known = await this.db.relaxed.meta.get(key);
    if (!known || typeof known.value !== 'number') return 0;
    let cursor = known.value;
    let applied = 0;
    const reindexed = new Set<string>();
    for (;;) {
      // format=2: the lean wire format (schema/changes-wire.ts, decision 0320); a server that does
      // not know it answers format 1, which decodeChanges reads as it is.
      const response = await this.opts.http.request<LeanDeltaResponse | DeltaResponse>('get', `/api/${teamId}/changes?after=${cursor}${scope}&format=${CHANGES_FORMAT}`);
      if (!response.ok) throw new ApiRequestError(response.status, response.body as ApiErrorBody);
      const changes: RemoteChange[] = decodeChanges(response.body).map((c) => ({ collection: c.collection, op: c.op, record: c.record as SyncRecord | null, id: c.id }));
      applied += await applyRemoteChanges(this.db, changes, this.tombstones);
      // Boards whose removals older than our cursor the server no longer keeps (decision 0351).
      const reindex = (response.body as { reindex?: unknown }).reindex;
      if (Array.isArray(reindex)) {
        const fresh = reindex.filter((b): b is string => typeof b === 'string' && !reindexed.has(b));
        for (const b of fresh) reindexed.add(b);
        if (fresh.length) await this.reindexBoards(teamId, fresh);
      }
      const next = response.body.cursor;
      // Below ours: this database never handed out our cursor (restored from a backup, reset).
      if (typeof next === 'number' && next < cursor) {
        // A start-over that could not be stored (quota) is tried again by the next answer.
        void this.startOver((response.body as { server_id?: string }).server_id ?? this.serverId, 'cursor').catch(() => undefined);
        break;
      }
      if (typeof next !== 'number' || next <= cursor) break;
      cursor = next;
      await this.db.relaxed.meta.put({ key, value: cursor });
      // A page may be short or even empty while more follow (far-behind readers get block-aligned
      // pages with the changes they may not see left out; decision 0285): only has_more ends it.
      const hasMore = (response.body as { has_more?: boolean }).has_more;
      if (hasMore === false || (changes.length === 0 && hasMore !== true)) break;
    }
    return applied;
  }

  /**
   * The server compacted its change log past our cursor for these boards (decision 0351): what
   * was removed for good there before the horizon is no longer said, so each board is loaded
   * again as on a cold open (streamed; after the last page, what the server no longer lists
   * leaves the replica). Drafts, queued edits and conflicts are never written over by a load:
   * they stay and replay as usual. The open board loads now, the others on their next open.
   */
  private async reindexBoards(teamId: number, boardIds: string[]): Promise<void> {
    for (const boardId of boardIds) {
      await this.db.relaxed.meta.delete(`board-loaded:${teamId}:${boardId}`);
      for (const def of collectionList) this.collections.get(`${teamId}\u0000${def.name}\u0000${boardId}`)?.markStale();
    }
    const open = this.openRef;
    // Not awaited: the load's end catches up, which waits for the catch-up under way (this one).
    if (open && open.teamId === teamId && boardIds.includes(open.boardId)) void this.openBoard(teamId, open.boardId).catch(() => undefined);
  }

  /** The spec's delayed sync: reload the open board's collections, then catch up. */
  async fullSync(): Promise<void> {
    if (this.stopped || !this.openRef || !this.connection.online) return;
    this.opts.events.emit('syncing', {});
    const { teamId, boardId } = this.openRef;
    for (const def of collectionList) {
      const c = this.collection(teamId, def.name, boardId);
      if (c.initialized) await c.refresh();
    }
    await this.catchUp(teamId, boardId);
  }

  // ── a server that was reset or restored (decision 0102) ─────────────────────────────────────
  /**
   * Sees every answer's database id before it is used (http.ts). The first id a replica meets is
   * its own; another one starts over and its answers are refused (the requests stay queued, as
   * if no answer had come) until the replica is ready for it.
   */
  private acceptServer(id: string): boolean {
    if (this.startingOver) return false;
    if (this.serverId === id) return true;
    if (this.serverId === null) {
      this.serverId = id;
      void this.db.strict.meta.put({ key: SERVER_META_KEY, value: id }).catch(() => undefined);
      return true;
    }
    void this.startOver(id, 'identity').catch(() => undefined);
    return false;
  }

  /**
   * The replica belongs to another database: drop it but keep every unsent edit, rebased for the
   * new server (reset.ts), tell the app once, then reconnect — the queue replays the edits (what
   * the server refuses goes to "Not saved") — and load the open board again.
   */
  startOver(serverId: string | null, reason: 'identity' | 'cursor'): Promise<void> {
    if (this.startingOver) return this.startingOver;
    const run = (async () => {
      const { queued } = await startOver(this.db, serverId);
      this.serverId = serverId;
      this.collections.clear();
      this.tombstones = new Tombstones();
      this.opts.events.emit('server-reset', { reason, queued });
    })();
    this.startingOver = run.finally(() => {
      this.startingOver = null;
    });
    return this.startingOver.then(() => {
      if (this.stopped) return;
      // Answers were refused as missing while starting over: the connection is back now.
      if (this.connection.online) void this.queue.flush();
      else this.connection.browserOnline();
      const open = this.openRef;
      if (open) void this.openBoard(open.teamId, open.boardId).catch(() => undefined);
    });
  }

  // ── changes from elsewhere ────────────────────────────────────────────────────────────────
  /**
   * A board event from realtime: `saved` / `deleted` apply only if newer; `refresh` reloads the
   * collection (or, without a collection, every collection of that board).
   */
  async applyRemote(event: RemoteEvent, context: { teamId?: number; boardId?: string } = {}): Promise<void> {
    if (event.event === 'refresh') {
      const teamId = context.teamId ?? this.openRef?.teamId;
      const boardId = (event.data as { board_id?: string } | null)?.board_id ?? context.boardId ?? this.openRef?.boardId;
      if (teamId === undefined || !boardId) return;
      const names = event.collection ? [event.collection] : collectionList.map((d) => d.name);
      for (const name of names) {
        if (!collectionByName(name)) continue;
        const c = this.collection(teamId, name, boardId);
        if (c.initialized) await c.refresh();
      }
      return;
    }
    const record = event.data as SyncRecord | null;
    await applyRemoteChanges(this.db, [{ collection: event.collection, op: event.event, record }], this.tombstones);
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────
  private scheduleProbe(wait: number): void {
    if (this.stopped || this.probeTimer !== null) return;
    this.probeTimer = this.opts.clock.setTimeout(() => {
      this.probeTimer = null;
      void this.probe(wait);
    }, wait);
  }

  /**
   * Connected by an HTTP answer while the realtime socket is still away (connection.unheard): a
   * network that goes again now is told by nothing (no socket to drop, maybe no request to fail),
   * so the offline banner would never show (#30: a second cut soon after a restore). The server is
   * asked every PROBE_MIN_MS until the socket is back; a request with no answer disconnects at
   * once (api.ts, onResult), and the disconnected probe takes over.
   */
  private scheduleLivenessProbe(): void {
    if (this.stopped || this.livenessTimer !== null) return;
    this.livenessTimer = this.opts.clock.setTimeout(() => {
      this.livenessTimer = null;
      if (this.stopped || !this.connection.unheard) return;
      void this.opts.http
        .request('get', '/api/app-vars', { skipRefresh: true })
        .catch(() => undefined)
        .finally(() => this.connection.unheard && this.scheduleLivenessProbe());
    }, PROBE_MIN_MS);
  }

  /** Any answer from the server counts like the browser saying "online" again. */
  private async probe(waited: number): Promise<void> {
    if (this.stopped || this.connection.online) return;
    try {
      await this.opts.http.request('get', '/api/app-vars', { skipRefresh: true });
      this.connection.browserOnline();
    } catch {
      this.scheduleProbe(Math.min(waited * 2, PROBE_MAX_MS));
    }
  }

  private onReconnect(): void {
    void this.retryOverflow();
    void this.queue.flush();
    void this.catchUp().catch(() => undefined);
  }

  private afterWrite(): void {
    void this.retryOverflow();
    void this.queue.kick().finally(() => this.queue.scheduleBroadcast());
  }

  private holdOverflow(write: () => Promise<unknown>): void {
    this.overflow.push(async () => {
      try {
        await write();
        return 'stored';
      } catch (error) {
        if (isQuotaError(error)) return 'held';
        // Not a storage problem (the record became invalid, the session ended): nothing more to
        // keep trying; the queue never held it, so the edit is dropped like any failed command.
        return 'stored';
      }
    });
    this.opts.events.emit('quota-exceeded', {
      message: 'The browser refused to store more data; unsaved changes are kept in memory and retried.',
      held: this.overflow.length,
    });
    this.scheduleOverflowRetry();
  }

  private scheduleOverflowRetry(): void {
    if (this.stopped || this.overflowTimer !== null) return;
    this.overflowTimer = this.opts.clock.setTimeout(() => {
      this.overflowTimer = null;
      void this.retryOverflow().then(() => {
        if (this.overflow.length) this.scheduleOverflowRetry();
      });
    }, OVERFLOW_RETRY_MS);
  }

  /**
   * Tries the writes the quota refused again, oldest first; the first still refused stops the
   * round (the rest stay held behind it, in order). Written ones reach the queue and are sent.
   */
  private retryOverflow(): Promise<void> {
    if (this.retryingOverflow) return this.retryingOverflow;
    if (this.overflow.length === 0) return Promise.resolve();
    const run = (async () => {
      let written = 0;
      while (this.overflow.length && !this.stopped) {
        if ((await this.overflow[0]!()) === 'held') break;
        this.overflow.shift();
        written++;
      }
      if (written) {
        this.opts.events.emit('storage-freed', { written });
        void this.queue.kick().finally(() => this.queue.scheduleBroadcast());
      }
    })();
    this.retryingOverflow = run.finally(() => {
      this.retryingOverflow = null;
    });
    return this.retryingOverflow;
  }

  /** How many edits wait in memory for space (quota). */
  get heldEdits(): number {
    return this.overflow.length;
  }

  private async saveInTx(def: CollectionDefinition, teamId: number, record: SyncRecord, options: WriteOptions): Promise<SyncRecord | null> {
    const t = this.db.strict;
    const stored = fromStored(await t.records.get([def.name, record.id]));
    // A save over a draft replaces the draft: its base is the copy the draft covered.
    const draft = await t.drafts.get([def.name, record.id]);
    const current = draft ? draft.previous : stored;
    if (draft) await t.drafts.delete([def.name, record.id]);
    if (this.preview) {
      const item = { ...record, row_version: (current?.row_version ?? 0) + 1 };
      await t.records.put(toStored(def.name, item));
      return item;
    }
    const tail = mergeable(await this.tailOf(def.name, record.id), options);
    const plan = planSave(current, record, tail);
    if (plan.kind === 'unchanged') {
      if (draft && current) await t.records.put(toStored(def.name, current));
      return current;
    }
    if (plan.kind === 'revert') {
      await t.failedRequests.delete(plan.drop.key);
      if (plan.restore) await t.records.put(toStored(def.name, plan.restore));
      else await t.records.delete([def.name, record.id]);
      return plan.restore;
    }
    await t.records.put(toStored(def.name, plan.item));
    if (plan.replaces) {
      await t.failedRequests.put({ ...plan.replaces, item: plan.item, error: this.queue.offlineError() });
    } else {
      await t.failedRequests.add(this.newRequest(def, teamId, record.id, 'put', plan.item, plan.old, String(plan.item.board_id), options));
    }
    return plan.item;
  }

  private newRequest(
    def: CollectionDefinition,
    teamId: number,
    id: string,
    method: QueuedRequest['method'],
    item: SyncRecord | null,
    old: SyncRecord | null,
    boardId: string | undefined,
    options: WriteOptions,
  ): QueuedRequest {
    return {
      key: this.opts.newId(),
      seq: ++this.seq,
      teamId,
      collection: def.name,
      id,
      method,
      route: `${def.route}/${encodeURIComponent(id)}`,
      channel: boardId ? boardChannel(teamId, boardId) : `private-team.${teamId}`,
      transaction: options.transaction ?? null,
      multiple: false,
      item,
      old,
      created_at: this.opts.clock.now(),
      attempts: 0,
      error: this.queue.offlineError(),
      reserved_at: null,
      batch_key: null,
    };
  }

  private async tailOf(collection: string, id: string): Promise<QueuedRequest | null> {
    const chain = await this.db.strict.failedRequests.where('[collection+id]').equals([collection, id]).sortBy('seq');
    return chain.length ? chain[chain.length - 1]! : null;
  }

  private strictTx<T>(fn: () => Promise<T>): Promise<T> {
    const t = this.db.strict;
    return t.transaction('rw', [t.records, t.failedRequests, t.drafts], fn);
  }

  /** Streams one index address into the replica (stream.ts): answers once its first page is stored. */
  private async loadIndex(collection: string, boardId: string, address: string): Promise<IndexAnswer> {
    const fetchPage: PageFetcher = async (after, limit) => {
      if (!this.connection.online) throw new OfflineError();
      const page = `${address}&limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
      const response = await this.opts.http.request<{ data: SyncRecord[]; cursor?: number; next?: string | null }>('get', page);
      if (!response.ok) throw new ApiRequestError(response.status, response.body as ApiErrorBody);
      const body = response.body;
      return { data: Array.isArray(body?.data) ? body.data : [], cursor: typeof body?.cursor === 'number' ? body.cursor : null, next: typeof body?.next === 'string' ? body.next : null };
    };
    // Items and values start with the head: the first screen of a position-sorted table.
    const fetchHead: HeadFetcher | undefined =
      collection === 'item' || collection === 'value'
        ? async (items) => {
            if (!this.connection.online) throw new OfflineError();
            const response = await this.opts.http.request<{ data: SyncRecord[]; cursor?: number; rest?: boolean }>('get', `${address}&head=${items}`);
            if (!response.ok) throw new ApiRequestError(response.status, response.body as ApiErrorBody);
            const body = response.body;
            return { data: Array.isArray(body?.data) ? body.data : [], cursor: typeof body?.cursor === 'number' ? body.cursor : null, rest: body?.rest === true };
          }
        : undefined;
    const restAfter = this.openingGates.get(boardId);
    const streamed = await streamIndex({ db: this.db, collection, boardId, fetchPage, fetchHead, restAfter, tombstones: () => this.tombstones });
    return { data: streamed.first.data, cursor: streamed.first.cursor, done: streamed.done, complete: streamed.complete };
  }

  private definition(collection: string): CollectionDefinition {
    const def = collectionByName(collection);
    if (!def) throw new Error(`Unknown collection: ${collection}`);
    return def;
  }

  private teamFor(record: SyncRecord, options: WriteOptions): number {
    const teamId = options.teamId ?? (typeof record.team_id === 'number' ? record.team_id : undefined) ?? this.openRef?.teamId;
    if (teamId === undefined) throw new Error('No workspace for this record: open a board or pass teamId.');
    return teamId;
  }
}

/**
 * The queued request a new write may merge into (merge.ts canCoalesce), or null. Only single
 * writes merge: a request of a transaction must go out with the rest of its action, and a restore
 * carries no record to merge into.
 */
function mergeable(tail: QueuedRequest | null, options: WriteOptions): QueuedRequest | null {
  if (!tail || tail.transaction || options.transaction || tail.method === 'restore') return null;
  return tail;
}

function checkRecord(record: SyncRecord): void {
  if (!record || typeof record.id !== 'string' || !record.id) throw new Error('A record needs a string id.');
  if (typeof record.row_version !== 'number') throw new Error('A record needs a row_version (0 for a new record).');
}
