/**
 * Shapes the engine keeps in IndexedDB and passes around. Pure types: no Dexie, no DOM.
 * See DESIGN.md §3 and shell.md §3 (request record, failed request, response, token record).
 */
import type { ConflictRecord } from '../schema/sync-conflicts';

/** Any synced record: an id, a conflict counter and whatever fields its collection defines. */
export interface SyncRecord {
  id: string;
  row_version: number;
  created_at?: string;
  updated_at?: string | null;
  board_id?: string;
  [field: string]: unknown;
}

/** A record as the `records` table stores it: the collection name beside its fields. */
export type StoredRecord = SyncRecord & { collection: string };

/** 'restore' brings a record back from the server's trash (POST {route}/restore; an undone delete). */
export type RequestMethod = 'put' | 'delete' | 'restore';

/**
 * The request record of shell.md §3: the item to send, its route, method, transaction batch,
 * channel, save-multiple flag and the old value it replaces. Its key is id plus channel.
 * Every request the user makes is kept (in `failedRequests`) until the server has answered it.
 */
export interface QueuedRequest {
  /** Unique per request; also its X-Idempotency-Key, unchanged across retries. */
  key: string;
  /** Order of creation: requests of one record are sent strictly in this order. */
  seq: number;
  teamId: number;
  collection: string;
  id: string;
  method: RequestMethod;
  /** Relative to /api/{teamId}/: "items/{id}". */
  route: string;
  channel: string;
  transaction: string | null;
  multiple: boolean;
  /** The record as it should be after the request (absent for a delete). */
  item: SyncRecord | null;
  /** The local copy the request replaces (null for a new record). */
  old: SyncRecord | null;
  created_at: number;
  /** How many times it went out; a request that went out is never merged with a later edit. */
  attempts: number;
  /** Set when an attempt failed and the request waits for a retry. */
  error: RequestError | null;
  /** When a sender reserved it; others leave it alone for FAILED_REQUEST_LOCK_MS. */
  reserved_at: number | null;
  /** The batch call it last went out in: a retry of that call reuses its idempotency key. */
  batch_key: string | null;
}

export interface RequestError {
  kind: 'offline' | 'network' | 'server' | 'session';
  message: string;
  status?: number;
  at: number;
}

/** A draft: an edit shown locally but not saved yet. `previous` is what discard restores. */
export interface DraftEntry {
  collection: string;
  id: string;
  draft: SyncRecord;
  previous: SyncRecord | null;
  time: number;
}

/**
 * A conflict row of the `conflicts` table (issue 30): one field both sides changed, or a whole
 * record (a delete on one side; rows from before field merge). The shape lives in
 * schema/sync-conflicts.ts (ConflictRecord) so the app can read it without the worker.
 */
export type ConflictEntry = ConflictRecord;

/**
 * An edit the server refused for good (4xx other than 401/409, a delete's 404): the local copy was
 * restored and the edit moved whole into `refusedEdits`, one row per record, where the user can
 * retry, copy or discard it (decision 0094). Nothing of what the user typed is dropped.
 */
export interface RefusedEdit {
  collection: string;
  id: string;
  teamId: number;
  /** The method of the user's latest edit of the record ('delete' when that was a delete). */
  method: RequestMethod;
  route: string;
  /** What the user last meant the record to be (the newest request of its chain); null for a delete. */
  item: SyncRecord | null;
  /** The copy the first refused request replaced: what was restored locally (null: a new record). */
  old: SyncRecord | null;
  /** The server's answer to the refused request. */
  status: number;
  message: string;
  /** When the server refused it, and when the user made the first of these edits. */
  refused_at: number;
  created_at: number;
  /** Every refused request of this record, as it was queued (keys, order, batches). */
  requests: QueuedRequest[];
}

/** A request the server refused for good (4xx other than 409): the copy was restored. */
export interface RejectedRequest {
  request: QueuedRequest;
  status: number;
  message: string;
}

/** The access token record of shell.md §3. */
export interface TokenRecord {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_expires_in?: number;
  created_at?: string;
}

/** A board record event from realtime (or a delta entry), as the engine applies it. */
export interface RemoteEvent {
  event: 'saved' | 'deleted' | 'refresh';
  collection: string;
  /** The record for saved/deleted; for refresh, optional {board_id}. */
  data: SyncRecord | { board_id?: string } | null;
}
