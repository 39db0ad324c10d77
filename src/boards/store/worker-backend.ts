import { collectionByName } from '../../../schema/collections';
import { toastMessageFor, type ApiErrorBody } from '../../../schema/api-error';
import { connectSyncWorker, openReadonlyDb, type SyncConnection, type SyncRecord } from '../../../sync-worker/client';
import type { BoardBackend } from './backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The board backend over the sync worker's Comlink API (DESIGN.md §1: one writer per browser).
 * The shell signs the worker in (src/api/worker-session.ts); store/use-backend.ts hands this to
 * signed-in users once that is done.
 */
class WorkerCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(toastMessageFor(status, body));
  }
}

export function createWorkerBackend(userId: number | null, connection: SyncConnection = connectSyncWorker()): BoardBackend {
  const { api } = connection;
  const db = openReadonlyDb(userId ?? 'guest');
  // Signed in outside the workspace, a protected public board needs its password too.
  onBoardPasswordHeader((header) => void api.setPassword(header).catch(() => undefined));
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await api.request(method, path, body);
    if (!answer.ok) throw new WorkerCallError(answer.status, answer.body as ApiErrorBody);
    return answer.body as T;
  };
  const route = (collection: string) => collectionByName(collection)?.route ?? collection;
  /**
   * The board on screen: after a restore or a member change it catches up (the worker's own calls
   * are not echoed to its socket; the server logs both as changes, so the delta carries them).
   */
  let openRef: { teamId: number; boardId: string } | null = null;
  const reloadOpenBoard = async (teamId: number) => {
    if (openRef && openRef.teamId === teamId) await api.openBoard(openRef.teamId, openRef.boardId).catch(() => undefined);
  };
  return {
    userId,
    db,
    openBoard: (teamId, boardId) => {
      openRef = { teamId, boardId };
      return api.openBoard(teamId, boardId);
    },
    async findBoardTeam(boardId, hint) {
      const local = await db.records.get(['folder', boardId]);
      if (local && typeof local.team_id === 'number') return local.team_id;
      if (userId === null) return hint ?? null;
      const mine = await call<{ data: { id: number }[] }>('get', '/api/me/workspaces');
      for (const team of mine.data ?? []) {
        const folders = await call<{ data: SyncRecord[] }>('get', `/api/${team.id}/folders`).catch(() => ({ data: [] as SyncRecord[] }));
        if (folders.data.some((f) => f.id === boardId)) return team.id;
      }
      return null;
    },
    apply: (name, args, options) => api.apply(name, args, options),
    save: (collection, record, options) => api.save(collection, record, options),
    remove: (collection, id, options) => api.delete(collection, id, options),
    async restore(teamId, collection, id) {
      await call('post', `/api/${teamId}/${route(collection)}/${encodeURIComponent(id)}/restore`);
      await reloadOpenBoard(teamId);
    },
    async purge(teamId, collection, id) {
      await call('delete', `/api/${teamId}/${route(collection)}/${encodeURIComponent(id)}?permanent=1`);
    },
    async trash(teamId, boardId) {
      return (await call<{ data: { collection: string; id: string; record: SyncRecord }[] }>('get', `/api/${teamId}/trash?board_id=${encodeURIComponent(boardId)}`)).data ?? [];
    },
    async listBoards(teamId) {
      const answer = await call<{ data: SyncRecord[] }>('get', `/api/${teamId}/folders`);
      return (answer.data ?? []).filter((f) => f.parent_id === null && !f.deleted_at);
    },
    async setBoardMembers(boardId, userIds) {
      await call('put', '/api/users', { board_id: boardId, user_ids: userIds });
      const teamId = (await db.records.get(['folder', boardId]))?.team_id;
      if (typeof teamId === 'number') await reloadOpenBoard(teamId);
    },
    onProblem(listener) {
      const off = connection.subscribe((event, payload) => {
        if (event === 'conflict') {
          const p = payload as { collection: string; id: string };
          listener({ kind: 'conflict', collection: p.collection, id: p.id });
        } else if (event === 'rejected') {
          const p = payload as { collection: string; id: string; status: number; message: string };
          listener({ kind: 'rejected', collection: p.collection, id: p.id, status: p.status, message: p.message });
        }
      });
      return () => void off.then((unsubscribe) => unsubscribe());
    },
  };
}
