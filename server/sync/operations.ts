import { ApiError, notFound, parseBody, unauthorized, validation } from '../http/errors';
import { canView, folderLevel } from './access';
import { boardChannel, collections, type CollectionDefinition } from '../../schema/collections';
import type { PermissionLevel } from '../../schema/permissions';
import { collectionRules, type SaveContext } from './rules';
import { conflict, type WriteScope } from './scope';
import { appendChange, findRecord, removeRecord, writeLogged, type StoredRecord, type WireRecord } from './store';
import { saveLockMode } from './lock-plan';
import { cascadeDelete } from './cascade';
import { validateBoardRecord } from './validate-board-values';
import { refuseUnknownFields, unknownFields, withoutFields } from './unknown-fields';
import { eventOfWrite } from '../events/record-events';
import { appendEvents } from '../events/outbox';

/**
 * The generic write operations over the registry: save (create or update with the row_version
 * check), delete (trash or remove), restore and permanent delete. Collection-specific rules live
 * in rules.ts; everything else is the same for every collection.
 */

type Body = Record<string, unknown>;

function asObject(body: unknown): Body {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw validation(['the body must be a record object']);
  return body as Body;
}

/** The stored record of this team, or null. A record of another team is treated as absent (404 on use). */
async function ownRecord(scope: WriteScope, def: CollectionDefinition, id: string): Promise<StoredRecord | null> {
  const stored = await scope.record(def.name, id);
  if (stored && stored.team_id !== scope.team.id) throw notFound();
  return stored;
}

/** The board (root folder) of the team with this id, live. */
async function liveBoard(scope: WriteScope, boardId: string): Promise<StoredRecord> {
  await scope.folders(boardId); // one query that also serves folder references and permission chains
  const board = await scope.record('folder', boardId);
  if (!board || board.team_id !== scope.team.id || board.deleted_at || board.data.parent_id !== null) {
    throw validation([`board_id: there is no board ${boardId} in this workspace`]);
  }
  return board;
}

/** Checks every reference of the record (same team and board, not in the trash) and returns them by field. */
async function loadReferences(scope: WriteScope, def: CollectionDefinition, record: Body): Promise<Map<string, StoredRecord>> {
  const found = new Map<string, StoredRecord>();
  const problems: string[] = [];
  for (const ref of def.references) {
    const value = record[ref.field];
    if (value === null || value === undefined) {
      if (!ref.optional) problems.push(`${ref.field}: required`);
      continue;
    }
    if (def.name === 'folder' && value === record.id) {
      problems.push(`${ref.field}: a folder cannot be its own parent`);
      continue;
    }
    const target = await scope.record(ref.collection, String(value));
    if (!target || target.team_id !== scope.team.id || target.board_id !== record.board_id || target.deleted_at) {
      problems.push(`${ref.field}: there is no ${ref.collection.replace('_', ' ')} ${String(value)} on this board`);
      continue;
    }
    found.set(ref.field, target);
  }
  if (problems.length) throw validation(problems);
  return found;
}

/**
 * The folder a record sits in (its permission resource). Folder-level records (items, attributes,
 * views) name it in `folder_id`; a child record (value, comment, reaction, time entry) is in its
 * stored parent's folder, followed up the registry's `parent` links, never a field of its body.
 * A time entry of no item is on the board. A required parent that is missing or elsewhere is a 404.
 */
async function containerFolderId(scope: WriteScope, def: CollectionDefinition, data: Body): Promise<string> {
  if (def.references.some((ref) => ref.field === 'folder_id' && ref.collection === 'folder')) return String(data.folder_id);
  const link = def.parent;
  if (!link) return String(data.board_id);
  const parentId = data[link.field];
  if (parentId === null || parentId === undefined) {
    if (link.optional) return String(data.board_id);
    throw notFound();
  }
  const parent = await scope.record(link.collection, String(parentId));
  if (!parent || parent.team_id !== scope.team.id || parent.board_id !== data.board_id) throw notFound();
  return containerFolderId(scope, collections[link.collection], parent.data);
}

