import { collectionByRoute, collectionList, type CollectionDefinition } from '../../schema/collections';
import { boardChannel } from '../../schema/collections';
import { can, type PermissionLevel, type PermissionUser, type RoleOrGuest } from '../../schema/permissions';
import type { RouteAccess } from '../../schema/route-access';
import { api } from '../helpers/test-server';
import { developerFixtureUrl } from './authz-developer';
import { templateFixtureUrl } from './authz-templates';
import { paymentFixtureUrl } from './authz-payments';
import { billingExtrasFixtureUrl } from './authz-billing-extras';
import { createRecord, freshToken, levelOf, newRecord, stored, type MatrixRole, type Place, type World } from './authz-fixtures';

/**
 * Turns a route of the table into a real call for one role (path parameters filled with the
 * world's records, a body that passes validation where that is cheap), and works out from the
 * permission model what that role should get.
 */

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  body?: unknown;
  token: string | null;
}

/** What the record-scoped permission is asked on: the record's folder chain and its owner. */
export interface Target {
  chain: PermissionLevel[];
  createdBy: number | null;
  /** The record's author for author-only rules (creator, or the reacting user). */
  author: number | null;
}

export type Expected = { allowed: true } | { allowed: false; status: 401 | 403 };

export function workspaceRole(w: World, who: MatrixRole): RoleOrGuest {
  return who === 'guest' || who === 'outsider' || who === 'anonymous' ? 'guest' : who;
}

export function permissionUser(w: World, who: MatrixRole): PermissionUser {
  return { id: who === 'anonymous' ? null : w.users[who].user.id, role: workspaceRole(w, who) };
}

function userIdOf(w: World, who: MatrixRole): number | null {
  return who === 'anonymous' ? null : w.users[who].user.id;
}

export async function workspaceChain(w: World): Promise<PermissionLevel[]> {
  const team = await w.ctx.db.selectFrom('teams').select(['permissions', 'owner_id']).where('id', '=', w.teamId).executeTakeFirstOrThrow();
  return [{ type: 'workspace', id: w.teamId, permissions: (team.permissions ?? {}) as PermissionLevel['permissions'], created_by: team.owner_id }];
}

/** The chain from the workspace down to a folder (each parent on the way), or to a board itself. */
export async function chainTo(w: World, boardId: string, folderId: string | null): Promise<PermissionLevel[]> {
  const folders: PermissionLevel[] = [];
  for (let id = folderId && folderId !== boardId ? folderId : null; id && id !== boardId; ) {
    folders.unshift(await levelOf(w, id));
    id = String((await stored(w, 'folder', id)).data.parent_id);
  }
  return [...(await workspaceChain(w)), await levelOf(w, boardId), ...folders];
}

/** The folder a record sits in, from the stored parents (never the body): item → folder, value → item, … */
async function folderOfRecord(w: World, def: CollectionDefinition, rec: Record<string, unknown>): Promise<string | null> {
  switch (def.name) {
    case 'folder':
      return String(rec.id);
    case 'item':
    case 'attribute':
    case 'folder_view':
      return String(rec.folder_id);
    case 'value':
    case 'comment':
    case 'time_entry':
    case 'button_click':
    case 'doc_update':
      return rec.item_id ? String((await stored(w, 'item', String(rec.item_id))).data.folder_id) : null;
    case 'comment_reaction': {
      const comment = await stored(w, 'comment', String(rec.comment_id));
      return String((await stored(w, 'item', String(comment.data.item_id))).data.folder_id);
    }
    case 'automation':
      return null; // on the board
  }
}

/** Who owns a record for `:owner` entries: the collection's owner field, or its parent's creator. */
async function ownerOfRecord(w: World, def: CollectionDefinition, rec: Record<string, unknown>, createdBy: number | null): Promise<number | null> {
  if (def.ownerFrom) {
    const parentId = rec[def.ownerFrom.field];
    return typeof parentId === 'string' ? (await stored(w, def.ownerFrom.collection, parentId)).created_by : null;
  }
  if (def.name === 'folder') return createdBy;
  if (def.ownerField) return (rec[def.ownerField] as number | undefined) ?? createdBy;
  return null;
}

async function targetOf(w: World, def: CollectionDefinition, rec: Record<string, unknown>, createdBy: number | null, isNew = false): Promise<Target> {
  // A new subfolder is asked about on its parent (CREATE_FOLDER); a stored one on itself.
  const folderId = def.name === 'folder' && isNew ? String(rec.parent_id) : await folderOfRecord(w, def, rec);
  const chain = await chainTo(w, w.boardId, folderId);
  const author = def.name === 'comment_reaction' ? ((rec.user_id as number | undefined) ?? createdBy) : createdBy;
  return { chain, createdBy: await ownerOfRecord(w, def, rec, createdBy), author };
}

/** A route's example query with the board and item it names. */
function fill(template: string, boardId: string, place: Place): string {
  return template.replaceAll('{boardId}', encodeURIComponent(boardId)).replaceAll('{itemId}', encodeURIComponent(place.records.item.id));
}

