import { sql, type Transaction } from 'kysely';
import { nanoid } from 'nanoid';
import * as Y from 'yjs';
import { collections } from '../../schema/collections';
import type { AppContext } from '../context';
import type { EventConsumer } from '../events/types';
import type { Database } from '../db/types';
import type { PermissionLevel } from '../../schema/permissions';
import { allowed } from '../sync/access';
import { chainOf, removeWithChildren, storeSaved } from '../sync/operations';
import type { PendingEvent, WriteScope } from '../sync/scope';
import { writeAs, type ActorScope } from '../sync/actor';
import type { Db, StoredRecord, WireRecord } from '../sync/store';
import { fileReferencesOf } from './rules';

/**
 * Compaction of document bodies (decision 0135): the item's `doc_update` records are merged into
 * one (`Y.mergeUpdates`: the same document, smaller, nothing lost) that replaces them. The merged
 * update is saved first and the merged ones removed after it, in one transaction under the team
 * lock, so the change log never shows a reader fewer edits than before. It writes through writeAs
 * for the newest author who may still edit the item (decision 0341), never as the workspace owner.
 */

export const COMPACT_JOB = 'docs.compact';
/** Updates of one item arriving within this window are compacted by one job, at its end. */
export const COMPACT_WINDOW_MS = 10_000;

export interface CompactPayload {
  team_id: number;
  item_id: string;
}

/** The consumer: each new update asks for one compaction of its item per window (the job key). */
export const compactOnUpdate: EventConsumer = async (event, c) => {
  if (event.type !== 'doc_update.created' || !event.item_id) return;
  const windowEnd = Math.ceil((c.now().getTime() + 1) / COMPACT_WINDOW_MS) * COMPACT_WINDOW_MS;
  await c.jobs.enqueue(COMPACT_JOB, { team_id: event.team_id, item_id: event.item_id } satisfies CompactPayload, {
    key: `${event.item_id}:${windowEnd}`,
    runAt: new Date(windowEnd),
    maxAttempts: 5,
    db: c.db,
  });
};

/** The stored updates of an item, oldest first. */
export async function updatesOf(db: Db, teamId: number, itemId: string): Promise<StoredRecord[]> {
  const rows = await db
    .selectFrom('records')
    .selectAll()
    .where('collection', '=', 'doc_update')
    .where('team_id', '=', teamId)
    .where(sql<string>`data->>'item_id'`, '=', itemId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, collection: 'doc_update', data: row.data as WireRecord }) as unknown as StoredRecord);
}

/** A stored update record's Yjs bytes. */
export const decodeUpdate = (record: StoredRecord): Uint8Array => new Uint8Array(Buffer.from(String(record.data.update ?? ''), 'base64'));

/** An item's body as one Yjs update (empty document when it has none). */
export async function mergedState(db: Db, teamId: number, itemId: string): Promise<Uint8Array> {
  const updates = (await updatesOf(db, teamId, itemId)).map(decodeUpdate);
  return updates.length ? Y.mergeUpdates(updates) : Y.encodeStateAsUpdate(new Y.Doc());
}

/** The authors of an item's updates, the newest first (an update whose author is gone names none). */
function authorsOf(updates: StoredRecord[]): number[] {
  return [...new Set(updates.map((u) => u.created_by).reverse())].filter((id): id is number => typeof id === 'number');
}

/** Whether the actor may write the item's document now: EDIT_ITEM where the item is (the doc_update permissions). */
async function mayCompact(scope: WriteScope, update: StoredRecord): Promise<{ chain: PermissionLevel[]; owner: number | null } | null> {
  const itemId = String(update.data.item_id ?? '');
  const item = await scope.record('item', itemId);
  if (!item || item.team_id !== scope.team.id || item.deleted_at) return null;
  let chain: PermissionLevel[];
  try {
    chain = await chainOf(scope, collections.doc_update, update);
  } catch {
    return null; // its folder is gone or in the trash
  }
  const def = collections.doc_update;
  const owner = item.created_by;
  return allowed(scope.viewer, def.permissions.create, chain, owner) && allowed(scope.viewer, def.permissions.delete, chain, owner) ? { chain, owner } : null;
}

/**
 * Who a compaction acts for (decision 0341): the newest author of the item's updates who may still
 * edit the item now, judged through writeAs like every write outside a request. Nobody: the
 * compaction does nothing (the updates stay as they are; nothing is lost, the body only stays in
 * more records until someone who may edit it writes again).
 */
async function compactorOf(trx: Transaction<Database>, teamId: number, updates: StoredRecord[], now: Date, locked: ActorScope): Promise<{ acting: ActorScope; chain: PermissionLevel[]; owner: number | null } | null> {
  for (const userId of authorsOf(updates)) {
    const acting = userId === locked.scope.viewer.id ? locked : await writeAs(trx, teamId, { userId }, now, { locked: 'exclusive' });
    if (!acting) return null;
    const judged = await mayCompact(acting.scope, updates[0]!);
    if (judged) return { acting, ...judged };
  }
  return null;
}

/** Merges an item's updates into one. Returns how many were merged (0: nothing to do, or nobody it may act for). */
export async function compactDoc(ctx: AppContext, payload: CompactPayload): Promise<number> {
  const now = ctx.now();
  let events: PendingEvent[] = [];
  const merged = await ctx.db.transaction().execute(async (trx) => {
    // The team is held alone through the scope of the newest author; who the merge acts for is
    // then judged on the updates as they are under the lock.
    const newest = authorsOf(await updatesOf(trx, payload.team_id, payload.item_id))[0];
    const locking = newest === undefined ? null : await writeAs(trx, payload.team_id, { userId: newest }, now);
    if (!locking) return 0;
    await locking.scope.lock('exclusive');
    const updates = await updatesOf(trx, locking.team.id, payload.item_id);
    if (updates.length < 2) return 0;
    const compactor = await compactorOf(trx, locking.team.id, updates, now, locking);
    if (!compactor) return 0;
    const { scope, team } = compactor.acting;
    // The scope's own check, as a save's: create the merged copy and delete the merged ones.
    scope.require(collections.doc_update.permissions.create, compactor.chain, compactor.owner);
    scope.require(collections.doc_update.permissions.delete, compactor.chain, compactor.owner);
    const first = updates[0]!;
    const mergedBytes = Y.mergeUpdates(updates.map(decodeUpdate));
    const record: WireRecord = {
      id: nanoid(),
      board_id: first.board_id,
      item_id: payload.item_id,
      update: Buffer.from(mergedBytes).toString('base64'),
      // Merged updates keep deleted content (an undo may bring an image back): its files stay.
      files: fileReferencesOf(mergedBytes),
      row_version: 1,
      team_id: team.id,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      created_by: scope.userId,
    };
    await storeSaved(scope, collections.doc_update, record, null);
    for (const update of updates) await removeWithChildren(scope, update);
    await scope.finish();
    await scope.flushWrites();
    events = scope.events;
    return updates.length;
  });
  if (events.length) {
    ctx.jobs.kick();
    try {
      if (ctx.broadcaster.publishMany) await ctx.broadcaster.publishMany(events);
      else for (const e of events) await ctx.broadcaster.publish(e.channel, e.event, e.data);
    } catch (error) {
      // Realtime never fails a write: clients catch up through /changes.
      console.warn('docs compaction broadcast failed', error);
    }
  }
  return merged;
}
