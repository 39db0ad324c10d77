import { createInTabEngine, loadReadonlyDb } from '../../../sync-worker/client';
import { currentToken } from '../../api/client';
import type { BoardBackend } from './backend';
import { backendOver } from './engine-backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The board backend of an anonymous visitor of a public board: the worker holds no anonymous
 * sessions, so the engine runs in the tab (sync-worker/in-tab-engine.ts, the same engine and
 * mutators). The tab's session is handed to it as a token getter; it imports nothing of the tab.
 */
export async function createTabBackend(userId: number | null): Promise<BoardBackend> {
  const engine = await createInTabEngine({ userId, token: () => currentToken(), online: navigator.onLine });
  // A password-protected public board: every request carries the session's password.
  onBoardPasswordHeader((header) => engine.setPassword(header));
  window.addEventListener('online', () => engine.reportOnline(true));
  window.addEventListener('offline', () => engine.reportOnline(false));
  return backendOver(userId, await loadReadonlyDb(userId ?? 'guest'), {
    apply: (name, args, options) => engine.apply(name, args, options),
    save: (collection, record, options) => engine.save(collection, record, options),
    delete: (collection, id, options) => engine.delete(collection, id, options),
    openBoard: (teamId, boardId, options) => engine.openBoard(teamId, boardId, options),
    request: (method, path, body) => engine.request(method, path, body),
    subscribe: (listener) => engine.subscribe((event, payload) => listener(event, payload)),
  });
}