/** Who owns the record for `:owner` permission entries. */
function ownerOf(def: CollectionDefinition, record: Body, refs: Map<string, StoredRecord>): number | null {
  if (def.ownerFrom) {
    const parent = refs.get(def.ownerFrom.field);
    return parent?.created_by ?? null;
  }
  if (def.ownerField) {
    const owner = record[def.ownerField];
    return typeof owner === 'number' ? owner : null;
  }
  return null;
}

/** The owner of a stored record, from its stored fields and its stored parent (not the body's). */
async function storedOwnerOf(scope: WriteScope, def: CollectionDefinition, stored: StoredRecord): Promise<number | null> {
  if (def.ownerFrom) {
    const parentId = stored.data[def.ownerFrom.field];
    return typeof parentId === 'string' ? ((await scope.record(def.ownerFrom.collection, parentId))?.created_by ?? null) : null;
  }
  const value = def.ownerField ? stored.data[def.ownerField] : null;
  return typeof value === 'number' ? value : null;
}

/**
 * Default save authorisation. A new record needs the create permission where it will be. An
 * existing one needs the edit permission where it is NOW (the stored record's chain: the body may
 * name any folder, so it cannot be what is checked), and when it moves, create and edit where it
 * goes (docs/decisions/0091-permissions-from-stored-records.md).
 */
async function authorizeDefault(ctx: SaveContext): Promise<void> {
  const { scope, def, record, existing, refs } = ctx;
  const destinationId = await containerFolderId(scope, def, record);
  const destination = await scope.chain(String(record.board_id), destinationId);
  // A new record is the user's own, unless it belongs to its parent's owner (a value to its item's).
  const owner = def.ownerFrom ? ownerOf(def, record, refs) : existing ? ownerOf(def, existing.data, refs) : scope.viewer.id; // the actor's own (an automation's author, not Autobot)
  if (!existing) return scope.require(def.permissions.create, destination, owner);
  const sourceId = await containerFolderId(scope, def, existing.data);
  scope.require(def.permissions.edit, await scope.chain(existing.board_id, sourceId), await storedOwnerOf(scope, def, existing));
  if (destinationId === sourceId) return;
  scope.require(def.permissions.create, destination, owner);
  scope.require(def.permissions.edit, destination, owner);
}

/** The permission chain of a stored record (for delete and restore), from its stored parent chain. */
export async function chainOf(scope: WriteScope, def: CollectionDefinition, stored: StoredRecord): Promise<PermissionLevel[]> {
  if (def.name === 'folder') {
    return stored.data.parent_id === null ? scope.chain(stored.board_id, stored.id) : scope.chain(stored.board_id, String(stored.data.parent_id));
  }
  return scope.chain(stored.board_id, await containerFolderId(scope, def, stored.data));
}

/** Whether the user may view the stored record (its board or folder), for what a 409 reveals. */
async function mayRead(scope: WriteScope, def: CollectionDefinition, stored: StoredRecord): Promise<boolean> {
  const attempt = async (chain: () => Promise<PermissionLevel[]>) => {
    try {
      return await chain();
    } catch {
      return null; // a folder on the way is gone or in the trash
    }
  };
  let chain: PermissionLevel[] | null;
  if (def.name === 'folder' && stored.data.parent_id === null) chain = [...scope.workspaceChain(), folderLevel(stored.data as never)];
  else if (def.name === 'folder') chain = await attempt(() => scope.chain(stored.board_id, stored.id));
  else chain = await attempt(() => chainOf(scope, def, stored));
  chain ??= await attempt(() => scope.chain(stored.board_id, stored.board_id));
  return chain !== null && canView(scope.viewer, chain);
}

/**
 * Saves one record (PUT /api/{teamId}/{route}/{id}). The body's row_version must be the stored
 * version + 1, or 1 for a new record; otherwise 409 with the stored copy. Returns the stored record.
 */
