import { collectionByRoute, type CollectionDefinition } from '../../schema/collections';
import { ApiError, notFound, validation } from '../http/errors';
import { RECORD_ID_PATTERN } from '../../schema/records';
import { deleteRecord, restoreRecord, saveRecord } from './operations';
import type { StoredResponse } from './idempotency';
import type { WriteScope } from './scope';
import { saveTimeEntry } from './time-tracking';

/**
 * The team-scoped write requests, addressed the way a batch addresses them (a route relative to
 * /api/{teamId}/). The HTTP routes and POST /batch both come here, so a queued request behaves
 * exactly like the direct call.
 */
export type WriteMethod = 'put' | 'delete' | 'post';

export async function dispatchWrite(scope: WriteScope, method: WriteMethod, route: string, payload: unknown): Promise<StoredResponse> {
  // A read-only workspace (ended subscription, decision 0360) takes no save at all.
  if (scope.refusal) throw scope.refusal;
  const [path, query = ''] = route.replace(/^\/+/, '').split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw notFound(); // a malformed escape names nothing
  }
  const def = parts[0] ? collectionByRoute(parts[0]) : undefined;
  if (!def) throw notFound();
  // The route is decoded here, after the request's NUL guard ran: a decoded %00 (or anything that
  // is no client id) names no record, so it never reaches a query (security review N11).
  // A save (PUT) with an id that is merely malformed still answers 422 listing every problem (the
  // validator names the id); only a control character, which the database cannot hold, stops it here.
  const routeId = parts[1];
  if (routeId !== undefined && !RECORD_ID_PATTERN.test(routeId) && (method !== 'put' || /[\u0000-\u001f\u007f]/.test(routeId))) {
    throw new ApiError(404, 'Not found: id: not a record id', 'not_found', ['id: not a record id']);
  }

  if (parts.length === 1 && method === 'put') return { status: 200, body: { data: await saveMultiple(scope, def, payload) } };
  if (parts.length === 1 && method === 'post' && def.name === 'time_entry') return { status: 200, body: { data: await saveTimeEntry(scope, payload) } };
  if (parts.length === 2 && method === 'put') return { status: 200, body: { data: await saveRecord(scope, def, parts[1]!, payload) } };
  if (parts.length === 2 && method === 'delete') {
    const permanent = ['1', 'true'].includes(params.get('permanent') ?? '');
    return { status: 200, body: { data: await deleteRecord(scope, def, parts[1]!, { permanent }) } };
  }
  if (parts.length === 3 && method === 'post' && parts[2] === 'restore') return { status: 200, body: { data: await restoreRecord(scope, def, parts[1]!) } };
  throw notFound();
}

/** PUT /api/{teamId}/{route} with an array: all records or none (the caller's transaction rolls back on the first error). */
export async function saveMultiple(scope: WriteScope, def: CollectionDefinition, payload: unknown) {
  if (!Array.isArray(payload)) throw validation(['the body must be an array of records']);
  const saved = [];
  for (const [index, record] of payload.entries()) {
    const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') throw validation([`${index}.id: required`]);
    try {
      saved.push(await saveRecord(scope, def, id, record));
    } catch (error) {
      // Say which record failed; the 409 keeps the stored copy in data.
      if (error instanceof ApiError && error.status === 422 && Array.isArray(error.data)) {
        throw validation((error.data as string[]).map((m) => `${index}.${m}`));
      }
      throw error;
    }
  }
  return saved;
}
