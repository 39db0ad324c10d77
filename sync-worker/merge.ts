/**
 * The record rules of shell.md §4 / workspace.md §4, in one pure module (no Dexie, no I/O):
 *
 * - a newer row_version wins when copies meet;
 * - a save applies locally at once and raises row_version by one;
 * - a save the server refuses with 409 becomes a conflict (local + remote) and the remote is adopted;
 * - any other refusal restores the previous copy, or removes a record that was new;
 * - a successful delete removes the record;
 * - saved/deleted events from elsewhere apply only if newer;
 * - a request counts as changed (shell.md §3) when its item is absent but old exists, when there
 *   is no old, or when the two differ ignoring the server's stamps; unchanged saves are not sent.
 *
 * The engine asks these functions what to do and then does it in one Dexie transaction.
 */
import type { QueuedRequest, SyncRecord } from './types';
import { sameFields, sameValue } from '../schema/same-value';
import { SERVER_STAMPED_FIELDS } from '../schema/server-stamps';

/**
 * Ignored when comparing two copies: the server's stamps (schema/server-stamps.ts; our requests
 * carry the raised row_version, which is not an edit) and `collection`, the local table's tag.
 */
const IGNORED_IN_REQUEST: ReadonlySet<string> = new Set([...SERVER_STAMPED_FIELDS, 'collection']);

/** True when two copies differ in anything but the server's stamps (JSON semantics: null = missing). */
export function recordsDiffer(a: SyncRecord, b: SyncRecord): boolean {
  return !sameFields(a, b, IGNORED_IN_REQUEST);
}

/** True when `stored` has every field of `sent` (the server may add fields of its own). */
export function holdsFields(stored: SyncRecord, sent: SyncRecord): boolean {
  for (const key of Object.keys(sent)) {
    if (IGNORED_IN_REQUEST.has(key) || sent[key] === undefined) continue;
    if (!sameValue(stored[key], sent[key])) return false;
  }
  return true;
}

/** shell.md §3: does this request change anything? */
export function requestChanged(req: { item: SyncRecord | null; old: SyncRecord | null }): boolean {
  if (!req.item) return req.old !== null;
  if (!req.old) return true;
  return recordsDiffer(req.item, req.old);
}

/** Newer row_version wins; a missing local copy always loses. */
export function isNewer(incoming: SyncRecord, local: SyncRecord | null | undefined): boolean {
  return !local || incoming.row_version > local.row_version;
}

/** Which of two copies to keep when they meet (ties keep the local one). */
export function newerOf(local: SyncRecord | null | undefined, incoming: SyncRecord): SyncRecord {
  return isNewer(incoming, local) ? incoming : (local as SyncRecord);
}

/** A pending request the next edit of the same record may replace: it never went out. */
export function canCoalesce(tail: QueuedRequest | null | undefined): tail is QueuedRequest {
  return !!tail && tail.attempts === 0 && tail.reserved_at === null && tail.method !== 'restore';
}

export type SavePlan =
  /** Nothing changed: send nothing, touch nothing. */
  | { kind: 'unchanged' }
  /** The edit undid a queued, unsent request: drop it and put `restore` back. */
  | { kind: 'revert'; drop: QueuedRequest; restore: SyncRecord | null }
  /** Apply `item` locally and queue it (replacing `replaces` when set). */
  | { kind: 'send'; item: SyncRecord; old: SyncRecord | null; replaces: QueuedRequest | null };

/**
 * Plans a save of `incoming` over the local copy `current`. `tail` is the last pending request
 * of the same record, if any. A new edit merges into a tail that never went out (same old copy,
 * same row_version); otherwise it raises the current row_version by one.
 */
export function planSave(current: SyncRecord | null, incoming: SyncRecord, tail: QueuedRequest | null): SavePlan {
  if (canCoalesce(tail)) {
    const old = tail.old;
    if (old && !recordsDiffer(incoming, old)) return { kind: 'revert', drop: tail, restore: old };
    const item = { ...incoming, row_version: (old?.row_version ?? 0) + 1 };
    return { kind: 'send', item, old, replaces: tail };
  }
  if (current && !recordsDiffer(incoming, current)) return { kind: 'unchanged' };
  const item = { ...incoming, row_version: (current?.row_version ?? 0) + 1 };
  return { kind: 'send', item, old: current, replaces: null };
}

