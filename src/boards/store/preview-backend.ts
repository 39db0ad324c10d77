import { nanoid } from 'nanoid';
import { createInTabEngine } from '../../../sync-worker/client';
import { currentToken } from '../../api/client';
import type { BoardBackend } from './backend';
import { backendOver } from './engine-backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The board backend of a preview (pretend) tab (decision 0280). The shared sync worker serves every
 * tab of the browser, so a preview tab cannot switch it to preview without stopping the user's real
 * tabs from saving. Instead the tab runs its own engine (sync-worker/in-tab-engine.ts, the same
 * engine, mutators and Dexie schema as the worker) in preview mode, over a database of its own:
 *
 * - `cairn-preview-{id}`, one per tab, never the user's replica `cairn-{userId}`;
 * - each board seeded from a read-only copy of what the replica holds (the user's unsaved edits
 *   too; this is what lets a preview open offline), then by the engine's usual board load (GET
 *   calls only, with the tab's session);
 * - edits are applied there at once and queued nowhere; the engine's transport refuses to send
 *   anything but GET, so no write can reach the server even by mistake;
 * - no realtime: the open board catches up with the server when the tab comes back into view;
 * - dropped when the tab goes away; a database left by a crashed tab is removed by the next
 *   preview tab (each live preview tab holds a Web Lock named after its database).
 */
/** The key of a preview database: its name ends with it (`cairn-preview-{10 characters}`). */
const KEY = /(preview-[A-Za-z0-9_-]{10})$/;
const lockName = (key: string) => `cairn-preview-lock:${key}`;

export async function createPreviewBackend(userId: number | null): Promise<BoardBackend> {
  const key = `preview-${nanoid(10)}`;
  holdLock(key);
  await removeAbandoned(key);
  const engine = await createInTabEngine({ userId, token: () => currentToken(), online: navigator.onLine, preview: { database: key, seedFrom: userId } });
  onBoardPasswordHeader((header) => engine.setPassword(header));
  window.addEventListener('online', () => engine.reportOnline(true));
  window.addEventListener('offline', () => engine.reportOnline(false));
  const name = engine.engine.db.name;
  // Closing the tab ends the preview: its edits are thrown away with the database.
  window.addEventListener('pagehide', (event) => {
    if (event.persisted) return; // kept in the back/forward cache: the page may come back
    engine.stop();
    indexedDB.deleteDatabase(name);
  });
  // No realtime in a preview tab: the board on screen catches up (GET /changes) when the tab comes
  // back into view, so what the user's real tabs saved meanwhile shows here too.
  let open: { teamId: number; boardId: string } | null = null;
  const catchUp = () => {
    if (open && document.visibilityState === 'visible' && navigator.onLine) void engine.openBoard(open.teamId, open.boardId).catch(() => undefined);
  };
  window.addEventListener('focus', catchUp);
  document.addEventListener('visibilitychange', catchUp);
  // The screens read the engine's own database (the tab is its only user, no worker in between).
  const backend = backendOver(userId, engine.engine.db.relaxed, {
    apply: (mutator, args, options) => engine.apply(mutator, args, options),
    save: (collection, record, options) => engine.save(collection, record, options),
    delete: (collection, id, options) => engine.delete(collection, id, options),
    openBoard: (teamId, boardId, options) => ((open = { teamId, boardId }), engine.openBoard(teamId, boardId, options)),
    request: (method, path, body) => engine.request(method, path, body),
    subscribe: (listener) => engine.subscribe((event, payload) => listener(event, payload)),
  });
  return {
    ...backend,
    preview: true,
    // The board's workspace is found in its seeded copy first (offline too), then on the server.
    async findBoardTeam(boardId, hint) {
      await engine.seedBoard(boardId);
      return backend.findBoardTeam(boardId, hint);
    },
  };
}

/** Holds this tab's lock for as long as the tab lives (released by the browser when it closes). */
function holdLock(key: string): void {
  if (typeof navigator === 'undefined' || !navigator.locks) return;
  void navigator.locks.request(lockName(key), () => new Promise<void>(() => undefined)).catch(() => undefined);
}

/** Deletes preview databases whose tab is gone (no lock held for them). Best effort. */
async function removeAbandoned(own: string): Promise<void> {
  if (typeof indexedDB.databases !== 'function' || !navigator.locks) return;
  try {
    const [databases, locks] = await Promise.all([indexedDB.databases(), navigator.locks.query()]);
    const held = new Set([...(locks.held ?? []), ...(locks.pending ?? [])].map((l) => l.name));
    for (const db of databases) {
      const key = db.name ? KEY.exec(db.name)?.[1] : undefined;
      if (!key || key === own) continue;
      if (!held.has(lockName(key))) indexedDB.deleteDatabase(db.name!);
    }
  } catch {
    // Listing is a convenience; a leftover database is only disk space.
  }
}
