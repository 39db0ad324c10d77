/**
 * The conflict inbox as the engine lists it (issue 30, decision 0345): conflict rows and refused
 * edits in one list, each with the names it is recognised by (the item's name, the field in words:
 * a value's attribute name, else the field). Pure: the engine passes the rows and a lookup.
 */
import { refusedReasonOf, type ConflictRecord, type InboxEntry, type InboxLabel } from '../schema/sync-conflicts';
import { itemIdOf } from './conflict-merge';
import type { RecordLookup } from './refused';
import type { RefusedEdit, SyncRecord } from './types';

const nameOf = (record: SyncRecord | null | undefined): string | null => (record && typeof record.name === 'string' && record.name ? record.name : null);

/** The [collection, id] pairs whose names the rows need. */
export function namesWanted(conflicts: ConflictRecord[], refused: RefusedEdit[]): [string, string][] {
  const wanted = new Map<string, [string, string]>();
  const add = (c: string, id: string | null) => id && wanted.set(`${c}\u0000${id}`, [c, id]);
  for (const c of conflicts) {
    add('item', c.item_id);
    add('attribute', c.attribute_id);
    // A reference value names other items: their names are looked up too (ids that are not items find nothing).
    if (c.collection === 'value') for (const id of idsIn(c.mine, c.theirs)) add('item', id);
  }
  for (const r of refused) {
    const record = r.item ?? r.old;
    add('item', itemIdOf(r.collection, record, r.id));
    if (typeof record?.attribute_id === 'string') add('attribute', record.attribute_id);
    if (r.collection === 'value') for (const id of idsIn(record?.value)) add('item', id);
  }
  return [...wanted.values()];
}

/** String ids inside a value or a list of them (a reference value's items), at most 50. */
function idsIn(...values: unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) for (const id of Array.isArray(v) ? v : [v]) if (typeof id === 'string' && id.length <= 64 && out.length < 50) out.push(id);
  return out;
}

function labelOf(collection: string, itemId: string | null, attributeId: string | null, field: string | null, own: SyncRecord | null, lookup: RecordLookup, values: unknown[] = []): InboxLabel {
  const item = collection === 'item' ? nameOf(lookup('item', itemId ?? '')) ?? nameOf(own) : itemId ? nameOf(lookup('item', itemId)) : null;
  const attributeRecord = attributeId ? lookup('attribute', attributeId) : null;
  const attribute = nameOf(attributeRecord);
  const label: InboxLabel = { item, field: attribute ?? (collection === 'value' ? attributeId : field) };
  if (attributeRecord && attributeId) label.attribute = { id: attributeId, name: attribute ?? '', kind: String(attributeRecord.kind ?? ''), settings: attributeRecord.settings ?? null };
  if (attributeRecord?.kind === 'reference') {
    const items: Record<string, string> = {};
    for (const id of idsIn(...values)) {
      const name = nameOf(lookup('item', id));
      if (name) items[id] = name;
    }
    label.items = items;
  }
  return label;
}

/** Conflicts first (oldest first), then refused edits (oldest first). */
export function inboxEntries(conflicts: ConflictRecord[], refused: RefusedEdit[], lookup: RecordLookup): InboxEntry[] {
  const out: InboxEntry[] = [];
  for (const c of [...conflicts].sort((a, b) => a.time - b.time)) {
    const own = (c.local ?? c.remote) as SyncRecord | null;
    out.push({ ...c, type: 'conflict', seq: c.seq ?? 0, label: labelOf(c.collection, c.item_id, c.attribute_id, c.field, own, lookup, [c.mine, c.theirs]) });
  }
  for (const r of [...refused].sort((a, b) => a.refused_at - b.refused_at)) {
    const record = r.item ?? r.old;
    const itemId = itemIdOf(r.collection, record, r.id);
    const attributeId = typeof record?.attribute_id === 'string' ? record.attribute_id : null;
    out.push({
      type: 'refused',
      collection: r.collection,
      id: r.id,
      item_id: itemId,
      attribute_id: attributeId,
      method: r.method,
      status: r.status,
      message: r.message,
      reason: refusedReasonOf(r.status, r.message),
      item: r.item,
      time: r.refused_at,
      label: labelOf(r.collection, itemId, attributeId, null, record, lookup, [record?.value]),
    });
  }
  return out;
}
