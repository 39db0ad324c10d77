import { sql } from 'kysely';
import { nanoid } from 'nanoid';
import * as Y from 'yjs';
import { collections } from '../../schema/collections';
import type { AppContext } from '../context';
import type { EventConsumer } from '../events/types';
import { removeWithChildren, storeSaved } from '../sync/operations';
import { type PendingEvent } from '../sync/scope';
import { writeAs } from '../sync/actor';
import type { Db, StoredRecord, WireRecord } from '../sync/store';
import { fileReferencesOf } from './rules';

/**
 * Compaction of document bodies (decision 0135): the item's `doc_update` records are merged into
 * one (`Y.mergeUpdates`: the same document, smaller, nothing lost) that replaces them. The merged
 * update is saved first and the merged ones removed after it, in one transaction under the team
 * lock, so the change log never shows a reader fewer edits than before.
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

/** Merges an item's updates into one. Returns how many were merged (0: nothing to do). */
export async function compactDoc(ctx: AppContext, payload: CompactPayload): Promise<number> {
  const now = ctx.now();
  let events: PendingEvent[] = [];
  const merged = await ctx.db.transaction().execute(async (trx) => {
    const owner = await trx.selectFrom('teams').select('owner_id').where('id', '=', payload.team_id).executeTakeFirst();
    // The workspace owner is the actor and author of the merged copy (its content is everyone's).
    const acting = owner ? await writeAs(trx, payload.team_id, { userId: owner.owner_id }, now) : null;
    if (!acting) return 0;
    const { scope, team } = acting;
    await scope.lock('exclusive');
    const updates = await updatesOf(trx, team.id, payload.item_id);
    if (updates.length < 2) return 0;
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
      created_by: team.owner_id,
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
