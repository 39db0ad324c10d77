import { boardChannel, type CollectionDefinition, type SyncedCollectionName } from '../../schema/collections';
import { sql } from 'kysely';
import { entryProblems, type PermissionLevel } from '../../schema/permissions';
import type { FolderRecord } from '../../schema/records';
import { isProViewKind, isViewKind, VIEW_KINDS, viewSettingsProblems } from '../../schema/views';
import { proViewRefused } from '../billing/pro-views';
import { ApiError, unauthorized, validation } from '../http/errors';
import { Messages } from '../../schema/messages';
import { folderLevel } from './access';
import { chainOf } from './operations';
import { sanitizeCommentHtml } from './sanitize';
import type { WriteScope } from './scope';
import { requirePrimaryAttribute, yieldServerPrimary } from './primary-attribute';
import type { StoredRecord, WireRecord } from './store';
import { endRunningEntries, publishTimeEntry, startProblems } from './time-entries';
import { automationRules, buttonClickRules } from '../automations/rules';
import { docUpdateRules } from '../docs/rules';
import { checkPublishing } from '../docs/publish-rule';

/**
 * What differs between collections on save and delete. Everything not named here follows the
 * generic path in operations.ts (create/edit/delete permission of the registry on the record's
 * folder, owner-scoped through the registry's ownerField).
 */

export interface SaveContext {
  scope: WriteScope;
  def: CollectionDefinition;
  /** Validated record with the server-owned fields set; rules may adjust it before it is stored. */
  record: Record<string, unknown>;
  existing: StoredRecord | null;
  /** Referenced records by field (item_id → the item …), all checked to be on the same board. */
  refs: Map<string, StoredRecord>;
}

export interface CollectionRules {
  prepare?(ctx: SaveContext): void | Promise<void>;
  /** Replaces the default save authorisation (which it may call). Throws 403 when refused. */
  authorize?(ctx: SaveContext, byDefault: (ctx: SaveContext) => Promise<void>): Promise<void>;
  /** Side effects in the same transaction, after authorisation and before the record is written. */
  beforeWrite?(ctx: SaveContext): Promise<void>;
  /** After the record and its `saved` event are queued (same transaction). */
  afterSave?(scope: WriteScope, record: WireRecord, existing: StoredRecord | null): void;
  /** Replaces the default delete/restore authorisation. */
  authorizeDelete?(scope: WriteScope, def: CollectionDefinition, stored: StoredRecord): Promise<void>;
}

const changed = (ctx: SaveContext, field: string) =>
  ctx.existing !== null && JSON.stringify(ctx.existing.data[field] ?? null) !== JSON.stringify(ctx.record[field] ?? null);

/** The chain of a folder record as it is stored (for boards: the workspace and the board itself). */
async function storedFolderChain(scope: WriteScope, folder: FolderRecord): Promise<PermissionLevel[]> {
  if (folder.parent_id === null) return [...scope.workspaceChain(), folderLevel(folder)];
  return [...(await scope.chain(folder.board_id, folder.parent_id)), folderLevel(folder)];
}

/** Refuses a parent that would make a folder its own ancestor. */
async function checkNoCycle(scope: WriteScope, folderId: string, boardId: string, parentId: string): Promise<void> {
  const folders = await scope.folders(boardId);
  for (let current: string | null = parentId; current !== null; current = folders.get(current)?.parent_id ?? null) {
    if (current === folderId) throw validation(['parent_id: a folder cannot move into its own subfolder']);
  }
}

/**
 * A subfolder's members come from its parent (workspace.md §8, W5.25): each id must be on the
 * member list of the nearest folder above that has one (the board included). With no list above,
 * every workspace member belongs to the parent, so any id passes; the owner always belongs.
 */
