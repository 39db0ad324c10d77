import { connectSyncWorker, loadReadonlyDb, type SyncConnection } from '../../../sync-worker/client';
import type { BoardBackend } from './backend';
import { backendOver } from './engine-backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The board backend over the sync worker's Comlink API (DESIGN.md §1: one writer per browser).
 * The shell signs the worker in (src/api/worker-session.ts); store/use-backend.ts hands this to
 * signed-in users once that is done.
 */
export async function createWorkerBackend(userId: number | null, connection: SyncConnection = connectSyncWorker()): Promise<BoardBackend> {
  const { api } = connection;
  // Signed in outside the workspace, a protected public board needs its password too.
  onBoardPasswordHeader((header) => void api.setPassword(header).catch(() => undefined));
  return backendOver(userId, await loadReadonlyDb(userId ?? 'guest'), {
    apply: (name, args, options) => api.apply(name, args, options),
    save: (collection, record, options) => api.save(collection, record, options),
    delete: (collection, id, options) => api.delete(collection, id, options),
    openBoard: (teamId, boardId, options) => api.openBoard(teamId, boardId, options),
    request: (method, path, body) => api.request(method, path, body),
    subscribe(listener) {
      const off = connection.subscribe((event, payload) => listener(event, payload));
      return () => void off.then((unsubscribe) => unsubscribe());
    },
  });
}
