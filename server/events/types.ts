import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { JobQueue } from '../jobs/types';

/**
 * Domain events: what changed, appended in the same transaction as the write that changed it (a
 * transactional outbox, table domain_events, migration 0100). Everything that reacts to a change
 * (notifications, activity, webhooks, automations) reads these through a consumer, never from a
 * route handler. docs/decisions/0110-events-and-jobs.md.
 *
 * Synced records: `{prefix}.{verb}` where prefix is the collection name, except comment_reaction →
 * `reaction` and folder_view → `view`; verbs: created, updated, trashed (into the trash),
 * restored (out of it), deleted (removed for good, cascades included), conflicted (a user's offline
 * edit of one field was replaced by another user's save: actor_id is whose edit lost, before
 * {field, value} their value, after {field, value, by, at} the value that stayed; server/sync/conflicts.ts).
 * Members: member.added, member.updated (role), member.removed.
 * Templates: template.shared (team_id = the workspace it was shared with, record_id = the template).
 * Storage: storage.changed (an upload counted against a workspace; before/after {used, limit} in
 *   bytes of its subscription, server/billing/storage-limit.ts).
 * Billing: invoice.paid (after: {invoice_id, user_id, subscription_id, amount, currency}).
 */
type RecordPrefix = 'item' | 'value' | 'comment' | 'reaction' | 'folder' | 'attribute' | 'view' | 'time_entry' | 'automation' | 'button_click' | 'doc_update';
type RecordVerb = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted' | 'conflicted';
export type DomainEventType = `${RecordPrefix}.${RecordVerb}` | 'member.added' | 'member.updated' | 'member.removed' | 'template.shared' | 'storage.changed' | 'invoice.paid' | 'item.followed';

export interface DomainEvent {
  /** bigint as a string; increasing in commit-safe order (consumers see them in id order). */
  id: string;
  team_id: number;
  /** The record's board; null for workspace-level events (members). */
  board_id: string | null;
  type: DomainEventType;
  /** The synced collection ('item', 'comment_reaction', …); null for members. */
  collection: string | null;
  /** The record's id (for members: the user id as a string). */
  record_id: string | null;
  /** The item the record belongs to: the item itself, or a value's/comment's/reaction's/time entry's item. */
  item_id: string | null;
  /** Who did it (null: the system). */
  actor_id: number | null;
  /** The changed fields' values before the write; null on create; the whole record on deleted. */
  before: Record<string, unknown> | null;
  /** The whole record on create, the changed fields on update/trash/restore, null on delete. */
  after: Record<string, unknown> | null;
  /** An automation's write: {automation_id, automation_name, chain: [{automation_id, item_id}]} (server/automations). */
  via?: Record<string, unknown> | null;
  /** ISO time of the write. */
  created_at: string;
}

/** What a consumer gets besides the event. */
export interface ConsumerContext {
  /**
   * The transaction the consumer's cursor advances in: write through it and your writes commit
   * exactly when the event counts as handled (so a re-run after a crash finds nothing done twice).
   */
  db: Transaction<Database> | Kysely<Database>;
  /** Enqueue follow-up work (mail, push) — pass `{ db }` above so it commits with the handling. */
  jobs: JobQueue;
  now(): Date;
}

/**
 * A consumer: receives every committed event at least once, in id order (so in order per record).
 * Throwing retries the event with backoff (the consumer waits on it; after the last attempt the
 * event is parked as a failed job and the consumer goes on).
 */
export type EventConsumer = (event: DomainEvent, ctx: ConsumerContext) => Promise<void>;
