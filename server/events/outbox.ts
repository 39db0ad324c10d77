import { sql, type RawBuilder } from 'kysely';
import type { Db, WireRecord } from '../sync/store';
import type { DomainEventType } from './types';
import { registerFloor } from '../sync/cursor';
import { SERVER_STAMPED_FIELDS } from '../../schema/server-stamps';

/**
 * The transactional outbox: builds the domain events of a write and appends them in the write's
 * own statement or transaction (decision 0110). A write that fails or is rolled back leaves none.
 */

/** A domain event before it is stored (id and time come from the database statement). */
export interface EventRow {
  team_id: number;
  board_id: string | null;
  type: DomainEventType;
  collection: string | null;
  record_id: string | null;
  item_id: string | null;
  actor_id: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The automation (and its chain) that made the write, when Autobot did (server/automations). */
  via?: Record<string, unknown> | null;
}

const PREFIX: Record<string, string> = { comment_reaction: 'reaction', folder_view: 'view' };

/** Bookkeeping the server stamps on a save (schema/server-stamps.ts); never "what changed" on its own. */
const NOISE: ReadonlySet<string> = new Set(SERVER_STAMPED_FIELDS);

export type RecordChange = 'saved' | 'trashed' | 'restored' | 'deleted';

/** The changed fields of a record: their values before and after (bookkeeping left out). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (NOISE.has(key)) continue;
    const a = before[key] ?? null;
    const b = after[key] ?? null;
    if (a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b))) continue;
    was[key] = a;
    now[key] = b;
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}

/**
 * The event of one record write, or null when a save changed nothing but bookkeeping.
 * `previous` is the stored record before the write (null: it is new); `itemId` the item it
 * belongs to (see itemIdOf).
 */
export function recordEvent(args: {
  teamId: number;
  collection: string;
  change: RecordChange;
  record: WireRecord;
  previous: WireRecord | null;
  actorId: number | null;
  itemId: string | null;
  via?: Record<string, unknown> | null;
}): EventRow | null {
  const { teamId, collection, change, record, previous, actorId, itemId } = args;
  const prefix = PREFIX[collection] ?? collection;
  const base = { team_id: teamId, board_id: record.board_id, collection, record_id: record.id, item_id: itemId, actor_id: actorId, via: args.via ?? null };
  if (change === 'deleted') return { ...base, type: `${prefix}.deleted` as DomainEventType, before: previous ?? record, after: null };
  if (change === 'saved' && !previous) return { ...base, type: `${prefix}.created` as DomainEventType, before: null, after: record };
  const diff = changedFields(previous ?? {}, record);
  if (!diff && change === 'saved') return null;
  const verb = change === 'saved' ? 'updated' : change;
  return { ...base, type: `${prefix}.${verb}` as DomainEventType, before: diff?.before ?? {}, after: diff?.after ?? {} };
}

/**
 * The item a record belongs to, from the record itself: an item is its own, values, comments and
 * time entries name theirs. A reaction names its comment: pass the comment's item_id as `viaParent`.
 */
export function itemIdOf(collection: string, record: Record<string, unknown>, viaParent?: unknown): string | null {
  if (collection === 'item') return String(record.id);
  if (typeof record.item_id === 'string') return record.item_id;
  return typeof viaParent === 'string' ? viaParent : null;
}

/** The rows as the JSON parameter of eventsInsertSql (`ord` keeps their order). */
function eventsJson(rows: (EventRow & { ord?: number })[]): string {
  return JSON.stringify(rows.map((row, index) => ({ ord: index, ...row })));
}

/**
 * A data-modifying statement (for a WITH) appending events, stored only for rows of `written`
 * (a CTE returning `collection, id` of the records actually written): a save another transaction
 * overtook writes no record and so no event either. One statement for any number of events.
 */
export function eventsForWrittenSql(rows: EventRow[], now: Date): RawBuilder<unknown> {
  return sql`
    insert into domain_events (team_id, board_id, type, collection, record_id, item_id, actor_id, before, after, via, created_at)
    select e.team_id, e.board_id, e.type, e.collection, e.record_id, e.item_id, e.actor_id, e.before, e.after, e.via, ${now}
    from jsonb_to_recordset(${eventsJson(rows)}::jsonb)
      as e(ord integer, team_id integer, board_id text, type text, collection text, record_id text, item_id text, actor_id integer, before jsonb, after jsonb, via jsonb)
    where exists (select 1 from written w where w.collection = e.collection and w.id = e.record_id)
    order by e.ord
    returning 1`;
}

/** Appends events as a statement of their own (removals, member changes), in the caller's transaction. */
export async function appendEvents(db: Db, rows: EventRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into domain_events (team_id, board_id, type, collection, record_id, item_id, actor_id, before, after, via, created_at)
    select e.team_id, e.board_id, e.type, e.collection, e.record_id, e.item_id, e.actor_id, e.before, e.after, e.via, ${now}
    from jsonb_to_recordset(${eventsJson(rows)}::jsonb)
      as e(ord integer, team_id integer, board_id text, type text, collection text, record_id text, item_id text, actor_id integer, before jsonb, after jsonb, via jsonb)
    order by e.ord`.execute(db);
}

/**
 * For a transaction that is not a sync write (member changes): registers the writer floor before
 * the event takes its number, so consumers never pass an id this transaction still holds
 * (server/sync/cursor.ts). Call once, before appendEvents.
 */
export async function registerEventFloor(db: Db): Promise<void> {
  await sql`select ${registerFloor}`.execute(db);
}
