/**
 * The worker's command surface, exposed to tabs through Comlink (shared-worker.ts, or the
 * dedicated-worker fallback through leader.ts). `src/` sends every mutation through it and reads
 * data itself from the read-only Dexie database (client.ts → openReadonlyDb).
 *
 * One SyncRuntime per worker. It holds at most one signed-in session: that user's database,
 * HTTP client and engine. The token lives only here (memory) and in that user's `meta` table,
 * never in localStorage. Session expiry forgets the token but keeps every queued request, draft
 * and conflict; they replay after the next sign-in of the same user.
 */
import { Messages } from '../schema/messages';
import type { Clock, Random } from './clock';
import { CairnDexie, DirectoryDexie, dbNameFor, openUserDb, type IdbFactories, type UserDb } from './db';
import type { RefusedEditView } from './refused';
import { Emitter, type EngineEvents, type EventName } from './events';
import { SyncEngine, type ApplyOptions, type OpenBoardOptions, type WriteOptions } from './engine';
import type { ApplyResult, MutatorArgs, MutatorName } from './mutators';
import { HttpClient, type FetchLike } from './http';
import { WorkspaceMembership } from './membership';
import { WorkerNotifications, countMemoryIn } from './notifications';
import { validateTokenRecord } from './token';
import { OfflineError } from './queue';
import type { ConflictEntry, DraftEntry, SyncRecord, TokenRecord } from './types';
import type { ConflictChoice, InboxEntry } from '../schema/sync-conflicts';
import type { ConnectionStatus } from './connection';
import type { FailedRequestSummary } from './events';
import type { UnsyncedExport } from './unsynced-export';

export type SyncListener = <K extends EventName>(event: K, payload: EngineEvents[K]) => void;

/** What tabs may call. Every method is async across the worker boundary. */
export interface SyncWorkerApi {
  signIn(tokenRecord: TokenRecord, userId: number): Promise<void>;
  /**
   * Forgets the token. Unsynced work stays for the same user's next sign-in, unless
   * `removeDataOf` names the user: then that user's whole database on this device (records,
   * indexes, cursors, queue, drafts, conflicts, refused edits, meta) is deleted (decision 0094).
   */
  signOut(options?: SignOutOptions): Promise<void>;
  currentUser(): Promise<number | null>;
  /** With `firstScreen`, answers once what the board's first screen draws is stored (engine.ts). */
  openBoard(teamId: number, boardId: string, options?: OpenBoardOptions): Promise<void>;
  refresh(teamId: number, collection: string, boardId: string | null): Promise<void>;
  /** One user action: a named mutator, one transaction, one request (decision 0100). */
  apply<N extends MutatorName>(name: N, args: MutatorArgs<N>, options?: ApplyOptions): Promise<ApplyResult>;
  save(collection: string, record: SyncRecord, options?: WriteOptions): Promise<SyncRecord | null>;
  delete(collection: string, id: string, options?: WriteOptions): Promise<void>;
  addDraft(collection: string, record: SyncRecord): Promise<void>;
  discardDraft(collection: string, id: string): Promise<void>;
  flushDraft(collection: string, id: string, options?: WriteOptions): Promise<SyncRecord | null>;
  drafts(): Promise<DraftEntry[]>;
  conflicts(): Promise<ConflictEntry[]>;
  /** Same as resolveConflict(seq, 'theirs'). */
  dismissConflict(seq: number): Promise<void>;
  /** The conflict inbox (issue 30): conflict rows then refused edits, each with item and field names. */
  conflictInbox(): Promise<InboxEntry[]>;
  /** 'mine' re-applies my value as a new edit over the current copy; 'theirs' drops the row. Every tab gets the 'conflicts' event. */
  resolveConflict(seq: number, choice: ConflictChoice): Promise<'resolved' | 'gone' | 'missing'>;
  /** The unsynced work as one file's content (issue #30 part 7): queue, drafts, conflicts, refused edits, schema; no token. */
  exportUnsynced(): Promise<UnsyncedExport>;
  failedRequests(): Promise<FailedRequestSummary[]>;
  /** Edits the server refused for good, kept whole (decision 0094): list, retry, discard. */
  notSaved(): Promise<RefusedEditView[]>;
  retryNotSaved(collection: string, id: string): Promise<void>;
  discardNotSaved(collection: string, id: string): Promise<void>;
  retryFailed(): Promise<void>;
  setQueueing(on: boolean): Promise<void>;
  flush(): Promise<void>;
  setPassword(password: string | null): Promise<void>;
  connectionStatus(): Promise<ConnectionStatus>;
  /**
   * An online-only call through the worker's session (tabs never hold the token): trash,
   * restore, members… Rejects with the Offline error while offline; HTTP errors are answers.
   */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; ok: boolean; body: unknown }>;
  /** A tab relays the browser's online/offline events (workers get them too; this is a backup). */
  reportOnline(online: boolean): Promise<void>;
  /**
   * A tab's own call reached the server (true) or got no answer at all (false): the worker's
   * connection machine, the one owner of online/offline, takes it as its own evidence and tells
   * every tab (src/connectivity; decision 0103, "One owner of connectivity").
   */
  reportServerReach(reached: boolean): Promise<void>;
  /** The unread notification count the worker keeps live (null while unknown or signed out; notifications.ts). */
  notificationCount(): Promise<number | null>;
  /** Marks the user's own notifications read (or unread); false when the server refused or was unreachable. */
  markNotifications(ids: (string | number)[], read: boolean): Promise<boolean>;
  markAllNotificationsRead(): Promise<boolean>;
  /** Events to every tab: conflict, rejected, not-saved, quota-exceeded, storage-freed, update-required, session-expired, connection, failed-requests, syncing, loaded. */
  subscribe(listener: SyncListener): Promise<number>;
  unsubscribe(id: number): Promise<void>;
}

