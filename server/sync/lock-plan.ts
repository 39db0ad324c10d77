import { collectionByRoute, type CollectionDefinition } from '../../schema/collections';
import type { LockMode } from './scope';

/**
 * Which team lock a write request takes up front (see LockMode in scope.ts). Only single-record
 * saves of these collections share the lock: their checks read the record, what it points at and
 * the board's folders, and a concurrent change of the record itself is caught by the write's own
 * row_version condition. Everything else (and anything this does not recognise) is exclusive.
 */
const SHARED_SAVES = new Set(['item', 'value', 'folder_view', 'comment', 'button_click', 'doc_update']);

export function saveLockMode(def: CollectionDefinition): LockMode {
  return SHARED_SAVES.has(def.name) ? 'shared' : 'exclusive';
}

/** The lock of one request addressed as a batch addresses it (`{route}/{id}` relative to the team). */
export function requestLockMode(method: string, route: string): LockMode {
  if (method.toLowerCase() !== 'put') return 'exclusive';
  const parts = route.replace(/^\/+/, '').split('?', 1)[0]!.split('/').filter(Boolean);
  const def = parts.length === 2 ? collectionByRoute(parts[0]!) : undefined;
  return def ? saveLockMode(def) : 'exclusive';
}

/** A batch shares the lock only when every request in it would. */
export function batchLockMode(body: unknown): LockMode {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests) || requests.length === 0) return 'exclusive';
  for (const r of requests) {
    const { method, route } = (r ?? {}) as { method?: unknown; route?: unknown };
    if (typeof method !== 'string' || typeof route !== 'string' || requestLockMode(method, route) !== 'shared') return 'exclusive';
  }
  return 'shared';
}
