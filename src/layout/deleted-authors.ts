import { useEffect, useState } from 'react';
import { syncConnection } from '../api/worker-session';

const NONE: ReadonlySet<number> = new Set();

/**
 * Who, among the people whose save won a conflict of mine, has an account the server no longer
 * finds (GET /api/me/conflicts' deleted_user_ids): the inbox names them "Deleted Account", as the
 * activity log does (W3.3, W8.4). Asked when the inbox opens and when its list changes; offline
 * or refused, nobody is known deleted (they read "Removed User" until the server can say).
 */
export function useDeletedAuthors(open: boolean, listKey: string): ReadonlySet<number> {
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(NONE);
  useEffect(() => {
    if (!open) return;
    let live = true;
    void (async () => {
      try {
        const answer = await syncConnection().api.request('get', '/api/me/conflicts');
        const ids = answer.ok ? (answer.body as { deleted_user_ids?: unknown } | null)?.deleted_user_ids : null;
        if (live && Array.isArray(ids)) setDeleted(new Set(ids.filter((id): id is number => typeof id === 'number')));
      } catch {
        // Offline: keep what was known.
      }
    })();
    return () => {
      live = false;
    };
  }, [open, listKey]);
  return deleted;
}
