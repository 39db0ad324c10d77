import { connectSyncWorker, loadReadonlyDb, type SyncConnection } from '../../../sync-worker/client';
import type { BoardBackend } from './backend';
import { backendOver } from './engine-backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The board backend over the sync worker's Comlink API (DESIGN.md §1: one writer per browser).
 * The shell signs the worker in (src/api/worker-session.ts). `connection` may still be signing
 * in: the replica is read at once (the sidebar and a board this device holds show from it) and
 * every command waits for the sign-in. After a reload a new worker reopens the user's database
 * and session first, which held the sidebar back ~0.7 s under load (issue #33, decision 0366).
 */
export async function createWorkerBackend(userId: number | null, connection: SyncConnection | Promise<SyncConnection> = connectSyncWorker()): Promise<BoardBackend> {
  const ready = Promise.resolve(connection);
  // Not signed in after all: every command rejects with why (use-backend.ts then forgets this backend).
  ready.catch(() => undefined);
  const api = async () => (await ready).api;
  // Signed in outside the workspace, a protected public board needs its password too.
  onBoardPasswordHeader((header) => void api().then((a) => a.setPassword(header)).catch(() => undefined));
  return backendOver(userId, await loadReadonlyDb(userId ?? 'guest'), {
    apply: async (name, args, options) => (await api()).apply(name, args, options),
    save: async (collection, record, options) => (await api()).save(collection, record, options),
    delete: async (collection, id, options) => (await api()).delete(collection, id, options),
    openBoard: async (teamId, boardId, options) => (await api()).openBoard(teamId, boardId, options),
    request: async (method, path, body) => (await api()).request(method, path, body),
    subscribe(listener) {
      const off = ready.then((c) => c.subscribe((event, payload) => listener(event, payload)));
      return () => void off.then((unsubscribe) => unsubscribe()).catch(() => undefined);
    },
  });
}
