import type { z } from 'zod';
import {
  attributeRecord,
  commentReactionRecord,
  commentRecord,
  folderRecord,
  folderViewRecord,
  itemRecord,
  timeEntryRecord,
  valueRecord,
} from './records';
import { automationRecord, buttonClickRecord } from './automation-records';
import { docUpdateRecord } from './doc-records';

/**
 * The collection registry: one entry per synced record kind, read by the server (routes,
 * validation, permissions, trash, broadcast) and by the sync worker (index address, Dexie
 * indexes, channel). One generic implementation on each side works from this table only.
 * Wire contract: docs/sync-protocol.md (DESIGN.md §3).
 */

export type SyncedCollectionName =
  | 'folder'
  | 'folder_view'
  | 'attribute'
  | 'item'
  | 'value'
  | 'comment'
  | 'comment_reaction'
  | 'time_entry'
  | 'automation'
  | 'button_click'
  | 'doc_update';

/** Collections owned by other modules (own endpoints), named here so nobody reuses the names. */
export const RESERVED_COLLECTIONS = ['workspace', 'notification', 'permission', 'hook'] as const;
export type ReservedCollectionName = (typeof RESERVED_COLLECTIONS)[number];
export type CollectionName = SyncedCollectionName | ReservedCollectionName;

/** Names of the permissions a collection's writes need (names of workspace.md §6). */
export interface CollectionPermissions {
  create: string;
  /** Editing a record. When `ownerField` is set and the user owns the record, `editOwn` applies. */
  edit: string;
  delete: string;
}

/** A record field that must name another record of the same board (checked on save). */
export interface CollectionReference {
  field: string;
  collection: SyncedCollectionName;
  /** A null/absent value is allowed (e.g. a top-level comment's parent_id). */
  optional?: boolean;
}

export interface CollectionDefinition<S extends z.ZodType = z.ZodType> {
  name: SyncedCollectionName;
  /** Path segment: /api/{teamId}/{route}. */
  route: string;
  schema: S;
  /** Deleting moves the record to trash (restorable) instead of removing it. */
  trash: boolean;
  /** Field holding the creator, for owner-scoped permissions (":owner" entries). */
  ownerField?: string;
  /** The record's owner is the owner of this referenced record (a value belongs to its item's creator). */
  ownerFrom?: CollectionReference;
  /** Fields the server always sets from the signed-in user (never trusted from the body). */
  userFields: string[];
  permissions: CollectionPermissions;
  /** Records this one points at, all in the same board. */
  references: CollectionReference[];
  /**
   * The record this one belongs to (a value's or comment's item, a reaction's comment). Its folder,
   * for permissions, is the one its stored parent is in, never a field of the body. Collections
   * without a parent sit in the folder of their own `folder_id` (or, a time entry of no item, the board).
   */
  parent?: CollectionReference;
  /**
   * When the body may omit board_id (spec bodies such as the reaction's {comment_id, reaction}),
   * the server takes it from this referenced record.
   */
  boardFrom?: CollectionReference;
  /** Dexie compound indexes the worker keeps for this collection (on the one `records` table). */
  dexieIndexes: string[];
}

/** The realtime channel of a board's record events (`saved`, `deleted`, `refresh`). */
export function boardChannel(teamId: number | string, boardId: string): string {
  return `private-team.${teamId}.board.${boardId}`;
}

/** The spec's per-board time-tracking channel (TimeEntrySaved events). */
export function timeTrackingChannel(teamId: number | string, boardId: string): string {
  return `private-user.${teamId}.${boardId}.timeTracking`;
}

/** Events on a board channel; payload is {collection, data}. */
export const BOARD_EVENTS = { saved: 'saved', deleted: 'deleted', refresh: 'refresh' } as const;

function define<S extends z.ZodType>(def: CollectionDefinition<S>): CollectionDefinition<S> {
  return def;
}

