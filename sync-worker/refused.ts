/**
 * Refused edits (decision 0094), the pure part: how a refusal becomes a `refusedEdits` row, how a
 * row is described to the user, and what a retry saves. No Dexie, no I/O.
 */
import type { QueuedRequest, RefusedEdit, SyncRecord } from './types';

/**
 * The row for a refused request and the later requests of the same record (built on it, so they
 * cannot go either). A record that already has a row keeps its first `old` and `created_at`: the
 * row then holds everything the user meant since the server first said no.
 */
export function refusedEditOf(
  existing: RefusedEdit | undefined,
  refused: QueuedRequest,
  later: QueuedRequest[],
  status: number,
  message: string,
  now: number,
): RefusedEdit {
  const chain = [refused, ...later];
  const latest = chain[chain.length - 1]!;
  return {
    collection: refused.collection,
    id: refused.id,
    teamId: latest.teamId,
    method: latest.method,
    route: latest.route,
    item: latest.method === 'delete' ? null : latest.item,
    old: existing ? existing.old : refused.old,
    status,
    message,
    refused_at: now,
    created_at: existing ? existing.created_at : refused.created_at,
    requests: [...(existing?.requests ?? []), ...chain],
  };
}

/**
 * What a retry saves: the user's intended record without the local table's tag. The engine saves
 * it over the current local copy (or, when the replica no longer has one, over the copy the edit
 * first replaced), so row_version becomes that copy's plus one: the version the server expects.
 */
export function retryRecord(entry: RefusedEdit): SyncRecord | null {
  if (!entry.item) return null;
  const { collection: _collection, ...record } = entry.item as SyncRecord & { collection?: string };
  return record as SyncRecord;
}

/** A row as the app lists it: the entry and words to recognise the record by. */
export interface RefusedEditView {
  collection: string;
  id: string;
  method: RefusedEdit['method'];
  status: number;
  message: string;
  refused_at: number;
  created_at: number;
  item: SyncRecord | null;
  old: SyncRecord | null;
  label: RefusedLabel;
}

/** The record in words: its item's name, the attribute's name and the value, where they apply. */
export interface RefusedLabel {
  item: string | null;
  attribute: string | null;
  value: string | null;
}

export type RecordLookup = (collection: string, id: string) => SyncRecord | null | undefined;

const MAX_VALUE_CHARS = 120;

/** A value (any JSON) as a short line of text. */
export function valueText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

const nameOf = (record: SyncRecord | null | undefined): string | null =>
  record && typeof record.name === 'string' && record.name ? record.name : null;

/** Describes an entry by the records it names (looked up in the replica, else in the entry itself). */
export function refusedLabel(entry: Pick<RefusedEdit, 'collection' | 'item' | 'old'>, lookup: RecordLookup): RefusedLabel {
  const record = entry.item ?? entry.old;
  const field = (name: string) => (record && typeof record[name] === 'string' ? (record[name] as string) : null);
  const itemName = (id: string | null) => (id ? nameOf(lookup('item', id)) : null);
  const attributeName = (id: string | null) => (id ? nameOf(lookup('attribute', id)) : null);
  switch (entry.collection) {
    case 'item':
      return { item: nameOf(record), attribute: null, value: null };
    case 'value':
      return { item: itemName(field('item_id')), attribute: attributeName(field('attribute_id')), value: entry.item ? valueText(entry.item.value) : null };
    case 'comment':
      return { item: itemName(field('item_id')), attribute: null, value: valueText(commentText(record?.text)) };
    case 'attribute':
      return { item: null, attribute: nameOf(record), value: null };
    default:
      return { item: itemName(field('item_id')) ?? nameOf(record), attribute: null, value: null };
  }
}

/** A comment's text ({html}) as plain words. */
function commentText(text: unknown): string | null {
  const html = text && typeof text === 'object' && typeof (text as { html?: unknown }).html === 'string' ? (text as { html: string }).html : null;
  return html === null ? null : html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The entry as text for the clipboard: what the user meant, readable and complete (JSON). */
export function refusedEditText(entry: Pick<RefusedEditView, 'collection' | 'id' | 'method' | 'status' | 'message' | 'item' | 'label'>): string {
  return JSON.stringify(
    {
      collection: entry.collection,
      id: entry.id,
      method: entry.method,
      ...(entry.label.item ? { item: entry.label.item } : {}),
      ...(entry.label.attribute ? { attribute: entry.label.attribute } : {}),
      server: { status: entry.status, message: entry.message },
      record: entry.item ? stripTag(entry.item) : null,
    },
    null,
    2,
  );
}

function stripTag(record: SyncRecord): SyncRecord {
  const { collection: _collection, ...rest } = record as SyncRecord & { collection?: string };
  return rest as SyncRecord;
}