export async function saveRecord(scope: WriteScope, def: CollectionDefinition, id: string, rawBody: unknown): Promise<WireRecord> {
  const body = { ...asObject(rawBody) };
  if (body.id !== undefined && body.id !== id) throw validation([`id: the body's id ${String(body.id)} does not match the address ${id}`]);
  body.id = id;
  // Bodies fixed by the spec ({comment_id, reaction}, {text, item_id, …}) may omit these.
  if (body.row_version === undefined) body.row_version = 1;
  if (body.board_id === undefined && def.boardFrom) {
    const parentId = body[def.boardFrom.field];
    const parent = typeof parentId === 'string' ? await scope.record(def.boardFrom.collection, parentId) : null;
    if (parent && parent.team_id === scope.team.id) body.board_id = parent.board_id;
  }
  const rules = collectionRules[def.name];
  // Unknown fields are judged once the stored copy is known (unknown-fields.ts); the rest here.
  const unknown = unknownFields(def, body);
  const parsed = parseBody(def.schema, withoutFields(body, unknown)) as Body;

  await scope.lock(saveLockMode(def));
  // The record and what it points at, in one query (folders come with the board's folder list).
  await scope.prefetch([
    { collection: def.name, id },
    ...def.references.filter((r) => r.collection !== 'folder' && typeof parsed[r.field] === 'string').map((r) => ({ collection: r.collection, id: String(parsed[r.field]) })),
  ], String(parsed.board_id));
  const existing = await ownRecord(scope, def, id);
  refuseUnknownFields(unknown, existing);
  const expected = existing ? existing.row_version + 1 : 1;
  const stale = parsed.row_version !== expected;
  // A trashed record is not edited in place either: the client learns it is in the trash.
  if (stale || existing?.deleted_at) {
    // The stored copy goes only to someone who may read it.
    if (existing && !(await mayRead(scope, def, existing))) throw unauthorized();
    throw conflict(existing?.data ?? null);
  }
  if (existing && existing.board_id !== parsed.board_id) throw validation(['board_id: a record cannot change board']);

  // Server-owned fields: never taken from the body.
  const record: Body = { ...parsed, team_id: scope.team.id };
  record.created_at = existing ? existing.data.created_at : scope.now.toISOString();
  record.updated_at = scope.now.toISOString();
  for (const field of def.userFields) record[field] = existing ? existing.data[field] ?? null : scope.userId;
  // Only the trash sets deleted_at (and only on collections that have one).
  if (def.trash) record.deleted_at = null;
  else delete record.deleted_at;

  if (def.name !== 'folder' || record.parent_id !== null) await liveBoard(scope, String(record.board_id));
  const refs = await loadReferences(scope, def, record);
  const ctx: SaveContext = { scope, def, record, existing, refs };
  await rules?.prepare?.(ctx);
  if (rules?.authorize) await rules.authorize(ctx, authorizeDefault);
  else await authorizeDefault(ctx);
  await validateBoardRecord(ctx);
  await rules?.beforeWrite?.(ctx);

  return storeSaved(scope, def, record as WireRecord, existing);
}

/** Writes an accepted record: row, change log, cache and the `saved` event. */
export async function storeSaved(scope: WriteScope, def: CollectionDefinition, record: WireRecord, existing: StoredRecord | null): Promise<WireRecord> {
  // Who changed it last (decision 0346): the author stamped on the write, whatever the body said.
  record.updated_by = scope.userId;
  const createdBy = existing ? existing.created_by : scope.userId;
  if (!(await scope.writeLogged(def.name, record, createdBy, null, 'saved'))) throw await lostRace(scope, def, record.id);
  scope.remember(def.name, record.id, { collection: def.name, id: record.id, team_id: scope.team.id, board_id: record.board_id, row_version: record.row_version, data: record, created_by: createdBy, deleted_at: null });
  scope.publish(boardChannel(scope.team.id, record.board_id), 'saved', { collection: def.name, data: record });
  collectionRules[def.name]?.afterSave?.(scope, record, existing);
  return record;
}

/**
 * The 409 for a write another transaction overtook between our read and our write (saves of a
 * team run concurrently): the stored copy as it is now, to someone who may read it.
 */
async function lostRace(scope: WriteScope, def: CollectionDefinition, id: string): Promise<Error> {
  const now = await findRecord(scope.trx, def.name, id);
  if (now && now.team_id !== scope.team.id) return notFound();
  if (now && !(await mayRead(scope, def, now))) return unauthorized();
  return conflict(now?.data ?? null);
}

