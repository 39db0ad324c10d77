/**
 * The sync engine run inside a tab, for anonymous visitors of public boards: the worker holds no
 * anonymous sessions, so a visitor's tab runs the same engine, Dexie schema, queue and mutators
 * itself (docs/boards.md, "Engine in the tab"). It knows nothing of the tab's session: whoever
 * creates it hands it a `token()` getter (none for a visitor), and the board password header
 * through `setPassword`. What it lacks is the one-writer-per-browser guarantee across tabs.
 *
 * No realtime here: a visitor cannot subscribe to channels (workspace.md §6); it catches up board
 * by board through /changes (`readsPerBoard`).
 *
 * Preview (pretend) tabs run this engine too (decision 0280): with `preview` set it opens its own
 * database (the user's replica is only read, to seed each board), applies edits there only (the
 * engine's preview mode queues nothing), and its transport lets only GET out: any other method is
 * answered here, unsent.
 */
import Dexie from 'dexie';
import { nanoid } from 'nanoid';
import { collectionList } from '../schema/collections';
import { Messages } from '../schema/messages';
import { systemClock, type Clock } from './clock';
import { dbNameFor, openUserDb, type IdbFactories, type UserDb } from './db';
import { SyncEngine, type ApplyOptions, type OpenBoardOptions, type WriteOptions } from './engine';
import { Emitter, type EngineEvents, type EventName } from './events';
import { HttpClient, type FetchLike } from './http';
import type { ApplyResult, MutatorArgs, MutatorName } from './mutators';
import { OfflineError } from './queue';
import type { SyncRecord, TokenRecord } from './types';

export interface InTabEngineOptions {
  /** The signed-in user, or null for an anonymous visitor. */
  userId: number | null;
  /** The session's current token, read before every call (null: none). */
  token: () => TokenRecord | null;
  baseUrl?: string;
  fetch?: FetchLike;
  clock?: Clock;
  online?: boolean;
  idb?: IdbFactories;
  /**
   * Preview (pretend) mode: the engine's database is `cairn-{preview.database}` instead of the
   * user's, edits stay in it, and nothing but GET requests leaves the tab.
   */
  preview?: {
    database: string;
    /**
     * The user whose replica (`cairn-{seedFrom}`) seeds each board before it is loaded: the preview
     * starts from what this device shows (the user's unsaved edits too) and opens offline. Read only.
     */
    seedFrom?: number | string | null;
  };
}

/** The error a preview engine's transport throws for a write it will not send. */
export class PreviewWriteRefused extends Error {
  constructor(readonly method: string) {
    super(`Preview mode sends no ${method} request.`);
    this.name = 'PreviewWriteRefused';
  }
}

/** The answer a preview engine gives, unsent, to an online-only write (schema/messages.ts previewMode). */
export const PREVIEW_REFUSAL = { status: 403, ok: false, body: { message: Messages.previewMode, type: 'preview' } } as const;