async function checkMembersInParent(scope: WriteScope, record: Record<string, unknown>): Promise<void> {
  const ids = (record.user_ids as number[] | undefined) ?? [];
  if (record.parent_id === null || ids.length === 0) return;
  const folders = await scope.folders(String(record.board_id));
  let parentIds: number[] | null = null;
  for (let current: string | null = String(record.parent_id); current !== null && parentIds === null; current = folders.get(current)?.parent_id ?? null) {
    const list = folders.get(current)?.user_ids;
    if (list && list.length > 0) parentIds = list;
  }
  if (parentIds === null) return;
  const parentMembers = parentIds;
  const outside = ids.filter((id) => id !== scope.team.owner_id && !parentMembers.includes(id));
  if (outside.length > 0) {
    throw new ApiError(422, Messages.memberNotInParentFolder, 'validation', outside.map((id) => `user_ids: ${Messages.memberNotInParentFolder} (${id})`));
  }
}

/** Folder fields that change who may see a board or folder. */
const ACCESS_FIELDS = ['user_ids', 'hidden', 'is_public', 'permissions', 'final_permissions', 'parent_id'];

/**
 * Fields whose change is administration, whichever route saves them (issue #26, N8): an API token
 * needs `admin` for them, as for PUT /api/{team}/permissions and PUT /api/users.
 */
const ADMIN_FIELDS = ['permissions', 'final_permissions', 'user_ids', 'hidden', 'is_public'] as const;

/** A new folder's administration fields that differ from a plain folder's (entries, members besides its creator, hidden, public). */
function adminFieldsOfNew(record: Record<string, unknown>, creatorId: number): string[] {
  const set: string[] = [];
  if (Object.keys((record.permissions as object | undefined) ?? {}).length > 0) set.push('permissions');
  if (((record.final_permissions as unknown[] | undefined) ?? []).length > 0) set.push('final_permissions');
  if (((record.user_ids as unknown[] | undefined) ?? []).some((id) => id !== creatorId)) set.push('user_ids');
  if (record.hidden === true) set.push('hidden');
  if (record.is_public === true) set.push('is_public');
  return set;
}

