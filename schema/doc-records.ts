import { z } from 'zod';
import { baseRecord, recordId } from './records';

/**
 * The synced record of document bodies (decision 0135). A body is a Yjs document: each edit
 * travels as a create-only `doc_update` record (Yjs binary as base64); the body is the union of
 * an item's updates, which the server compacts into one now and then (server/docs/compact.ts). Kept small: the collection
 * registry imports these, and the registry is in the app shell (no yjs here).
 */

/** One update at most (base64 characters): a pasted 20-page document fits many times over. */
export const DOC_UPDATE_MAX_CHARS = 512 * 1024;
/** A compacted update (the server's merge of an item's updates) may be this large. */
export const DOC_STATE_MAX_CHARS = 8 * 1024 * 1024;

/** At most this many file references are listed on one update record (schema/doc-nodes.ts). */
export const DOC_FILES_MAX = 500;

const base64 = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const userId = z.number().int().positive();

export const docUpdateRecord = baseRecord.extend({
  item_id: recordId,
  update: base64(DOC_STATE_MAX_CHARS).min(1),
  created_by: userId.nullable().optional(),
  /**
   * The uploaded images the update names, set by the server from the update's bytes (decision
   * 0216): the update itself is base64, so without this plain list the upload sweep (decision
   * 0095) would not see that the document still shows the file.
   */
  files: z.array(z.string().max(200)).max(DOC_FILES_MAX).optional(),
});
export type DocUpdateRecord = z.infer<typeof docUpdateRecord>;

/** The Yjs XML fragment TipTap's collaboration extension binds to (its default field name). */
export const DOC_FRAGMENT = 'default';