export interface SignOutOptions {
  /** Delete this user's copy on this device too (the id guards against deleting another's). */
  removeDataOf?: number;
}

export interface RuntimeOptions {
  baseUrl: string;
  fetch: FetchLike;
  clock: Clock;
  random: Random;
  newId: () => string;
  swUuid: string;
  idb?: IdbFactories;
  online?: () => boolean;
}

/** A live session, for in-worker parts (the realtime client attaches here). */
export interface Session {
  userId: number;
  db: UserDb;
  http: HttpClient;
  engine: SyncEngine;
  /** The unread count and the mark calls; worker-realtime.ts hands it the user channel's events. */
  notifications: WorkerNotifications;
}

export class SyncRuntime implements SyncWorkerApi {
  readonly events = new Emitter();
  private session: Session | null = null;
  private listeners = new Map<number, () => void>();
  private nextListener = 1;
  private sessionHooks = new Set<(session: Session | null) => void>();
  private directory: DirectoryDexie;
  private password: string | null = null;
  private ready: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: RuntimeOptions) {
    this.directory = new DirectoryDexie(opts.idb);
  }

  /** In-worker: be told when a session starts or ends (the realtime client subscribes here). */
  onSession(hook: (session: Session | null) => void): () => void {
    this.sessionHooks.add(hook);
    if (this.session) hook(this.session);
    return () => this.sessionHooks.delete(hook);
  }

  current(): Session | null {
    return this.session;
  }

  /** After a worker restart: reopen the last signed-in user's session if its token is still stored. */
  resume(): Promise<boolean> {
    const run = this.ready.then(() => (this.session ? true : this.resumeNow()));
    this.ready = run.catch(() => false);
    return run;
  }

  private async resumeNow(): Promise<boolean> {
    const entry = await this.directory.current.get('current');
    if (!entry) return false;
    const userId = Number(entry.userId);
    const db = await openUserDb(userId, this.opts.idb);
    const stored = await db.relaxed.meta.get('session');
    if (!stored?.value) {
      db.close();
      return false;
    }
    await this.start(userId, db, stored.value as TokenRecord, stored.receivedAt);
    return true;
  }

  async signIn(tokenRecord: TokenRecord, userId: number): Promise<void> {
    const record = validateTokenRecord(tokenRecord);
    await this.ready;
    if (this.session && this.session.userId === userId) {
      this.session.http.setToken(record);
      await this.storeToken(this.session.db, record);
      await this.session.engine.flush();
      return;
    }
    await this.endSession();
    const db = await openUserDb(userId, this.opts.idb);
    await this.directory.current.put({ key: 'current', userId });
    await this.storeToken(db, record);
    await this.start(userId, db, record);
    await this.session!.engine.flush();
  }

  /**
   * Signing out forgets the token; unsynced work stays in that user's database for next time.
   * With `removeDataOf`, that user's database is deleted as a whole: nothing of theirs stays.
   */
  async signOut(options: SignOutOptions = {}): Promise<void> {
    await this.ready;
    if (this.session) await this.session.db.strict.meta.delete('session');
    await this.directory.current.delete('current');
    await this.endSession();
    if (options.removeDataOf !== undefined) await this.removeUserData(options.removeDataOf);
  }

  /**
   * Deletes a user's database. Tabs' read-only handles close themselves on the version change
   * (Dexie's default), so the delete is not held up by an open tab.
   */
  private async removeUserData(userId: number): Promise<void> {
    await new CairnDexie(dbNameFor(userId), 'strict', this.opts.idb).delete();
  }

  async currentUser(): Promise<number | null> {
    await this.ready;
    return this.session?.userId ?? null;
  }

  async openBoard(teamId: number, boardId: string, options?: OpenBoardOptions): Promise<void> {
    await (await this.engine()).openBoard(teamId, boardId, options);
  }

  async refresh(teamId: number, collection: string, boardId: string | null): Promise<void> {
    await (await this.engine()).refresh(teamId, collection, boardId);
  }

  async apply<N extends MutatorName>(name: N, args: MutatorArgs<N>, options?: ApplyOptions): Promise<ApplyResult> {
    return (await this.engine()).apply(name, args, options);
  }

  async save(collection: string, record: SyncRecord, options?: WriteOptions) {
    return (await this.engine()).save(collection, record, options);
  }

  async delete(collection: string, id: string, options?: WriteOptions) {
    return (await this.engine()).delete(collection, id, options);
  }

  async addDraft(collection: string, record: SyncRecord) {
    return (await this.engine()).addDraft(collection, record);
  }

  async discardDraft(collection: string, id: string) {
    return (await this.engine()).discardDraft(collection, id);
  }

  async flushDraft(collection: string, id: string, options?: WriteOptions) {
    return (await this.engine()).flushDraft(collection, id, options);
  }

  async drafts() {
    return (await this.engine()).listDrafts();
  }

  async conflicts(): Promise<ConflictEntry[]> {
    return (await this.engine()).db.relaxed.conflicts.toArray();
  }

  async dismissConflict(seq: number): Promise<void> {
    await (await this.engine()).resolveConflict(seq, 'theirs');
  }

  async conflictInbox(): Promise<InboxEntry[]> {
    return (await this.engine()).conflictInbox();
  }

  async resolveConflict(seq: number, choice: ConflictChoice): Promise<'resolved' | 'gone' | 'missing'> {
    return (await this.engine()).resolveConflict(seq, choice);
  }

  async exportUnsynced(): Promise<UnsyncedExport> {
    const engine = await this.engine();
    return engine.exportUnsynced(this.session!.userId);
  }

  async failedRequests(): Promise<FailedRequestSummary[]> {
    const rows = await (await this.engine()).db.relaxed.failedRequests.orderBy('seq').toArray();
    return rows.map((r) => ({ key: r.key, collection: r.collection, id: r.id, method: r.method, error: r.error?.message ?? null, reserved_at: r.reserved_at }));
  }

  async notSaved(): Promise<RefusedEditView[]> {
    return (await this.engine()).refusedEdits();
  }

  async retryNotSaved(collection: string, id: string): Promise<void> {
    await (await this.engine()).retryRefused(collection, id);
  }

  async discardNotSaved(collection: string, id: string): Promise<void> {
    await (await this.engine()).discardRefused(collection, id);
  }

  async retryFailed() {
    return (await this.engine()).retryFailed();
  }

  async setQueueing(on: boolean) {
    return (await this.engine()).setQueueing(on);
  }

  async flush() {
    return (await this.engine()).flush();
  }

  async setPassword(password: string | null): Promise<void> {
    this.password = password;
    this.session?.http.setPassword(password);
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; ok: boolean; body: unknown }> {
    const engine = await this.engine();
    if (!engine.connection.online) throw new OfflineError();
    const response = await this.session!.http.request(method, path, body === undefined ? {} : { body });
    return { status: response.status, ok: response.ok, body: response.body };
  }

  async connectionStatus(): Promise<ConnectionStatus> {
    if (this.session) return this.session.engine.connection.status;
    return this.opts.online?.() === false ? 'disconnected' : 'connected';
  }

  async reportOnline(online: boolean): Promise<void> {
    const connection = this.session?.engine.connection;
    if (!connection) return;
    if (online) connection.browserOnline();
    else connection.browserOffline();
  }

  async reportServerReach(reached: boolean): Promise<void> {
    const connection = this.session?.engine.connection;
    if (!connection) return;
    if (reached) connection.browserOnline();
    else connection.networkFailure();
  }

  async notificationCount(): Promise<number | null> {
    await this.ready;
    return this.session?.notifications.unread ?? null;
  }

  async markNotifications(ids: (string | number)[], read: boolean): Promise<boolean> {
    await this.engine();
    return this.session!.notifications.mark(ids, read);
  }

  async markAllNotificationsRead(): Promise<boolean> {
    await this.engine();
    return this.session!.notifications.markAllRead();
  }

  async subscribe(listener: SyncListener): Promise<number> {
    const id = this.nextListener++;
    const off = this.events.on((event, payload) => {
      // A listener of a closed tab rejects: drop it rather than keep failing.
      Promise.resolve(listener(event, payload as never)).catch(() => this.unsubscribe(id));
    });
    this.listeners.set(id, off);
    return id;
  }

  async unsubscribe(id: number): Promise<void> {
    this.listeners.get(id)?.();
    this.listeners.delete(id);
  }

  /** The signed-in engine, once a resume in progress is over; "unauthorized" without a session. */
  private async engine(): Promise<SyncEngine> {
    await this.ready;
    if (!this.session) throw new Error(Messages.unauthorized);
    return this.session.engine;
  }

  private async storeToken(db: UserDb, record: TokenRecord | null): Promise<void> {
    if (record) await db.strict.meta.put({ key: 'session', value: record, receivedAt: this.opts.clock.now() });
    else await db.strict.meta.delete('session');
  }

  private async start(userId: number, db: UserDb, token: TokenRecord, receivedAt?: number): Promise<void> {
    let engine: SyncEngine | null = null;
    const http = new HttpClient({
      baseUrl: this.opts.baseUrl,
      fetch: this.opts.fetch,
      clock: this.opts.clock,
      events: this.events,
      newId: this.opts.newId,
      swUuid: this.opts.swUuid,
      onToken: (record) => this.storeToken(db, record),
      onResult: ({ method, ok, networkError }) => {
        if (networkError) engine?.connection.networkFailure();
        else if (ok) engine?.connection.requestSucceeded(method);
      },
    });
    http.setToken(token, receivedAt);
    http.setPassword(this.password);
    const membership = new WorkspaceMembership(http, this.opts.clock);
    engine = await SyncEngine.create({
      db,
      http,
      clock: this.opts.clock,
      random: this.opts.random,
      events: this.events,
      newId: this.opts.newId,
      initiallyOnline: this.opts.online?.() ?? true,
      readsPerBoard: (teamId) => membership.isOutside(teamId),
    });
    const notifications = new WorkerNotifications({ http, events: this.events, clock: this.opts.clock, memory: countMemoryIn(db) });
    this.session = { userId, db, http, engine, notifications };
    for (const hook of this.sessionHooks) hook(this.session);
    void notifications.refresh();
  }

  private async endSession(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.session = null;
    session.notifications.stop();
    session.engine.stop();
    session.db.close();
    for (const hook of this.sessionHooks) hook(null);
  }
}
