import { nanoid } from 'nanoid';
import type { AppContext } from '../../server/context';
import type { FastifyInstance } from 'fastify';
import { issueTokens } from '../../server/auth/tokens';
import { saveUpload } from '../../server/files/storage';
import { collectionList, type CollectionDefinition, type SyncedCollectionName } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { HIDDEN_ENTRY, PUBLIC_ENTRIES, Permission, entryKey, type PermissionEntries, type PermissionLevel, type Role } from '../../schema/permissions';
import { api } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, createTeam, type SignedIn } from './sync-fixtures';

/**
 * The world the authorisation matrix and the fuzz suite call into: one workspace with a member of
 * every role, an invited board guest, an outsider (owner of another workspace), a board with a
 * folder and one record of every synced collection, a public board and an uploaded file, so every
 * path parameter of every route names a real record.
 */

export const MATRIX_ROLES = ['owner', 'admin', 'full-member', 'restricted-member', 'guest', 'outsider', 'anonymous'] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];
export const WORKSPACE_ROLES: readonly MatrixRole[] = ['owner', 'admin', 'full-member', 'restricted-member'];

type Rec = Record<string, unknown> & { id: string };

/** Where new records go: the folder items sit in, and the parents of child records. */
export interface Place {
  folderId: string;
  records: Record<SyncedCollectionName, Rec>;
}

export interface World {
  app: FastifyInstance;
  ctx: AppContext;
  teamId: number;
  users: Record<Exclude<MatrixRole, 'anonymous'>, SignedIn>;
  /** The board every role is asked about: all four members and the guest are its members. */
  boardId: string;
  folderId: string;
  /** A public board (anonymous visitors may view it). */
  publicBoardId: string;
  /** One live record of each synced collection, created by the owner. */
  records: Record<SyncedCollectionName, Rec>;
  /** A hidden folder of the board (members: owner and admin) with one record of each collection in it. */
  hidden: Place;
  /** The path of an uploaded file under /api/files/. */
  filePath: string;
}

/** A one-pixel PNG. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b2f5b10000000049454e44ae426082', 'hex');

export async function put(w: Pick<World, 'app' | 'teamId'>, route: string, rec: Rec, token: string) {
  const res = await api(w.app, 'PUT', `/api/${w.teamId}/${route}/${encodeURIComponent(rec.id)}`, { token, body: rec });
  if (res.statusCode !== 200) throw new Error(`fixture PUT ${route}/${rec.id}: ${res.statusCode} ${res.body}`);
  return res.json().data as Rec;
}

export async function buildWorld(app: FastifyInstance, ctx: AppContext): Promise<World> {
  const make = () => createUserWithToken(ctx);
  const users = { owner: await make(), admin: await make(), 'full-member': await make(), 'restricted-member': await make(), guest: await make(), outsider: await make() };
  const teamId = await createTeam(ctx, users.owner.user.id);
  for (const role of ['admin', 'full-member', 'restricted-member'] as const) await addMember(ctx, teamId, users[role].user.id, role);
  // The outsider is somebody: the owner of another workspace.
  await createTeam(ctx, users.outsider.user.id);
  const w: World = { app, ctx, teamId, users, boardId: '', folderId: '', publicBoardId: '', records: {} as World['records'], hidden: { folderId: '', records: {} as Place['records'] }, filePath: '' };
  const token = users.owner.token;

  const boardId = 'mb' + nanoid(10);
  await put(w, 'folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Matrix board', row_version: 1 }, token);
  // Board members: the workspace's four and the invited guest (tag:guest_user), not the outsider.
  const memberIds = [users.owner, users.admin, users['full-member'], users['restricted-member'], users.guest].map((u) => u.user.id);
  const members = await api(app, 'PUT', '/api/users', { token, body: { board_id: boardId, user_ids: memberIds } });
  if (members.statusCode !== 200) throw new Error(`fixture board members: ${members.statusCode} ${members.body}`);
  const publicBoardId = 'pb' + nanoid(10);
  await put(w, 'folders', { id: publicBoardId, board_id: publicBoardId, parent_id: null, name: 'Public board', is_public: true, row_version: 1 }, token);
  Object.assign(w, { boardId, publicBoardId });

  const folder = await put(w, 'folders', { id: 'mf' + nanoid(10), board_id: boardId, parent_id: boardId, name: 'Folder', row_version: 1 }, token);
  w.folderId = folder.id;
  for (const def of collectionList) w.records[def.name] = await createRecord(w, def, 'owner');
  const hidden = await put(w, 'folders', { id: 'mh' + nanoid(10), board_id: boardId, parent_id: boardId, name: 'Hidden', hidden: true, user_ids: [users.owner.user.id, users.admin.user.id], row_version: 1 }, token);
  w.hidden.folderId = hidden.id;
  for (const def of collectionList) w.hidden.records[def.name] = await createRecord(w, def, 'owner', w.hidden);
  w.filePath = (await saveUpload(ctx, 'photos', PNG, 'png')).replace(/^\/api\/files\//, '');
  return w;
}

/** A new, valid record of the collection in the matrix board (its parents are the world's records). */
export function newRecord(w: World, def: CollectionDefinition, opts: { attributeId?: string; place?: Place } = {}): Rec {
  const id = def.name.slice(0, 3) + nanoid(12);
  const base = { id, board_id: w.boardId, row_version: 1 };
  const hidden = opts.place === w.hidden;
  const place = opts.place ?? { folderId: w.folderId, records: w.records };
  // Records that hang on a folder go in the hidden folder when asked, else on the board itself.
  const container = hidden ? place.folderId : w.boardId;
  const item = place.records.item?.id;
  switch (def.name) {
    case 'folder':
      return { ...base, parent_id: container, name: 'Sub folder' };
    case 'folder_view':
      return { ...base, folder_id: container, name: 'View', kind: 'table' };
    case 'attribute':
      return { ...base, folder_id: container, name: `Notes ${id}`, kind: 'text' };
    case 'item':
      return { ...base, folder_id: place.folderId, name: 'Item' };
    case 'value': {
      const attributeId = opts.attributeId ?? place.records.attribute.id;
      return { ...base, id: valueIdFor(item!, attributeId), item_id: item, attribute_id: attributeId, value: 'text' };
    }
    case 'comment':
      return { ...base, item_id: item, parent_id: null, text: { html: '<p>Comment</p>' } };
    case 'comment_reaction':
      return { ...base, comment_id: place.records.comment.id, reaction: `r${nanoid(6)}` };
    case 'time_entry': {
      const start = new Date(Date.now() - 3_600_000).toISOString();
      return { ...base, item_id: item, attribute_id: null, description: 'Work', started_at: start, ended_at: new Date().toISOString() };
    }
    case 'automation':
      return { ...base, name: 'Rule', enabled: false, trigger: { type: 'item_created' }, actions: [] };
    case 'button_click':
      // On the world's Button attribute (the first click's), unless given one.
      return { ...base, item_id: item, attribute_id: opts.attributeId ?? (place.records.button_click?.attribute_id as string | undefined) ?? (w.records.button_click?.attribute_id as string) };
    case 'doc_update':
      // A Yjs update that inserts nothing (an empty document's update): valid, small.
      return { ...base, item_id: item, update: 'AAA=' };
  }
}

