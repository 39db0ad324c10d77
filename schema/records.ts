import { z } from 'zod';

/**
 * The synced record kinds and their zod validators, shared by the server (authoritative
 * validation) and the sync worker (types, local checks). See docs/sync-protocol.md.
 *
 * Objects are strict: a field not named here is refused (422 naming it), never stored. Loose
 * records let a body plant a `folder_id` on a value or comment that the permission check then
 * believed, and let any junk ride into every replica (docs/decisions/0091-permissions-from-stored-records.md).
 * A new display field is added here first. Free-form maps (an attribute's or a view's `settings`)
 * stay maps, bounded in size. Fields the server owns (team_id, created_by, created_at, updated_at, updated_by, deleted_at,
 * user_id of a reaction) are accepted and overwritten by the server on save whatever the client
 * sends, so a client may send back the copy it read.
 */

/** Client-generated ids: nanoid's alphabet; a value's id joins two ids with a dot (see valueIdFor). */
export const RECORD_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})?$/;
export const recordId = z.string().regex(RECORD_ID_PATTERN, 'must be a client id (letters, digits, _ and -)');
const isoTime = z.iso.datetime({ offset: true });
const userId = z.number().int().positive();
const permissionEntries = z.record(z.string().min(1), z.enum(['allow', 'deny']));

/** The largest `settings` map of an attribute or a view, as JSON (200 labels with synonyms fit). */
export const SETTINGS_MAX_CHARS = 256 * 1024;
/**
 * A free-form settings map, bounded: its keys are owned by the view or attribute kind (checked
 * there), so unknown keys stay allowed, but a map may not carry megabytes into every replica.
 */
const settingsMap = z
  .record(z.string().max(64), z.unknown())
  .refine((map) => JSON.stringify(map).length <= SETTINGS_MAX_CHARS, `settings may hold at most ${SETTINGS_MAX_CHARS / 1024} KB`);

/** The 422 text for fields a record does not have ("folder_id, junk: unknown field"). */
export const RecordMessages = {
  unknownFields: (keys: readonly string[]) => `${keys.join(', ')}: ${keys.length === 1 ? 'unknown field' : 'unknown fields'}`,
} as const;

/** What every synced record carries. Strict: see above; the error names the unknown fields. */
export const baseRecord = z.strictObject(
  {
    id: recordId,
    /** Conflict counter: a new record starts at 0, its first save carries 1, each save adds one. */
    row_version: z.number().int().min(0),
    created_at: isoTime.optional(),
    updated_at: isoTime.nullable().optional(),
    /** Server-owned: who saved this version (the write's author; decision 0346). Additive to the spec's generic record. */
    updated_by: z.number().int().positive().nullable().optional(),
    team_id: z.number().int().positive().optional(),
    /** Server-owned: set by the trash on collections that have one, dropped on the others. */
    deleted_at: isoTime.nullable().optional(),
    /** The root folder (board) the record lives in; a board's board_id is its own id. */
    board_id: recordId,
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? RecordMessages.unknownFields(issue.keys) : undefined) },
);

/** A folder; a board is a root folder (parent_id null, board_id = id). */
export const folderRecord = baseRecord.extend({
  parent_id: recordId.nullable(),
  name: z.string().trim().min(1, 'enter the board name').max(255),
  position: z.number().finite().default(0),
  hidden: z.boolean().default(false),
  is_public: z.boolean().default(false),
  /** Board/folder members (user ids). */
  user_ids: z.array(userId).default([]),
  permissions: permissionEntries.default({}),
  inherited_permissions: permissionEntries.optional(),
  final_permissions: z.array(z.string().min(1)).default([]),
  created_by: userId.nullable().optional(),
  deleted_at: isoTime.nullable().optional(),
});