/** Whether the user may delete the stored record (delete permission, owner-scoped where it applies). */
async function authorizeDelete(scope: WriteScope, def: CollectionDefinition, stored: StoredRecord): Promise<void> {
  const rules = collectionRules[def.name];
  if (rules?.authorizeDelete) return rules.authorizeDelete(scope, def, stored);
  scope.require(def.permissions.delete, await chainOf(scope, def, stored), await storedOwnerOf(scope, def, stored));
}

/**
 * DELETE /api/{teamId}/{route}/{id}: items, folders and attributes go to the trash (row_version
 * raised, deleted_at set); other records, and trashed ones with `permanent`, are removed.
 */
export async function deleteRecord(scope: WriteScope, def: CollectionDefinition, id: string, opts: { permanent: boolean }): Promise<WireRecord> {
  await scope.lock();
  const stored = await ownRecord(scope, def, id);
  if (!stored) throw notFound();
  await authorizeDelete(scope, def, stored);

  if (def.trash && !opts.permanent) {
    if (stored.deleted_at) return stored.data; // already in the trash: deleting again changes nothing
    const record: WireRecord = { ...stored.data, row_version: stored.row_version + 1, deleted_at: scope.now.toISOString(), updated_at: scope.now.toISOString(), updated_by: scope.userId };
    const event = await eventOfWrite(scope, def.name, record, 'trashed');
    if (!(await writeLogged(scope.trx, def.name, scope.team.id, record, stored.created_by, scope.now, scope.now, 'trashed', event))) throw await lostRace(scope, def, id);
    scope.remember(def.name, id, { ...stored, row_version: record.row_version, data: record, deleted_at: scope.now });
    scope.publish(boardChannel(scope.team.id, stored.board_id), 'deleted', { collection: def.name, data: record });
    return record;
  }
  if (def.trash) scope.require('MANAGE_TRASH', scope.workspaceChain());
  await removeWithChildren(scope, stored);
  return stored.data;
}

/** Removes a record for good, with everything that belongs to it, logging a tombstone for each. */
export async function removeWithChildren(scope: WriteScope, stored: StoredRecord): Promise<void> {
  for (const child of await cascadeDelete(scope.trx, stored)) {
    await removeOne(scope, child);
  }
  await removeOne(scope, stored);
}

async function removeOne(scope: WriteScope, stored: StoredRecord): Promise<void> {
  const event = await eventOfWrite(scope, stored.collection, stored.data, 'deleted');
  if (event) await appendEvents(scope.trx, [event], scope.now);
  await removeRecord(scope.trx, stored.collection, stored.id);
  await appendChange(scope.trx, scope.team.id, stored.board_id, stored.collection, stored.id, 'deleted', scope.now);
  scope.remember(stored.collection, stored.id, null);
  scope.publish(boardChannel(scope.team.id, stored.board_id), 'deleted', { collection: stored.collection, data: stored.data });
}

/** POST /api/{teamId}/{route}/{id}/restore: takes a record out of the trash. */
export async function restoreRecord(scope: WriteScope, def: CollectionDefinition, id: string): Promise<WireRecord> {
  if (!def.trash) throw notFound();
  await scope.lock();
  const stored = await ownRecord(scope, def, id);
  if (!stored) throw notFound();
  // Not in the trash: nothing changes, but it is judged all the same (only who may restore it reads it back).
  if (!stored.deleted_at) {
    await authorizeDelete(scope, def, stored);
    return stored.data;
  }
  // Its board (or parent folder) must be live again first.
  if (!(def.name === 'folder' && stored.data.parent_id === null)) await liveBoard(scope, stored.board_id);
  try {
    await authorizeDelete(scope, def, stored);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw validation(['the folder this record was in is in the trash; restore it first']);
    throw error;
  }
  const record: WireRecord = { ...stored.data, row_version: stored.row_version + 1, deleted_at: null, updated_at: scope.now.toISOString(), updated_by: scope.userId };
  const event = await eventOfWrite(scope, def.name, record, 'restored');
  if (!(await writeLogged(scope.trx, def.name, scope.team.id, record, stored.created_by, null, scope.now, 'restored', event))) throw await lostRace(scope, def, id);
  scope.remember(def.name, id, { ...stored, row_version: record.row_version, data: record, deleted_at: null });
  scope.publish(boardChannel(scope.team.id, stored.board_id), 'saved', { collection: def.name, data: record });
  return record;
}