/**
 * The call a role makes to a route, and the record it acts on (for record-scoped permissions).
 * `boardId` overrides which board a board-scoped call names (the public-visitor pass), `hidden`
 * puts the records it acts on in the hidden folder, `liveRestore` restores a record not in the trash.
 */
export async function callFor(w: World, method: string, pattern: string, access: RouteAccess, who: MatrixRole, opts: { boardId?: string; hidden?: boolean; liveRestore?: boolean } = {}): Promise<{ call: Call; target: Target | null; boardId: string }> {
  const place: Place = opts.hidden ? w.hidden : { folderId: w.folderId, records: w.records };
  const boardId = opts.boardId ?? (access.board === 'public' ? w.publicBoardId : w.boardId);
  let token = who === 'anonymous' ? null : w.users[who].token;
  let body: unknown;
  let target: Target | null = null;
  const segments = pattern.split('/');
  // /api/:teamId/{collection route}[/:id[/restore]]
  const def = segments[2] === ':teamId' && segments[3] ? collectionByRoute(segments[3]) : undefined;
  let id: string | null = null;

  const isRecordRoute = def && (segments[4] === ':id' || (segments.length === 4 && method !== 'POST'));
  if (def && isRecordRoute) {
    const self = userIdOf(w, who);
    if (method === 'PUT' && segments.length === 4) {
      // Save-multiple of one new record, as this caller.
      let rec = newRecord(w, def, { place });
      if (def.name === 'value') {
        const attribute = await createRecord(w, collectionList.find((d) => d.name === 'attribute')!, 'owner', place);
        rec = newRecord(w, def, { attributeId: attribute.id, place });
      }
      body = [rec];
      target = await targetOf(w, def, rec, self, true);
      if (!def.ownerFrom) target.createdBy = self;
      target.author = self;
    } else if (method === 'PUT') {
      // Saves the stored record again (next row_version): the edit permission on where it is now.
      const rec = place.records[def.name];
      const now = await stored(w, def.name, rec.id);
      id = rec.id;
      body = { ...now.data, row_version: now.row_version + 1 };
      target = await targetOf(w, def, now.data, now.created_by);
    } else if (method === 'DELETE' || (method === 'POST' && segments[5] === 'restore')) {
      // A record of its own for each call, so one role's delete leaves the next role something.
      const rec = await createRecord(w, def, 'owner', place);
      // A restore normally finds its record in the trash; `liveRestore` asks for a live one.
      if (method === 'POST' && !opts.liveRestore) {
        const trashed = await api(w.app, 'DELETE', `/api/${w.teamId}/${def.route}/${rec.id}`, { token: w.users.owner.token });
        if (trashed.statusCode !== 200) throw new Error(`fixture trash ${def.route}: ${trashed.statusCode} ${trashed.body}`);
      }
      id = rec.id;
      const now = await stored(w, def.name, rec.id);
      target = await targetOf(w, def, now.data, now.created_by);
    }
  } else if (pattern === '/api/:teamId/time-tracking' && method === 'POST') {
    const rec = newRecord(w, collectionList.find((d) => d.name === 'time_entry')!, { place });
    body = rec;
    target = { ...(await targetOf(w, collectionList.find((d) => d.name === 'time_entry')!, rec, userIdOf(w, who), true)), author: userIdOf(w, who) };
  } else if (pattern.includes('/items/:itemId/')) {
    // Calls about one item (following it): asked on the item's folder.
    const item = await stored(w, 'item', place.records.item.id);
    target = { chain: await chainTo(w, w.boardId, String(item.data.folder_id)), createdBy: item.created_by, author: item.created_by };
  } else if (pattern === '/api/:teamId/attachments') {
    const item = await stored(w, 'item', place.records.item.id);
    target = { chain: await chainTo(w, w.boardId, String(item.data.folder_id)), createdBy: item.created_by, author: item.created_by };
  }

  let url = pattern
    .replace(':teamId', String(w.teamId))
    .replace('/api/teams/whitelabel/:id', `/api/teams/whitelabel/${w.teamId}`)
    .replace('/api/teams/:id', `/api/teams/${w.teamId}`)
    // Member calls name the owner: an allowed caller gets 422 owner_protected, nothing changes.
    .replace(':memberId', String(w.users.owner.user.id))
    .replace(':boardId', encodeURIComponent(boardId))
    .replace(':itemId', encodeURIComponent(place.records.item.id))
    .replace(':appId', encodeURIComponent(w.ctx.config.pusher.appId))
    .replace(':hookId', pattern.includes(':hookId') ? await matrixHook(w) : '')
    .replace(':formId', pattern.includes(':formId') ? await matrixForm(w) : '')
    .replace('*', w.filePath);
  if (id !== null) url = url.replace(':id', encodeURIComponent(id));
  if (access.query) url += fill(access.query, boardId, place);

  if (body === undefined) body = bodyFor(w, method, pattern, boardId);
  url = await developerFixtureUrl(w, who, url);
  url = await templateFixtureUrl(w, who, url);
  url = await paymentFixtureUrl(w, who, url);
  url = await billingExtrasFixtureUrl(w, who, url);
  if (pattern === '/api/auth/logout' && who !== 'anonymous') token = await freshToken(w, who);
  return { call: { method: method as Call['method'], url, body, token }, target, boardId };
}