export type DeletePlan =
  | { kind: 'unchanged' }
  /** The record never reached the server: drop its queued create and remove it locally. */
  | { kind: 'revert'; drop: QueuedRequest; restore: null }
  | { kind: 'send'; old: SyncRecord; replaces: QueuedRequest | null };

export function planDelete(current: SyncRecord | null, tail: QueuedRequest | null): DeletePlan {
  if (canCoalesce(tail)) {
    if (!tail.old) return { kind: 'revert', drop: tail, restore: null };
    return { kind: 'send', old: tail.old, replaces: tail };
  }
  if (!current) return { kind: 'unchanged' };
  return { kind: 'send', old: current, replaces: null };
}

/** What a server answer means for a request. */
export type Outcome =
  | { kind: 'applied'; record: SyncRecord | null }
  | { kind: 'conflict'; remote: SyncRecord | null }
  /** Refused for good: restore the old copy (or remove a new record) and report it. */
  | { kind: 'rejected'; status: number; message: string }
  /** Try again later (server trouble, throttling, timeout). */
  | { kind: 'retry'; status: number; message: string }
  /** The session ended: keep the request for after the next sign-in. */
  | { kind: 'session'; status: number; message: string };

function asRecord(data: unknown): SyncRecord | null {
  if (data && typeof data === 'object' && 'id' in data && 'row_version' in data) return data as SyncRecord;
  return null;
}

function messageOf(data: unknown, fallback: string): string {
  if (data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  return fallback;
}

/**
 * Classifies a response to a request. `data` is the body: for a save `{data: record}` (or, inside
 * a batch answer, the record or the error body itself).
 */
export function outcomeOf(request: Pick<QueuedRequest, 'method' | 'item'>, status: number, body: unknown): Outcome {
  const inner = body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body;
  if (status >= 200 && status < 300) {
    return { kind: 'applied', record: request.method !== 'delete' ? asRecord(inner) ?? request.item : null };
  }
  if (status === 409) {
    const remote = asRecord(inner);
    // The stored copy is ours: an earlier attempt was applied and its answer was lost.
    if (request.method === 'put' && remote && request.item && remote.row_version === request.item.row_version && holdsFields(remote, request.item)) {
      return { kind: 'applied', record: remote };
    }
    return { kind: 'conflict', remote };
  }
  // Deleting what is already gone is what we wanted.
  if (status === 404 && request.method === 'delete') return { kind: 'applied', record: null };
  if (status === 401) return { kind: 'session', status, message: messageOf(body, 'unauthenticated') };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', status, message: messageOf(body, `HTTP ${status}`) };
  return { kind: 'rejected', status, message: messageOf(body, `HTTP ${status}`) };
}

/**
 * After a request was applied: the copy to keep locally, or null to remove it, or undefined to
 * leave the local copy alone (a later local edit, or a newer copy, is already there).
 */
export function afterApplied(
  request: Pick<QueuedRequest, 'method'>,
  serverRecord: SyncRecord | null,
  local: SyncRecord | null,
  laterPending: boolean,
): SyncRecord | null | undefined {
  if (laterPending) return undefined;
  if (request.method === 'delete') return null;
  if (!serverRecord) return undefined;
  if (local && local.row_version > serverRecord.row_version) return undefined;
  return serverRecord;
}

/** After a refusal: the previous copy comes back, or a new record goes away. */
export function afterRejected(request: Pick<QueuedRequest, 'old'>): SyncRecord | null {
  return request.old;
}

/** After a 409: the conflict to record (our latest intended copy vs theirs) and the copy to adopt. */
export function afterConflict(
  latestLocal: SyncRecord | null,
  remote: SyncRecord | null,
): { conflict: { local: SyncRecord | null; remote: SyncRecord | null }; adopt: SyncRecord | null } {
  return { conflict: { local: latestLocal, remote }, adopt: remote };
}

/**
 * A saved/deleted event from another session (realtime or delta): the copy to store, null to
 * remove, or undefined to ignore. Saves apply only if newer. A delete applies unless we hold a
 * newer local edit (that edit is queued and will meet the server's answer).
 */
export function applyRemoteChange(
  local: SyncRecord | null,
  op: 'saved' | 'deleted',
  incoming: SyncRecord | null,
): SyncRecord | null | undefined {
  if (op === 'saved') {
    if (!incoming) return undefined;
    return isNewer(incoming, local) ? incoming : undefined;
  }
  if (!local) return undefined;
  if (!incoming || incoming.row_version >= local.row_version) return null;
  return undefined;
}
