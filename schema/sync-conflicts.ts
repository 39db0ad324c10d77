/**
 * The conflict inbox's records (issue 30, decision 0345): what the sync worker keeps in its
 * `conflicts` table when a save of this user lost a field to another user's save, and what the
 * inbox lists beside it from `refusedEdits` (edits the server refused for good). Pure types and
 * small helpers: the worker writes these rows, the tab reads them (useLiveQuery on the read-only
 * replica, or the engine's `conflictInbox()`), nothing else does.
 *
 * Contract (docs/sync-protocol.md "Merge"): this shape only grows; fields are never renamed.
 */

/** `field`: one field both sides changed to different values. `record`: the whole record (one side deleted it, or a row kept from before field merge). */
export type ConflictKind = 'field' | 'record';

export interface ConflictRecord {
  /** Key of the row (IndexedDB autoincrement); absent only before it is stored. */
  seq?: number;
  kind: ConflictKind;
  /** Synced collection of the record ('item', 'value', 'folder', …). */
  collection: string;
  /** The record's id (for a value: "{item_id}.{attribute_id}"). */
  id: string;
  /** The item the record belongs to: the item itself, a value's/comment's item; null when none. */
  item_id: string | null;
  /** For a value: its attribute (the UI shows the attribute's name as the field). Else null. */
  attribute_id: string | null;
  /** The record field both sides changed ('name', 'position', for a value 'value'); null for kind 'record'. */
  field: string | null;
  /** True when the field holds text (name, description, comment text): the inbox may show it side by side. */
  text: boolean;
  /** This user's value (what the losing edit meant); for kind 'record', the whole local copy (null: a delete). */
  mine: unknown;
  /** The value the server holds (adopted locally); for kind 'record', the server's copy (null: gone). */
  theirs: unknown;
  /** The value both started from (the version the queued edit was made on); undefined/null when the record was new. */
  base: unknown;
  /** Who saved theirs: the server record's `updated_by`; for a first version its author (`created_by`/`user_id`); else null. */
  theirs_by: number | string | null;
  /** When theirs was saved (the server record's updated_at), else null. */
  theirs_at: string | null;
  /** row_version of the server copy the conflict was recorded against. */
  theirs_row_version: number | null;
  /** The workspace the record's edit was queued for ("Keep mine" saves there). */
  team_id?: number;
  /** When the conflict was recorded (ms since epoch). Indexed. */
  time: number;
  /** The whole local copy the user meant (latest queued edit of the record), kept for 'record' rows and for support. */
  local: Record<string, unknown> | null;
  /** The whole server copy as the 409 carried it. */
  remote: Record<string, unknown> | null;
  /**
   * The row's name on the server's list of this user's conflicts (decision 0346): the same on every
   * device of the user, so a conflict settled on one device leaves the others. Set when the row is
   * first reported; absent on rows from before.
   */
  key?: string;
  /** True once the server holds the row (reported from this device, or pulled from the server). */
  reported?: boolean;
}

/**
 * A conflict as the server keeps it for its user (POST /api/{teamId}/conflicts, GET
 * /api/me/conflicts; decision 0346): the row's fields that mean something on another device. The
 * whole local copy is not sent (it can be large and is this device's), `remote` neither.
 */
export const CONFLICT_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export interface ServerConflict {
  key: string;
  team_id: number;
  kind: ConflictKind;
  collection: string;
  id: string;
  item_id: string | null;
  attribute_id: string | null;
  field: string | null;
  text: boolean;
  mine: unknown;
  theirs: unknown;
  base: unknown;
  theirs_by: number | null;
  theirs_at: string | null;
  theirs_row_version: number | null;
  /** When the losing device recorded it (ISO). */
  created_at: string;
}

/** The realtime event on the user's channel (private-App.User.{id}) when their server-side conflict list changed. */
export const CONFLICTS_CHANGED_EVENT = 'ConflictsChanged';

/** How a conflict is settled: mine is re-applied as a new edit over the current copy; theirs drops the row. */
export type ConflictChoice = 'mine' | 'theirs';

/** Why the server refused an edit, as the inbox says it in plain words (the UI translates each). */
export type RefusedReason = 'permission' | 'deleted' | 'validation' | 'quota' | 'dependent' | 'other';

/** Plain English for each reason (the UI shows its own Lingui text; these are for logs, exports and tests). */
export const REFUSED_REASON_TEXT: Record<RefusedReason, string> = {
  permission: 'You no longer have permission to make this change.',
  deleted: 'The record was deleted before your change reached the server.',
  validation: 'The server did not accept the value (a rule changed or the value is not valid).',
  quota: 'The workspace has reached a limit of its plan or storage.',
  dependent: 'Not applied: the action was built on an edit that was not saved.',
  other: 'The server refused the change.',
};

/** The reason for a refusal, from its HTTP status and the server's message. */
export function refusedReasonOf(status: number, message = ''): RefusedReason {
  if (status === 424) return 'dependent';
  if (status === 402 || status === 413 || /quota|limit|storage|upgrade/i.test(message)) return 'quota';
  if (status === 401 || status === 403) return 'permission';
  if (status === 404 || status === 410) return 'deleted';
  if (status === 400 || status === 422) return 'validation';
  return 'other';
}

/** The names the inbox shows a record by, looked up in the replica when listed. */
export interface InboxLabel {
  /** The item's name (null: no item, or not in the replica). */
  item: string | null;
  /** The field in words: the attribute's name for a value, else the field name ('name', 'position'). */
  field: string | null;
  /** A value's attribute as the replica holds it (its kind and options), so the inbox shows option names, not ids. */
  attribute?: { id: string; name: string; kind: string; settings: unknown } | null;
  /** Names of the items a reference value points at (id → name), from the replica. */
  items?: Record<string, string>;
}

/** One row of the conflict inbox as the engine lists it (conflicts first by time, then refused edits). */
export type InboxEntry =
  | ({ type: 'conflict'; seq: number; label: InboxLabel } & Omit<ConflictRecord, 'seq'>)
  | {
      type: 'refused';
      collection: string;
      id: string;
      item_id: string | null;
      attribute_id: string | null;
      method: 'put' | 'delete' | 'restore';
      status: number;
      /** The server's own message (may be technical); `reason` is what to show. */
      message: string;
      reason: RefusedReason;
      /** The value kept: what the user meant the record to be (null for a delete). */
      item: Record<string, unknown> | null;
      time: number;
      label: InboxLabel;
    };

/** A stored conflict row with the names it is known by (the `conflict` event's payload). */
export type NamedConflict = ConflictRecord & { seq: number; label: InboxLabel };

/** The event every tab gets when the conflicts table changed (recorded, resolved): the new count. */
export interface ConflictsChanged {
  count: number;
  /** Rows added by this change, named (for the toast: "… overlapped on {item}: {field}"). */
  added: NamedConflict[];
  /** Keys of rows resolved or dropped by this change. */
  removed: number[];
}
