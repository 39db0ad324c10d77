import type { CollectionDefinition } from '../../schema/collections';
import { RecordMessages } from '../../schema/records';
import { validation } from '../http/errors';
import type { StoredRecord } from './store';

/**
 * Record bodies are strict (schema/records.ts): a field the collection's schema does not name is
 * refused with a 422 naming it. One exception: a field the stored copy already holds. Records saved
 * before the schemas were strict may carry one, and a client that sends back the copy it read must
 * not be stuck with a 422 for ever; such a field is dropped, so the save also cleans the record.
 * Its value is never used (the permission chain comes from the stored parent, operations.ts).
 * docs/decisions/0091-permissions-from-stored-records.md
 */

/** The body's fields the collection's schema does not name. */
export function unknownFields(def: CollectionDefinition, body: Record<string, unknown>): string[] {
  const shape = (def.schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) return [];
  return Object.keys(body).filter((key) => !Object.hasOwn(shape, key));
}

/** The body without the given fields. */
export function withoutFields(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (fields.length === 0) return body;
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}

/** Throws the 422 for the unknown fields the stored copy does not already hold. */
export function refuseUnknownFields(unknown: readonly string[], existing: StoredRecord | null): void {
  const fresh = unknown.filter((field) => !existing || !Object.hasOwn(existing.data, field));
  if (fresh.length) throw validation([RecordMessages.unknownFields(fresh)]);
}