export const FOLDER_VIEW_VISIBILITIES = ['shared', 'personal', 'locked'] as const;
export const folderViewRecord = baseRecord.extend({
  folder_id: recordId,
  name: z.string().trim().min(1).max(255),
  /** table, kanban, calendar, gantt, … (the view screens own the list). */
  kind: z.string().min(1).max(64),
  visibility: z.enum(FOLDER_VIEW_VISIBILITIES).default('shared'),
  owner_id: userId.nullable().optional(),
  position: z.number().finite().default(0),
  settings: settingsMap.default({}),
});

export const attributeRecord = baseRecord.extend({
  /** The folder (or board) the attribute is defined on. */
  folder_id: recordId,
  name: z.string().trim().min(1).max(255),
  /** label, members, date, long-text, email, reference, checkbox, button, attachments, custom-id, time-tracking, … */
  kind: z.string().min(1).max(64),
  position: z.number().finite().default(0),
  hidden: z.boolean().default(false),
  settings: settingsMap.default({}),
  deleted_at: isoTime.nullable().optional(),
});

export const itemRecord = baseRecord.extend({
  folder_id: recordId,
  name: z.string().max(10_000).default(''),
  position: z.number().finite().default(0),
  created_by: userId.nullable().optional(),
  deleted_at: isoTime.nullable().optional(),
});

/**
 * One value per item × attribute. Its id is derived (valueIdFor) so two clients creating the
 * same value offline collide on the id and the second gets a 409 instead of a duplicate.
 */
export const valueRecord = baseRecord
  .extend({
    item_id: recordId,
    attribute_id: recordId,
    value: z.json(),
  })
  .refine((v) => v.id === valueIdFor(v.item_id, v.attribute_id), {
    message: 'a value id must be "{item_id}.{attribute_id}"',
    path: ['id'],
  });

export function valueIdFor(itemId: string, attributeId: string): string {
  return `${itemId}.${attributeId}`;
}

/** The item a value id names (record ids have no dot: see recordId). */
export const itemOfValueId = (valueId: string): string => valueId.slice(0, valueId.indexOf('.'));
/** The attribute a value id names. */
export const attributeOfValueId = (valueId: string): string => valueId.slice(valueId.indexOf('.') + 1);

export const commentRecord = baseRecord.extend({
  item_id: recordId,
  parent_id: recordId.nullable().default(null),
  /** html is sanitised by the server before it is stored. */
  text: z.object({ html: z.string().min(1).max(100_000) }),
  pinned: z.boolean().default(false),
  created_by: userId.nullable().optional(),
  /** Server-owned: when the text was last rewritten (null if never); pinning is not an edit. */
  edited_at: isoTime.nullable().optional(),
});

export const commentReactionRecord = baseRecord.extend({
  comment_id: recordId,
  reaction: z.string().trim().min(1).max(64),
  user_id: userId.optional(),
});

export const timeEntryRecord = baseRecord.extend({
  item_id: recordId.nullable(),
  attribute_id: recordId.nullable(),
  description: z.string().max(10_000).nullable().default(null),
  started_at: isoTime,
  /** null while running. */
  ended_at: isoTime.nullable().default(null),
  created_by: userId.nullable().optional(),
});

export type BaseRecord = z.infer<typeof baseRecord>;
export type FolderRecord = z.infer<typeof folderRecord>;
export type FolderViewRecord = z.infer<typeof folderViewRecord>;
export type AttributeRecord = z.infer<typeof attributeRecord>;
export type ItemRecord = z.infer<typeof itemRecord>;
export type ValueRecord = z.infer<typeof valueRecord>;
export type CommentRecord = z.infer<typeof commentRecord>;
export type CommentReactionRecord = z.infer<typeof commentReactionRecord>;
export type TimeEntryRecord = z.infer<typeof timeEntryRecord>;

/** Time-tracking attribute settings (workspace.md §3). */
export const timeTrackingSettings = z.looseObject({
  allowParallel: z.boolean().default(false),
  sharedEntries: z.boolean().default(true),
});
export type TimeTrackingSettings = z.infer<typeof timeTrackingSettings>;
