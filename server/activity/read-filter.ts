import { sql } from 'kysely';
import type { Db, WireRecord } from '../sync/store';
import { loadReadContext, type ReadView } from '../sync/reads';
import type { DomainEvent } from '../events/types';

/**
 * Which events a reader may see: those of records the read rule (server/sync/reads.ts) lets them
 * read. An event is judged by its record as stored now (where it is now decides who reads it,
 * exactly as for an index load); a record removed for good is judged by its last copy, which
 * its `deleted` event holds. An event of a record known neither way is not shown (fail closed).
 * Workspace-level events (members) have no record and are not part of a board's log.
 */
export async function readableEvents(db: Db, view: ReadView, teamId: number, events: DomainEvent[]): Promise<DomainEvent[]> {
  const keys = events.filter((e) => e.collection && e.record_id).map((e) => ({ collection: e.collection!, id: e.record_id! }));
  const current = new Map<string, WireRecord>();
  if (keys.length) {
    const rows = await db
      .selectFrom('records')
      .select(['collection', 'id', 'data'])
      .where('team_id', '=', teamId)
      .where(sql<boolean>`(collection, id) in (select * from unnest(${keys.map((k) => k.collection)}::text[], ${keys.map((k) => k.id)}::text[]))`)
      .execute();
    for (const row of rows) current.set(`${row.collection}:${row.id}`, row.data as WireRecord);
  }
  // Records removed for good: their last copy, from their `deleted` event.
  const gone = keys.filter((k) => !current.has(`${k.collection}:${k.id}`));
  if (gone.length) {
    const rows = await db
      .selectFrom('domain_events')
      .select(['collection', 'record_id', 'before'])
      .where('team_id', '=', teamId)
      .where('type', 'like', '%.deleted')
      .where(sql<boolean>`(collection, record_id) in (select * from unnest(${gone.map((k) => k.collection)}::text[], ${gone.map((k) => k.id)}::text[]))`)
      .execute();
    for (const row of rows) if (row.before) current.set(`${row.collection}:${row.record_id}`, row.before as unknown as WireRecord);
  }
  const subjectOf = (event: DomainEvent): WireRecord | null => current.get(`${event.collection}:${event.record_id}`) ?? null;

  const byCollection = new Map<string, { event: DomainEvent; record: WireRecord }[]>();
  for (const event of events) {
    const record = event.collection ? subjectOf(event) : null;
    if (!record || typeof record.board_id !== 'string') continue;
    let list = byCollection.get(event.collection!);
    if (!list) byCollection.set(event.collection!, (list = []));
    list.push({ event, record });
  }
  const allowed = new Set<string>();
  for (const [collection, list] of byCollection) {
    const records = list.map((x) => x.record);
    const context = await loadReadContext(db, teamId, collection, records);
    for (const { event, record } of list) if (view.canRead(collection, record, context)) allowed.add(event.id);
  }
  return events.filter((e) => allowed.has(e.id));
}
