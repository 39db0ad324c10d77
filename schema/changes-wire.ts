import type { ChangeOp, DeltaChange, SyncedCollectionName } from './collections';

/**
 * The lean wire format of a /changes page (format 2, decision 0320, docs/sync-protocol.md).
 *
 * Format 1 (the default, what a client that does not ask gets) sends each change as
 * `{"collection","id","op","record":{...}}`: on a page of 5,000 item changes every change repeats
 * the four envelope keys, its id twice and every field name of its record (~360 bytes, 1.8 MB a
 * page). A client catching up has to gunzip, decode and JSON.parse all of it; in a herd of
 * clients reconnecting at once that was most of the time (bench/scale-out.ts).
 *
 * Format 2 (`GET /api/{team}/changes?after=…&format=2`) says each distinct (collection, op, field
 * names in order) once per answer, in `shapes`, and each change as a JSON array: the index of its
 * shape, then its record's values in the shape's field order. Nothing is left out or guessed:
 * decoding gives the very records format 1 sends (the same keys in the same order, nulls
 * included). The answer's other fields (`cursor`, `has_more`, `server_id`) are as in format 1, and
 * `format: 2` says which one it is (a server that does not know the parameter answers format 1,
 * which the client still reads).
 *
 * - `[s, v0, v1, …]`: shapes[s] = [collection, op, keys]: the record is {keys[i]: v_i}; its id is
 *   the record's `id`.
 * - `[s, v0, …, v(n-1), id]`: the same with one value more: the change's id, when it is not the
 *   record's `id` (never for the collections there are; kept so the format can say it).
 * - `[s, id]` with shapes[s] = [collection, 'deleted', null]: gone for good (record null).
 *
 * Each change starts on a line of its own (a newline before it, JSON whitespace): a newline can
 * appear in JSON text only as whitespace, so a reader can count a page's changes on its bytes.
 */
export const CHANGES_FORMAT = 2;

/** One shape: collection, op, and the record's field names in order (null: no record). */
export type ChangeShape = [collection: string, op: ChangeOp, keys: string[] | null];

export interface LeanDeltaResponse {
  format: 2;
  shapes: ChangeShape[];
  data: unknown[][];
  cursor: number;
  has_more?: boolean;
  server_id?: string;
}

/** A change as the server encodes it: its shape (as a key) and its values' JSON, made once. */
export interface EncodedChange {
  /** JSON of the shape (`["item","saved",["id",…]]`): the key shapes are told apart by. */
  shape: string;
  /** The JSON of the values after the shape index, with their leading comma (`,"a",1`). */
  values: string;
}

/** Encodes one change (made once per change and shared by every answer it goes to). */
export function encodeChange(collection: string, id: string, op: ChangeOp, record: Record<string, unknown> | null): EncodedChange {
  if (record === null) return { shape: JSON.stringify([collection, op, null]), values: `,${JSON.stringify(id)}` };
  const keys = Object.keys(record);
  let values = '';
  for (const key of keys) {
    const value = record[key];
    // JSON.stringify drops undefined members of objects; a record read from the database has none,
    // but say null rather than write invalid JSON should one appear.
    values += `,${value === undefined ? 'null' : JSON.stringify(value)}`;
  }
  if (record.id !== id) values += `,${JSON.stringify(id)}`;
  return { shape: JSON.stringify([collection, op, keys]), values };
}

/** The JSON text of a format-2 answer from encoded changes (shapes numbered in order of first use). */
export function leanAnswerJson(changes: readonly EncodedChange[], cursor: number, hasMore: boolean, serverId: string): string {
  const shapes = new Map<string, number>();
  const rows: string[] = new Array(changes.length);
  for (let i = 0; i < changes.length; i += 1) {
    const change = changes[i]!;
    let s = shapes.get(change.shape);
    if (s === undefined) shapes.set(change.shape, (s = shapes.size));
    rows[i] = `\n[${s}${change.values}]`;
  }
  return `{"format":2,"shapes":[${[...shapes.keys()].join(',')}],"data":[${rows.join(',')}],"cursor":${cursor},"has_more":${hasMore},"server_id":${JSON.stringify(serverId)}}`;
}

/**
 * The changes of an answer in either format, as format 1 has them. Throws on a row that does not
 * fit its shape (a broken answer is not applied in part).
 */
export function decodeChanges(body: { format?: number; shapes?: ChangeShape[]; data: unknown[] }): DeltaChange[] {
  if (body.format !== 2) return body.data as DeltaChange[];
  const shapes = body.shapes ?? [];
  const rows = body.data as unknown[][];
  const out: DeltaChange[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const shape = shapes[row[0] as number];
    if (!Array.isArray(row) || !shape) throw new Error(`changes: row ${i} names no shape`);
    const [collection, op, keys] = shape;
    if (keys === null) {
      if (row.length !== 2 || typeof row[1] !== 'string') throw new Error(`changes: row ${i} is not a removal`);
      out[i] = { collection: collection as SyncedCollectionName, id: row[1], op, record: null };
      continue;
    }
    if (row.length !== keys.length + 1 && row.length !== keys.length + 2) throw new Error(`changes: row ${i} does not fit its shape`);
    const record: Record<string, unknown> = {};
    // A field named __proto__ would set the prototype by assignment; JSON.parse makes it a field.
    if (keys.includes('__proto__')) for (let k = 0; k < keys.length; k += 1) Object.defineProperty(record, keys[k]!, { value: row[k + 1], enumerable: true, writable: true, configurable: true });
    else for (let k = 0; k < keys.length; k += 1) record[keys[k]!] = row[k + 1];
    out[i] = { collection: collection as SyncedCollectionName, id: row.length === keys.length + 2 ? String(row[keys.length + 1]) : String(record.id), op, record };
  }
  return out;
}