export const collections = {
  folder: define({
    name: 'folder',
    route: 'folders',
    schema: folderRecord,
    trash: true,
    ownerField: 'created_by',
    userFields: ['created_by'],
    permissions: { create: 'CREATE_FOLDER', edit: 'EDIT_FOLDER', delete: 'DELETE_FOLDER' },
    references: [{ field: 'parent_id', collection: 'folder', optional: true }],
    dexieIndexes: ['[collection+board_id]'],
  }),
  folder_view: define({
    name: 'folder_view',
    route: 'folder-views',
    schema: folderViewRecord,
    trash: false,
    ownerField: 'owner_id',
    userFields: [],
    permissions: { create: 'CREATE_VIEW', edit: 'CUSTOMIZE_VIEW', delete: 'DELETE_VIEW' },
    references: [{ field: 'folder_id', collection: 'folder' }],
    dexieIndexes: ['[collection+board_id]'],
  }),
  attribute: define({
    name: 'attribute',
    route: 'attributes',
    schema: attributeRecord,
    trash: true,
    userFields: [],
    permissions: { create: 'MANAGE_ATTRIBUTES', edit: 'MANAGE_ATTRIBUTES', delete: 'MANAGE_ATTRIBUTES' },
    references: [{ field: 'folder_id', collection: 'folder' }],
    dexieIndexes: ['[collection+board_id]'],
  }),
  item: define({
    name: 'item',
    route: 'items',
    schema: itemRecord,
    trash: true,
    ownerField: 'created_by',
    userFields: ['created_by'],
    permissions: { create: 'CREATE_ITEM', edit: 'EDIT_ITEM', delete: 'DELETE_ITEM' },
    references: [{ field: 'folder_id', collection: 'folder' }],
    dexieIndexes: ['[collection+board_id]'],
  }),
  value: define({
    name: 'value',
    route: 'values',
    schema: valueRecord,
    trash: false,
    // Values are part of their item: editing a value is editing the item (owner = item's creator).
    userFields: [],
    ownerFrom: { field: 'item_id', collection: 'item' },
    parent: { field: 'item_id', collection: 'item' },
    permissions: { create: 'EDIT_ITEM', edit: 'EDIT_ITEM', delete: 'EDIT_ITEM' },
    references: [
      { field: 'item_id', collection: 'item' },
      { field: 'attribute_id', collection: 'attribute' },
    ],
    dexieIndexes: ['[collection+board_id]', '[collection+item_id]', '[collection+attribute_id]'],
  }),
  comment: define({
    name: 'comment',
    route: 'comments',
    schema: commentRecord,
    trash: false,
    ownerField: 'created_by',
    userFields: ['created_by'],
    parent: { field: 'item_id', collection: 'item' },
    permissions: { create: 'ADD_COMMENT', edit: 'ADD_COMMENT', delete: 'DELETE_COMMENT' },
    references: [
      { field: 'item_id', collection: 'item' },
      { field: 'parent_id', collection: 'comment', optional: true },
    ],
    boardFrom: { field: 'item_id', collection: 'item' },
    dexieIndexes: ['[collection+board_id]', '[collection+item_id]'],
  }),
  comment_reaction: define({
    name: 'comment_reaction',
    route: 'comment-reaction',
    schema: commentReactionRecord,
    trash: false,
    ownerField: 'user_id',
    userFields: ['user_id'],
    parent: { field: 'comment_id', collection: 'comment' },
    permissions: { create: 'ADD_REACTION', edit: 'ADD_REACTION', delete: 'ADD_REACTION' },
    references: [{ field: 'comment_id', collection: 'comment' }],
    boardFrom: { field: 'comment_id', collection: 'comment' },
    dexieIndexes: ['[collection+board_id]'],
  }),
  time_entry: define({
    name: 'time_entry',
    route: 'time-tracking',
    schema: timeEntryRecord,
    trash: false,
    ownerField: 'created_by',
    userFields: ['created_by'],
    // Anyone who may view the board tracks their own time; others' entries are read-only.
    parent: { field: 'item_id', collection: 'item', optional: true },
    permissions: { create: 'VIEW_BOARD', edit: 'VIEW_BOARD', delete: 'VIEW_BOARD' },
    references: [
      { field: 'item_id', collection: 'item', optional: true },
      { field: 'attribute_id', collection: 'attribute', optional: true },
    ],
    dexieIndexes: ['[collection+board_id]', '[collection+item_id]'],
  }),
  /** A board's automation rules (schema/automations.ts, docs/automations.md). */
  automation: define({
    name: 'automation',
    route: 'automations',
    schema: automationRecord,
    trash: false,
    ownerField: 'created_by',
    userFields: ['created_by'],
    permissions: { create: 'MANAGE_AUTOMATIONS', edit: 'MANAGE_AUTOMATIONS', delete: 'MANAGE_AUTOMATIONS' },
    references: [],
    dexieIndexes: ['[collection+board_id]'],
  }),
  /** A click of a Button attribute: its `created` event runs the button's automations. */
  button_click: define({
    name: 'button_click',
    route: 'button-clicks',
    schema: buttonClickRecord,
    trash: false,
    userFields: ['created_by'],
    ownerFrom: { field: 'item_id', collection: 'item' },
    parent: { field: 'item_id', collection: 'item' },
    permissions: { create: 'EDIT_ITEM', edit: 'EDIT_ITEM', delete: 'EDIT_ITEM' },
    references: [
      { field: 'item_id', collection: 'item' },
      { field: 'attribute_id', collection: 'attribute' },
    ],
    dexieIndexes: ['[collection+board_id]', '[collection+item_id]'],
  }),
  /**
   * One edit of an item's document body, a Yjs update (decision 0135): created, never changed. The
   * body is the union of the item's updates; the server compacts them into one now and then.
   */
  doc_update: define({
    name: 'doc_update',
    route: 'doc-updates',
    schema: docUpdateRecord,
    trash: false,
    userFields: ['created_by'],
    ownerFrom: { field: 'item_id', collection: 'item' },
    parent: { field: 'item_id', collection: 'item' },
    permissions: { create: 'EDIT_ITEM', edit: 'EDIT_ITEM', delete: 'EDIT_ITEM' },
    references: [{ field: 'item_id', collection: 'item' }],
    dexieIndexes: ['[collection+board_id]', '[collection+item_id]'],
  }),
} satisfies Record<SyncedCollectionName, CollectionDefinition>;

