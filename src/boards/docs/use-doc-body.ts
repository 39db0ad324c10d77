import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { nanoid } from 'nanoid';
import { useBoardBackend } from '../store/backend';
import { DocBody, type UpdateRecordLike } from './doc-body';

/**
 * The body of one document as a Y.Doc kept in step with the replica: the item's `doc_update`
 * records (the server's compacted one, others' edits by realtime or /changes, this tab's own) are
 * applied as they appear; what is typed here leaves as a `createRecords` action, queued offline
 * like any edit (decision 0135). Null until the replica has been read once.
 */
export function useDocBody(teamId: number, boardId: string, itemId: string, readOnly: boolean): DocBody | null {
  const backend = useBoardBackend();
  const [body, setBody] = useState<DocBody | null>(null);
  const records = useLiveQuery(
    async () => (await backend.db.records.where('[collection+item_id]').equals(['doc_update', itemId]).toArray()) as unknown as UpdateRecordLike[],
    [backend.db, itemId],
  );

  useEffect(() => {
    const next = new DocBody(async (update) => {
      if (readOnly) return;
      const record = { id: nanoid(), row_version: 0, team_id: teamId, board_id: boardId, item_id: itemId, update, created_by: backend.userId, created_at: new Date().toISOString() };
      await backend.apply('createRecords', { records: [{ collection: 'doc_update', record: record as never }] }, { teamId });
    });
    setBody(next);
    const leave = () => next.flush();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      next.destroy();
    };
  }, [backend, teamId, boardId, itemId, readOnly]);

  useEffect(() => {
    if (body && records) body.receive(records);
  }, [body, records]);

  return records === undefined ? null : body;
}
