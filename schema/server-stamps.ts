/**
 * The fields the server stamps on every synced record it saves. None of them is an edit: two
 * copies that differ only in these are the same record, no merge takes one of them from a local
 * copy, and a save that changes nothing else is no change in the activity (issue #28: this list
 * was kept three times, in the sync worker, the field merge and the outbox, and drifted: 22f63bf).
 *
 * Used by sync-worker/merge.ts (is a request a change?), schema/sync-merge.ts (never merged) and
 * server/events/outbox.ts (what changed in an event).
 */
export const SERVER_STAMPED_FIELDS = [
  /** Raised by one on every accepted save: the version a conflict is judged by, never a value. */
  'row_version',
  /** Set once, when the record is first saved (server/sync/operations.ts keeps the stored one). */
  'created_at',
  /** The server's clock at each save. */
  'updated_at',
  /** Who made the last save (2a24ad7): the saver, not a field anyone edits. */
  'updated_by',
] as const;

export type ServerStampedField = (typeof SERVER_STAMPED_FIELDS)[number];