export const collectionList: CollectionDefinition[] = Object.values(collections);

export function collectionByRoute(route: string): CollectionDefinition | undefined {
  return collectionList.find((c) => c.route === route);
}

export function collectionByName(name: string): CollectionDefinition | undefined {
  return (collections as Record<string, CollectionDefinition>)[name];
}

/**
 * The worker's one `records` table: primary key and the union of every collection's indexes,
 * as a Dexie store string. Records are stored as {collection, ...record}. There is no plain
 * `collection` index: a range of the primary key ([collection, minKey]..[collection, maxKey])
 * reads one collection, and every index is one more write per record in the bootstrap.
 */
export const DEXIE_RECORDS_PRIMARY_KEY = '[collection+id]';
export const dexieRecordsIndexes: string[] = [...new Set(collectionList.flatMap((c) => c.dexieIndexes))].sort();
export const dexieRecordsStore = [DEXIE_RECORDS_PRIMARY_KEY, ...dexieRecordsIndexes].join(', ');

/** The index address the worker loads a collection from (GET, answers {data, cursor}). */
export function indexAddress(teamId: number | string, def: CollectionDefinition, boardId: string): string {
  return `/api/${teamId}/${def.route}?board_id=${encodeURIComponent(boardId)}`;
}

/** Ops on the wire (delta answers and realtime events). */
export type ChangeOp = 'saved' | 'deleted';
export interface DeltaChange {
  collection: SyncedCollectionName;
  id: string;
  op: ChangeOp;
  /** Latest copy for `saved`; for `deleted` the trashed copy (with deleted_at) or null when gone. */
  record: Record<string, unknown> | null;
}
export interface DeltaResponse {
  data: DeltaChange[];
  cursor: number;
  has_more?: boolean;
  /** The database's identity (decision 0102). */
  server_id?: string;
}
export interface BatchRequest {
  method: 'put' | 'delete' | 'post';
  /** Relative to /api/{teamId}/, e.g. "items/abc", "items" (save-multiple), "items/abc/restore". */
  route: string;
  payload?: unknown;
}
export interface BatchBody {
  transaction: string | null;
  requests: BatchRequest[];
}
export interface BatchResult {
  status: number;
  data: unknown;
}