/**
 * The webhook the hook routes name, there before every call (a role's delete removes it). Its
 * target is a loopback address the server refuses, so a test delivery answers 422 at once.
 */
async function matrixHook(w: World): Promise<string> {
  const now = new Date();
  await w.ctx.db
    .insertInto('hooks')
    .values({ id: 'matrix-hook', team_id: w.teamId, user_id: w.users.owner.user.id, url: 'http://127.0.0.1:9/hook', events: JSON.stringify(['item.created']), secret: 'matrix-secret-0123456789abcdef0123456789', created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return 'matrix-hook';
}

/** An enabled Form view on the world's board (public forms answer anyone while enabled), made once per world. */
const matrixForms = new WeakMap<World, string>();
async function matrixForm(w: World): Promise<string> {
  const known = matrixForms.get(w);
  if (known) return known;
  const id = 'matrix-form';
  const res = await api(w.app, 'PUT', `/api/${w.teamId}/folder-views/${id}`, { token: w.users.owner.token, body: { id, board_id: w.boardId, folder_id: w.boardId, name: 'Matrix form', kind: 'form', settings: { enabled: true }, row_version: 1 } });
  if (res.statusCode !== 200) throw new Error(`fixture form: ${res.statusCode} ${res.body}`);
  matrixForms.set(w, id);
  return id;
}

/** Bodies that pass validation for the routes where an empty one would stop before authorisation matters. */
function bodyFor(w: World, method: string, pattern: string, boardId: string): unknown {
  switch (`${method} ${pattern}`) {
    case 'PUT /api/users':
      return { board_id: boardId, user_ids: [w.users.owner, w.users.admin, w.users['full-member'], w.users['restricted-member'], w.users.guest].map((u) => u.user.id) };
    case 'PUT /api/:teamId/boards/:boardId/password':
      return { password: null };
    case 'PUT /api/teams/:id/members/:memberId':
      return { role: 'admin' };
    case 'PUT /api/:teamId/permissions':
      return { permissions: {} };
    case 'POST /api/broadcasting/multi-auth':
      return { socketId: '123.456', channelNames: [boardChannel(w.teamId, boardId)] };
    case 'POST /api/:teamId/batch':
      return { requests: [] };
    default:
      return method === 'GET' || method === 'DELETE' ? undefined : {};
  }
}

/** What the role should get, from the access entry and the permission model alone. */
export async function expectedFor(w: World, access: RouteAccess, who: MatrixRole, target: Target | null, boardId: string): Promise<Expected> {
  const refuse = (): Expected => ({ allowed: false, status: who === 'anonymous' ? 401 : 403 });
  const role = workspaceRole(w, who);
  const isMember = role !== 'guest';
  const user = permissionUser(w, who);
  switch (access.caller) {
    case 'app-signature':
      return { allowed: false, status: 401 };
    case 'anyone':
      break;
    case 'signed-in':
      if (who === 'anonymous') return refuse();
      break;
    case 'member':
      if (!isMember) return refuse();
      break;
    case 'owner':
      if (role !== 'owner') return refuse();
      break;
    case 'owner-or-admin':
      if (role !== 'owner' && role !== 'admin') return refuse();
      break;
  }
  if (access.membersOnly && !isMember) return refuse();
  if (access.permission) {
    let chain: PermissionLevel[];
    let createdBy: number | null | undefined;
    if (access.on === 'workspace') chain = await workspaceChain(w);
    else if (access.on === 'board') chain = await chainTo(w, boardId, null);
    else {
      if (!target) throw new Error('a record-scoped route needs a target record');
      chain = target.chain;
      createdBy = target.createdBy;
    }
    if (!can({ permission: access.permission, user, chain, createdBy })) return refuse();
  }
  if (access.authorOnly && (!target || target.author !== user.id)) return refuse();
  // Signed in and allowed, but anonymous callers of a signed-in route were refused above.
  return { allowed: true };
}

/** Whether an answer matches the expectation; the problem in words when not. */
export function judge(expected: Expected, status: number, body: string): string | null {
  let type: string | undefined;
  try {
    type = (JSON.parse(body) as { type?: string })?.type;
  } catch {
    type = undefined;
  }
  if (status >= 500) return `server error ${status}`;
  if (expected.allowed) {
    if (status === 403 || status === 404 || (status === 401 && (type === 'unauthenticated' || type === undefined))) return `expected allowed, got ${status} ${type ?? ''}`.trim();
    return null;
  }
  return status === expected.status ? null : `expected ${expected.status}, got ${status} ${type ?? ''}`.trim();
}
