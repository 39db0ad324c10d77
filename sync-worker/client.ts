/**
 * What `src/` imports: a connection to the sync worker (SharedWorker, or a dedicated worker per
 * tab with a leader when SharedWorker is missing) and the read-only database for useLiveQuery.
 * Screens never write to the database and never fetch synced data: they call the worker.
 */
import * as Comlink from 'comlink';
import type { SyncListener, SyncWorkerApi } from './api';

export type { SyncWorkerApi, SyncListener, SignOutOptions } from './api';
export type { RefusedEditView, RefusedLabel } from './refused';
export { refusedEditText } from './refused';
export type { EngineEvents, EventName, FailedRequestSummary } from './events';
export type { UnsyncedExport } from './unsynced-export';
export type { SyncRecord, StoredRecord, ConflictEntry, DraftEntry, TokenRecord } from './types';
// The conflict inbox (issue 30, decision 0345): row shapes, the per-reason words, the change event.
export type { ConflictRecord, ConflictKind, ConflictChoice, ConflictsChanged, InboxEntry, InboxLabel, NamedConflict, RefusedReason } from '../schema/sync-conflicts';
export { REFUSED_REASON_TEXT, refusedReasonOf } from '../schema/sync-conflicts';
export type { CairnDexie } from './db';
export { dbNameFor } from './db-name';

/**
 * The tab's read-only handle on the user's replica (for useLiveQuery), loaded on first use: a static
 * re-export of ./db put Dexie and the collection registry's zod schemas in the app shell's first
 * load (decision 0275), though only board screens read the replica.
 */
export async function loadReadonlyDb(userId: number | string): Promise<import('./db').CairnDexie> {
  const { openReadonlyDb } = await import('./db');
  return openReadonlyDb(userId);
}
export type { ApplyResult, MutatorArgs, MutatorName } from './mutators';
// Undo history is kept by the tab per user action; its steps are inverse actions (decision 0100).
export { UndoHistory, noteUndone, type HistoryStep } from './undo';
export type { WriteOptions } from './engine';
// Anonymous visitors of public boards run the engine in the tab (the worker holds no anonymous sessions).
export type { InTabEngine, InTabEngineOptions } from './in-tab-engine';
export type { NotificationRecord, NotificationsEvent } from './notifications';

export interface SyncConnection {
  api: Comlink.Remote<SyncWorkerApi>;
  kind: 'shared' | 'dedicated';
  /** Subscribes to the worker's events; returns the unsubscribe function. */
  subscribe(listener: SyncListener): Promise<() => Promise<void>>;
}

export function connectSyncWorker(): SyncConnection {
  let api: Comlink.Remote<SyncWorkerApi>;
  let kind: SyncConnection['kind'];
  if (typeof SharedWorker !== 'undefined') {
    const worker = new SharedWorker(new URL('./shared-worker.ts', import.meta.url), { type: 'module', name: 'sync' });
    worker.port.start();
    api = Comlink.wrap<SyncWorkerApi>(worker.port);
    kind = 'shared';
  } else {
    const worker = new Worker(new URL('./dedicated-worker.ts', import.meta.url), { type: 'module', name: 'sync' });
    api = Comlink.wrap<SyncWorkerApi>(worker);
    kind = 'dedicated';
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => void api.reportOnline(true));
    window.addEventListener('offline', () => void api.reportOnline(false));
  }
  return {
    api,
    kind,
    async subscribe(listener) {
      const id = await api.subscribe(Comlink.proxy(listener) as never);
      return () => api.unsubscribe(id);
    },
  };
}

/**
 * The guest engine (public boards), loaded when a guest opens one: a static re-export here made
 * the whole engine (queue, mutators, schemas) part of the app shell's first load, since importing
 * this module evaluates what it re-exports.
 */
export async function createInTabEngine(options: import('./in-tab-engine').InTabEngineOptions): Promise<import('./in-tab-engine').InTabEngine> {
  const { createInTabEngine: create } = await import('./in-tab-engine');
  return create(options);
}
