import * as Y from 'yjs';
import { DOC_UPDATE_MAX_CHARS } from '../../schema/doc-records';
import { docFileReferences } from '../../schema/doc-nodes';
import { validation } from '../http/errors';
import type { CollectionRules } from '../sync/rules';

/**
 * Save rules of `doc_update` (decision 0135), registered in server/sync/rules.ts. The registry
 * already makes the write need EDIT_ITEM on the item's folder chain and the item be on the
 * record's board; these rules add what the generic path cannot know about a Yjs update.
 */

/** Whether the bytes decode as a Yjs update (v1 encoding, the one y-prosemirror sends). */
export function isYjsUpdate(bytes: Uint8Array): boolean {
  try {
    Y.decodeUpdate(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The uploaded images named in a Yjs update (attribute strings are stored as UTF-8 bytes). */
export const fileReferencesOf = (bytes: Uint8Array): string[] => docFileReferences(Buffer.from(bytes).toString('latin1'));

export const docUpdateRules: CollectionRules = {
  prepare({ existing, record }) {
    if (existing) {
      // An update is a fact: saving it again as it is changes nothing; changing it is refused.
      if (existing.data.item_id !== record.item_id || existing.data.update !== record.update) throw validation(['update: a document update cannot be changed']);
      record.files = existing.data.files ?? [];
      return;
    }
    const update = String(record.update);
    if (update.length > DOC_UPDATE_MAX_CHARS) throw validation([`update: at most ${DOC_UPDATE_MAX_CHARS} characters`]);
    const bytes = Buffer.from(update, 'base64');
    if (!isYjsUpdate(bytes)) throw validation(['update: not a Yjs document update']);
    // The server's word, not the client's: the images this update names (decision 0216).
    record.files = fileReferencesOf(bytes);
  },
};