/** Saves a new record of the collection as `by` (a value gets a new attribute first, so its id is new). */
export async function createRecord(w: World, def: CollectionDefinition, by: Exclude<MatrixRole, 'anonymous'>, place?: Place): Promise<Rec> {
  let attributeId: string | undefined;
  if (def.name === 'value' && (place ?? w).records.value) {
    const attributes = collectionList.find((d) => d.name === 'attribute')!;
    attributeId = (await createRecord(w, attributes, 'owner', place)).id;
  }
  if (def.name === 'button_click') {
    // A click needs a Button attribute.
    const button = { id: 'btn' + nanoid(12), board_id: w.boardId, row_version: 1, folder_id: w.boardId, name: `Button ${nanoid(6)}`, kind: 'button' };
    attributeId = (await put(w, 'attributes', button, w.users.owner.token)).id;
  }
  return put(w, def.route, newRecord(w, def, { attributeId, place }), w.users[by].token);
}

/** The stored copy of a record, as the wire has it. */
export async function stored(w: World, collection: SyncedCollectionName, id: string): Promise<{ data: Rec; created_by: number | null; row_version: number }> {
  const row = await w.ctx.db.selectFrom('records').select(['data', 'created_by', 'row_version']).where('collection', '=', collection).where('id', '=', id).executeTakeFirstOrThrow();
  return { data: row.data as Rec, created_by: row.created_by, row_version: row.row_version };
}

/** Puts back the workspace's members as built (a call like DELETE …/leave removes one). */
export async function restoreMemberships(w: World): Promise<void> {
  const roles: [MatrixRole, Role][] = [['admin', 'admin'], ['full-member', 'full-member'], ['restricted-member', 'restricted-member']];
  for (const [who, role] of roles) {
    const userId = w.users[who as Exclude<MatrixRole, 'anonymous'>].user.id;
    await w.ctx.db
      .insertInto('team_members')
      .values({ team_id: w.teamId, user_id: userId, role, verified_at: w.ctx.now(), invited_by: null, created_at: w.ctx.now() })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role, verified_at: w.ctx.now() }))
      .execute();
  }
}

/** A fresh session for a user (for calls that end the one they are made with, such as logout). */
export async function freshToken(w: World, who: Exclude<MatrixRole, 'anonymous'>): Promise<string> {
  return (await issueTokens(w.ctx.db, w.users[who].user.id, w.ctx.now())).access_token;
}

/** A stored board or folder as a level of a permission chain (schema/permissions.ts). */
export async function levelOf(w: World, folderId: string): Promise<PermissionLevel> {
  const { data, created_by } = await stored(w, 'folder', folderId);
  const isBoard = data.parent_id === null;
  // The record's flags are entries of the model (docs/permissions.md "Hidden and public").
  const permissions: PermissionEntries = { ...((data.permissions as PermissionEntries) ?? {}) };
  if (isBoard && data.is_public) Object.assign(permissions, PUBLIC_ENTRIES);
  if (data.hidden) {
    permissions[HIDDEN_ENTRY] = 'deny';
    if (isBoard) permissions[entryKey(Permission.VIEW_BOARD, 'tag', 'board_locked_out')] = 'deny';
  }
  return {
    type: isBoard ? 'board' : 'folder',
    id: folderId,
    permissions,
    final_permissions: (data.final_permissions as string[]) ?? [],
    user_ids: (data.user_ids as number[] | undefined)?.length ? (data.user_ids as number[]) : null,
    created_by,
  };
}