const folderRules: CollectionRules = {
  prepare({ record }) {
    const isBoard = record.parent_id === null;
    if (isBoard && record.board_id !== record.id) throw validation(["board_id: a board's board_id is its own id"]);
    if (!isBoard && record.board_id === record.id) throw validation(['board_id: a folder inside a board carries the id of its board']);
    const problems = entryProblems(record.permissions ?? {});
    if (problems.length) throw validation(problems.map((p) => `permissions.${p}`));
  },
  async authorize(ctx) {
    const { scope, record, existing } = ctx;
    const isBoard = record.parent_id === null;
    const adminChanges = existing ? ADMIN_FIELDS.filter((f) => changed(ctx, f)) : adminFieldsOfNew(record, scope.viewer.id);
    if (adminChanges.length) scope.requireTokenAbility('admin', adminChanges[0]!);
    if (!existing) {
      if (isBoard) scope.require('CREATE_BOARD', scope.workspaceChain());
      else scope.require('CREATE_FOLDER', await scope.chain(String(record.board_id), String(record.parent_id)));
      // Entries granting or refusing others something are permission management, even on a new folder.
      const hasEntries = Object.keys((record.permissions as object | undefined) ?? {}).length > 0 || ((record.final_permissions as unknown[] | undefined) ?? []).length > 0;
      if (hasEntries) scope.require('MANAGE_PERMISSIONS', scope.workspaceChain());
    } else {
      const stored = existing.data as unknown as FolderRecord;
      if ((stored.parent_id === null) !== isBoard) throw validation(['parent_id: a board cannot become a folder or the other way round']);
      const chain = await storedFolderChain(scope, stored);
      const owner = existing.created_by;
      scope.require(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER', chain, owner);
      if (changed(ctx, 'user_ids')) scope.require(isBoard ? 'MANAGE_BOARD_MEMBERS' : 'EDIT_FOLDER_SETTINGS', chain, owner);
      if (changed(ctx, 'hidden') || changed(ctx, 'is_public')) scope.require(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER_SETTINGS', chain, owner);
      if (changed(ctx, 'permissions') || changed(ctx, 'final_permissions')) scope.require('MANAGE_PERMISSIONS', scope.workspaceChain());
      if (!isBoard && changed(ctx, 'parent_id')) {
        // A move is checked at both ends: EDIT_FOLDER where it is (above), and where it goes
        // CREATE_FOLDER in the new parent and EDIT_FOLDER on the folder as it will sit there.
        await checkNoCycle(scope, stored.id, stored.board_id, String(record.parent_id));
        const parentChain = await scope.chain(String(record.board_id), String(record.parent_id));
        scope.require('CREATE_FOLDER', parentChain);
        scope.require('EDIT_FOLDER', [...parentChain, folderLevel(stored)], owner);
      }
    }
    if (!existing || changed(ctx, 'user_ids') || changed(ctx, 'parent_id')) await checkMembersInParent(scope, record);
  },
  afterSave(scope, record, existing) {
    if (!existing && record.parent_id === null) requirePrimaryAttribute(scope, record.id);
    // Who may see the board changed: clients reload it (and learn a 403 if they lost it).
    if (!existing) return;
    const accessChanged = ACCESS_FIELDS.some((f) => JSON.stringify(existing.data[f] ?? null) !== JSON.stringify(record[f] ?? null));
    if (accessChanged) scope.publish(boardChannel(scope.team.id, record.board_id), 'refresh', { collection: 'folder', data: record });
  },
  async authorizeDelete(scope, _def, stored) {
    const folder = stored.data as unknown as FolderRecord;
    const chain = await storedFolderChain(scope, folder);
    scope.require(folder.parent_id === null ? 'DELETE_BOARD' : 'DELETE_FOLDER', chain, stored.created_by);
  },
};

const folderViewRules: CollectionRules = {
  prepare({ scope, record, existing }) {
    record.owner_id = existing ? (existing.data.owner_id ?? null) : scope.userId;
    // A view is one of the kinds the app can show (an older stored kind may stay as it is), and
    // its settings hold what that kind expects; `{}` always does (defaults, schema/views.ts).
    const kindKept = existing !== null && existing.data.kind === record.kind;
    if (!isViewKind(record.kind)) {
      if (!kindKept) throw validation([`kind: must be one of ${VIEW_KINDS.join(', ')}`]);
      return;
    }
    const problems = viewSettingsProblems(record.kind, record.settings);
    if (problems.length) throw validation(problems);
  },
  async authorize(ctx, byDefault) {
    const { scope, record, existing } = ctx;
    // A Pro-only kind needs a plan with Pro views (decision 0260); removing one stays allowed.
    if (isProViewKind(record.kind) && scope.proViews && !(await scope.proViews())) throw proViewRefused();
    await checkPublishing(ctx);
    const isOwner = record.owner_id === scope.userId;
    if (record.visibility === 'personal' && (changed(ctx, 'visibility') || !existing) && !isOwner) throw unauthorized();
    if (existing?.data.visibility === 'personal' && !isOwner && scope.viewer.role !== 'owner') throw unauthorized();
    // A personal view is the user's own workspace: ACCESS_PERSONAL_VIEWS, not the shared-tab
    // permissions, where it is now (the stored copy) and where it goes.
    if (record.visibility === 'personal' && (!existing || existing.data.visibility === 'personal')) {
      if (existing) scope.require('ACCESS_PERSONAL_VIEWS', await chainOf(scope, ctx.def, existing));
      scope.require('ACCESS_PERSONAL_VIEWS', await scope.chain(String(record.board_id), String(record.folder_id)));
      return;
    }
    await byDefault(ctx);
    if (existing?.data.visibility === 'locked') scope.require('EDIT_LOCKED_VIEWS', await chainOf(scope, ctx.def, existing));
    if (record.visibility === 'locked' && (changed(ctx, 'visibility') || changed(ctx, 'folder_id'))) {
      scope.require('EDIT_LOCKED_VIEWS', await scope.chain(String(record.board_id), String(record.folder_id)));
    }
  },
};

folderViewRules.authorizeDelete = async (scope, def, stored) => {
  const chain = await chainOf(scope, def, stored);
  if (stored.data.visibility !== 'personal') return scope.require(def.permissions.delete, chain, (stored.data.owner_id as number | null) ?? null);
  if (stored.data.owner_id !== scope.userId && scope.viewer.role !== 'owner') throw unauthorized();
  scope.require('ACCESS_PERSONAL_VIEWS', chain);
};

const commentRules: CollectionRules = {
  prepare({ record, existing, scope }) {
    const text = record.text as { html: string };
    const html = sanitizeCommentHtml(text.html);
    if (html.replace(/<[^>]*>/g, '').trim() === '' && !/<img\b/i.test(html)) throw validation(['text.html: the comment is empty']);
    record.text = { ...text, html };
    // "Edited" is the server's word: set when the stored text changes, whatever the client sent.
    const before = existing ? ((existing.data.text as { html?: string } | undefined)?.html ?? null) : null;
    record.edited_at = !existing ? null : before !== html ? scope.now.toISOString() : ((existing.data.edited_at as string | null | undefined) ?? null);
  },
  async authorize(ctx, byDefault) {
    const { scope, existing } = ctx;
    await byDefault(ctx);
    // Only the author rewrites a comment or moves it (another item, another thread); pinning is its own permission.
    const rewrites = changed(ctx, 'text') || changed(ctx, 'parent_id') || changed(ctx, 'item_id');
    if (existing && rewrites && existing.created_by !== scope.userId) throw unauthorized();
    if (changed(ctx, 'pinned') || (!existing && ctx.record.pinned === true)) {
      const folderId = String(ctx.refs.get('item_id')?.data.folder_id ?? ctx.record.board_id);
      scope.require('PIN_COMMENT', await scope.chain(String(ctx.record.board_id), folderId));
    }
  },
};

/** Records only their owner (`field`) may change or remove; others read them. */
function ownedBy(field: string): Pick<CollectionRules, 'authorize' | 'authorizeDelete'> {
  return {
    async authorize(ctx, byDefault) {
      if (ctx.existing && ctx.existing.data[field] !== ctx.scope.userId) throw unauthorized();
      await byDefault(ctx);
    },
    async authorizeDelete(scope, def, stored) {
      if (stored.data[field] !== scope.userId) throw unauthorized();
      scope.require(def.permissions.delete, await chainOf(scope, def, stored), scope.userId);
    },
  };
}

/** One reaction per user, comment and emoji: a second device's duplicate is refused (and dropped locally). */
const reactionRules: CollectionRules = {
  ...ownedBy('user_id'),
  async beforeWrite({ scope, record, existing }) {
    if (existing) return;
    const twin = await scope.trx
      .selectFrom('records')
      .select('id')
      .where('collection', '=', 'comment_reaction')
      .where(sql<string>`data->>'comment_id'`, '=', String(record.comment_id))
      .where('created_by', '=', scope.userId)
      .where(sql<string>`data->>'reaction'`, '=', String(record.reaction))
      .executeTakeFirst();
    if (twin) throw validation([`reaction: you already reacted with ${String(record.reaction)}`]);
  },
};

const ownTimeEntries = ownedBy('created_by');
const timeEntryRules: CollectionRules = {
  ...ownTimeEntries,
  // Viewing is the permission to track time, so a visitor of a public board must not pass: guests
  // (people outside the workspace) do not track time.
  async authorize(ctx, byDefault) {
    if (ctx.scope.viewer.role === 'guest') throw unauthorized();
    await ownTimeEntries.authorize!(ctx, byDefault);
  },
  prepare(ctx) {
    const problems = startProblems(ctx.record, ctx.existing);
    if (problems.length) throw validation(problems);
  },
  beforeWrite: (ctx) => endRunningEntries(ctx),
  afterSave: (scope, record) => publishTimeEntry(scope, record),
};

/** Attributes: a caller's own name attribute replaces the one the server gave its board (decision 0170). */
const attributeRules: CollectionRules = {
  async authorize(ctx, byDefault) {
    await byDefault(ctx);
    await yieldServerPrimary(ctx.scope, ctx.record, ctx.existing);
  },
};

export const collectionRules: Partial<Record<SyncedCollectionName, CollectionRules>> = {
  folder: folderRules,
  attribute: attributeRules,
  folder_view: folderViewRules,
  comment: commentRules,
  comment_reaction: reactionRules,
  time_entry: timeEntryRules,
  automation: automationRules,
  button_click: buttonClickRules,
  doc_update: docUpdateRules,
};