/** The same commands as the worker's Comlink API, for the one board backend (src/boards/store). */
export interface InTabEngine {
  readonly engine: SyncEngine;
  apply<N extends MutatorName>(name: N, args: MutatorArgs<N>, options?: ApplyOptions): Promise<ApplyResult>;
  save(collection: string, record: SyncRecord, options?: WriteOptions): Promise<SyncRecord | null>;
  delete(collection: string, id: string, options?: WriteOptions): Promise<void>;
  openBoard(teamId: number, boardId: string, options?: OpenBoardOptions): Promise<void>;
  /**
   * Preview only: copies the board's records from the user's replica into the preview database,
   * once per board, keeping what the preview already holds. Nothing without `preview.seedFrom`.
   */
  seedBoard(boardId: string): Promise<void>;
  /** An online-only call through the engine's client; HTTP errors are answers, offline throws. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; ok: boolean; body: unknown }>;
  setPassword(header: string | null): void;
  reportOnline(online: boolean): void;
  subscribe(listener: <K extends EventName>(event: K, payload: EngineEvents[K]) => void): () => void;
  stop(): void;
}

export async function createInTabEngine(options: InTabEngineOptions): Promise<InTabEngine> {
  const clock = options.clock ?? systemClock;
  const events = new Emitter();
  const preview = options.preview ?? null;
  const db = await openUserDb(preview ? preview.database : (options.userId ?? 'guest'), options.idb);
  const anyFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  // A preview tab reads from the server but never writes to it: the last gate before the network.
  const baseFetch: FetchLike = preview
    ? (input, init) => ((init.method ?? 'GET').toUpperCase() === 'GET' ? anyFetch(input, init) : Promise.reject(new PreviewWriteRefused(init.method ?? '')))
    : anyFetch;
  // Every call carries the session's current token (the tab refreshes it; we only read it).
  const authorizedFetch: FetchLike = (input, init) => {
    const headers = new Headers(init.headers);
    const token = options.token();
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token.access_token}`);
    return baseFetch(input, { ...init, headers });
  };
  let engine: SyncEngine | null = null;
  const http = new HttpClient({
    baseUrl: options.baseUrl ?? '',
    fetch: authorizedFetch,
    clock,
    events,
    newId: () => nanoid(),
    swUuid: 'tab-' + nanoid(8),
    onResult: ({ method, ok, networkError }) => {
      // A write the preview gate kept in the tab is no sign of a dead network.
      if (networkError && preview && method.toLowerCase() !== 'get') return;
      if (networkError) engine?.connection.networkFailure();
      else if (ok) engine?.connection.requestSucceeded(method);
    },
  });
  /** The engine sends only with a session: hand it the current token before each command. */
  const syncToken = () => {
    const token = options.token();
    if (token?.access_token !== http.currentToken()?.access_token) http.setToken(token ?? null);
  };
  syncToken();
  engine = await SyncEngine.create({
    db,
    http,
    clock,
    random: Math.random,
    events,
    newId: () => nanoid(),
    initiallyOnline: options.online ?? true,
    // A visitor is in no workspace: it catches up board by board.
    readsPerBoard: () => options.userId === null,
  });
  const sync = engine;
  if (preview) sync.setPreview(true);
  const seeded = new Map<string, Promise<void>>();
  const seedBoard = (boardId: string): Promise<void> => {
    if (!preview || preview.seedFrom === undefined || preview.seedFrom === null) return Promise.resolve();
    let done = seeded.get(boardId);
    if (!done) {
      done = copyBoard(dbNameFor(preview.seedFrom), db, boardId, options.idb).catch(() => undefined);
      seeded.set(boardId, done);
    }
    return done;
  };
  return {
    engine: sync,
    apply: (name, args, applyOptions) => (syncToken(), sync.apply(name, args, applyOptions ?? {})),
    save: (collection, record, writeOptions) => (syncToken(), sync.save(collection, record, writeOptions ?? {})),
    delete: (collection, id, writeOptions) => (syncToken(), sync.delete(collection, id, writeOptions ?? {})),
    async openBoard(teamId, boardId, openOptions) {
      syncToken();
      await seedBoard(boardId);
      return sync.openBoard(teamId, boardId, openOptions);
    },
    seedBoard,
    async request(method, path, body) {
      syncToken();
      if (preview && method.toLowerCase() !== 'get') return { ...PREVIEW_REFUSAL, body: { ...PREVIEW_REFUSAL.body } };
      if (!sync.connection.online) throw new OfflineError();
      const response = await http.request(method, path, body === undefined ? {} : { body });
      return { status: response.status, ok: response.ok, body: response.body };
    },
    setPassword: (header) => http.setPassword(header),
    reportOnline: (online) => (online ? sync.connection.browserOnline() : sync.connection.browserOffline()),
    subscribe: (listener) => events.on(listener as never),
    stop() {
      sync.stop();
      db.close();
    },
  };
}

/**
 * Copies one board's records from another database of this browser (the user's replica) into
 * `into`, leaving records `into` already holds. The source is opened without a schema (as it is)
 * and never created: a missing replica copies nothing.
 */
async function copyBoard(from: string, into: UserDb, boardId: string, idb?: IdbFactories): Promise<void> {
  const source = new Dexie(from, { ...(idb ?? {}) });
  try {
    await source.open();
  } catch {
    return; // no replica on this device (Dexie's NoSuchDatabaseError) or one it cannot read
  }
  try {
    const records = source.table('records');
    const rows = (await Promise.all(collectionList.map((def) => records.where('[collection+board_id]').equals([def.name, boardId]).toArray()))).flat();
    if (rows.length === 0) return;
    const t = into.strict;
    await t.transaction('rw', t.records, async () => {
      const held = await t.records.bulkGet(rows.map((row) => [row.collection, row.id] as [string, string]));
      await t.records.bulkPut(rows.filter((_, i) => !held[i]));
    });
  } finally {
    source.close();
  }
}
