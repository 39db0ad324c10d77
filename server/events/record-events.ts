import type { WriteScope } from '../sync/scope';
import type { WireRecord } from '../sync/store';
import { itemIdOf, recordEvent, type EventRow, type RecordChange } from './outbox';

/**
 * The domain event of a record write in a sync write scope: what the record was (from the
 * scope's cache, which holds the stored copy every save reads first), what it becomes, who did it
 * and which item it belongs to. Call before the scope remembers the new copy. For a removal,
 * `record` is the stored copy being removed.
 */
export async function eventOfWrite(scope: WriteScope, collection: string, record: WireRecord, change: RecordChange): Promise<EventRow | null> {
  const previous = change === 'deleted' ? record : ((await scope.record(collection, record.id))?.data ?? null);
  let viaParent: unknown;
  if (collection === 'comment_reaction' && typeof record.comment_id === 'string') viaParent = (await scope.record('comment', record.comment_id))?.data.item_id;
  return recordEvent({ teamId: scope.team.id, collection, change, record, previous, actorId: scope.userId, itemId: itemIdOf(collection, record, viaParent), via: scope.via });
}
