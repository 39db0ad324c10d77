/**
 * Field-level three-way merge of synced records (issue 30, decision 0345): the one place that says,
 * for every synced collection, which fields merge and how two values of a field are compared.
 * Pure (no Dexie, no I/O): the sync worker runs it when a save comes back 409, the property tests
 * run it against a simulated server.
 *
 * For each merged field, with base = the copy the local edit started from:
 *   - only mine changed it (mine != base, theirs == base): mine is re-applied over theirs;
 *   - only theirs changed it, or both made it the same: theirs stays;
 *   - both changed it to different values: theirs stays and the field is a conflict (mine kept in
 *     the conflicts table, never dropped).
 * A value is its own record (one per item × attribute), so its one field `value` is compared whole.
 */
import type { SyncedCollectionName } from './collections';
import { sameValue } from './same-value';
import { SERVER_STAMPED_FIELDS } from './server-stamps';

/**
 * Fields no edit merges: the server's stamps (schema/server-stamps.ts), the record's identity and
 * place (id, team_id, board_id: a move is its own request), the trash mark (deleted_at: trash and
 * restore are their own requests) and the local table's tag (collection).
 */
const NEVER_MERGED = [...SERVER_STAMPED_FIELDS, 'id', 'team_id', 'board_id', 'deleted_at', 'collection'];

export interface MergeFieldSpec {
  /** Fields not merged (the server owns them, or they identify the record). */
  skip: readonly string[];
  /** Fields holding text (the inbox may show them side by side). */
  text: readonly string[];
}

const spec = (skip: string[], text: string[] = []): MergeFieldSpec => ({ skip: [...NEVER_MERGED, ...skip], text });

/** Every synced collection's merge rule. A collection added to the registry must be added here (typed). */
export const MERGE_FIELDS: Record<SyncedCollectionName, MergeFieldSpec> = {
  folder: spec(['created_by', 'inherited_permissions', 'final_permissions'], ['name']),
  folder_view: spec(['owner_id'], ['name']),
  attribute: spec([], ['name']),
  item: spec(['created_by'], ['name']),
  value: spec(['item_id', 'attribute_id']),
  comment: spec(['created_by', 'item_id', 'edited_at'], ['text']),
  comment_reaction: spec(['user_id', 'comment_id']),
  time_entry: spec(['created_by'], ['description']),
  automation: spec(['created_by']),
  button_click: spec(['created_by', 'item_id', 'attribute_id']),
  doc_update: spec(['created_by', 'item_id']),
};

const FALLBACK = spec([]);

export function mergeSpecOf(collection: string): MergeFieldSpec {
  return (MERGE_FIELDS as Record<string, MergeFieldSpec>)[collection] ?? FALLBACK;
}

export type Fields = Record<string, unknown>;

export interface FieldConflict {
  field: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

export interface MergeResult<R extends Fields = Fields> {
  /** Theirs with every field only mine changed re-applied (the copy to keep and, if `reapplied` is not empty, to save). */
  merged: R;
  /** Fields taken from mine (a new save over theirs is needed when not empty). */
  reapplied: string[];
  /** Fields both sides changed to different values: theirs is kept in `merged`. */
  conflicts: FieldConflict[];
}

/** The fields of a collection the merge looks at, given the copies at hand. */
function mergedFieldsOf(collection: string, ...copies: (Fields | null | undefined)[]): string[] {
  const skip = new Set(mergeSpecOf(collection).skip);
  const keys = new Set<string>();
  for (const copy of copies) if (copy) for (const key of Object.keys(copy)) if (!skip.has(key)) keys.add(key);
  return [...keys].sort();
}

/**
 * Merges mine into theirs field by field against base (null: the record was new on both sides,
 * every differing field is then a conflict). Neither input is changed.
 */
export function mergeThreeWay<R extends Fields>(collection: string, base: Fields | null, mine: Fields, theirs: R): MergeResult<R> {
  const merged: Fields = { ...theirs };
  const reapplied: string[] = [];
  const conflicts: FieldConflict[] = [];
  for (const field of mergedFieldsOf(collection, base, mine, theirs)) {
    // A field the local copy does not carry was not edited locally (a partial copy).
    if (!(field in mine)) continue;
    const b = base ? base[field] : undefined;
    const mineChanged = !sameValue(mine[field], b);
    if (!mineChanged) continue;
    const theirsChanged = !sameValue(theirs[field], b);
    if (!theirsChanged) {
      merged[field] = mine[field];
      reapplied.push(field);
    } else if (!sameValue(mine[field], theirs[field])) {
      conflicts.push({ field, base: b, mine: mine[field], theirs: theirs[field] });
    }
  }
  return { merged: merged as R, reapplied, conflicts };
}

/** True when the field holds text in this collection. */
export function isTextField(collection: string, field: string): boolean {
  return mergeSpecOf(collection).text.includes(field);
}
