import Pusher from 'pusher-js';
import { nanoid } from 'nanoid';
import { collectionByName } from '../../../schema/collections';
import { toastMessageFor, type ApiErrorBody } from '../../../schema/api-error';
import { systemClock } from '../../../sync-worker/clock';
import { openReadonlyDb, openUserDb } from '../../../sync-worker/db';
import { SyncEngine } from '../../../sync-worker/engine';
import { Emitter } from '../../../sync-worker/events';
import { HttpClient, type FetchLike } from '../../../sync-worker/http';
import { createRealtime, type BroadcastingVars, type PusherConstructor, type Realtime } from '../../../sync-worker/realtime/client';
import type { SyncRecord } from '../../../sync-worker/types';
import { currentToken, onSessionChange } from '../../api/client';
import { appVars } from '../../app-vars';
import type { BackendProblem, BoardBackend } from './backend';
import { onBoardPasswordHeader } from '../public-board';

/**
 * The sync engine running inside the tab: a stopgap until the SharedWorker's Comlink client is
 * available (docs/boards.md, "Engine in the tab"). It uses the very same engine, Dexie schema,
 * queue and realtime client as the worker will, so screens and data are unchanged when the
 * worker backend replaces it; what it lacks is the one-writer-per-browser guarantee across tabs.
 */

class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(toastMessageFor(status, body));
  }
}

export async function createTabBackend(userId: number | null): Promise<BoardBackend> {
  const events = new Emitter();
  const db = await openUserDb(userId ?? 'guest');
  // The tab's API client owns the session (refresh through the cookie); every call carries its token.
  const authorizedFetch: FetchLike = (input, init) => {
    const headers = new Headers(init.headers);
    const token = currentToken();
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token.access_token}`);
    return fetch(input, { ...init, headers });
  };
  let engine: SyncEngine | null = null;
  const http = new HttpClient({
    baseUrl: '',
    fetch: authorizedFetch,
    clock: systemClock,
    events,
    newId: () => nanoid(),
    swUuid: 'tab-' + nanoid(8),
    onResult: ({ method, ok, networkError }) => {
      if (networkError) engine?.connection.networkFailure();
      else if (ok) engine?.connection.requestSucceeded(method);
    },
  });
  // A password-protected public board: every request carries the session's password.
  onBoardPasswordHeader((header) => http.setPassword(header));
  // The engine sends only with a session: hand it the tab's current token (refreshed by the tab).
  const syncToken = () => {
    const token = currentToken();
    if (token?.access_token !== http.currentToken()?.access_token) http.setToken(token ?? null);
  };
  syncToken();
  onSessionChange(() => syncToken());
  setInterval(syncToken, 20_000);
  engine = await SyncEngine.create({
    db,
    http,
    clock: systemClock,
    random: Math.random,
    events,
    newId: () => nanoid(),
    initiallyOnline: navigator.onLine,
    // An anonymous visitor is in no workspace: it catches up board by board.
    readsPerBoard: () => userId === null,
  });
  const sync = engine;
  window.addEventListener('online', () => sync.connection.browserOnline());
  window.addEventListener('offline', () => sync.connection.browserOffline());

  let realtime: Realtime | null = null;
  // Writes name this tab's realtime socket so the server does not echo them back to it.
  http.useSocketId(() => realtime?.socketId() ?? null);
  const startRealtime = async () => {
    if (realtime || userId === null) return; // guests cannot subscribe to channels (workspace.md §6)
    const vars = (appVars.get() as { broadcasting?: BroadcastingVars }).broadcasting ?? ((await appVars.load()) as { broadcasting?: BroadcastingVars }).broadcasting;
    if (!vars) return;
    realtime = createRealtime({
      appVars: { broadcasting: vars },
      getToken: () => currentToken()?.access_token ?? null,
      fetch: authorizedFetch,
      Pusher: Pusher as unknown as PusherConstructor,
      onEvent: (event) => {
        if (event.scope !== 'board') return;
        void sync.applyRemote({ event: event.event as 'saved' | 'deleted' | 'refresh', collection: event.collection, data: event.data as SyncRecord }, { teamId: event.teamId, boardId: event.boardId });
      },
      onConnectionChange: (signal) => {
        if (signal === 'pong' || signal === 'connected') sync.connection.realtimePong();
        else if (signal === 'reconnected') sync.connection.realtimeReconnected();
        else sync.connection.realtimeDropped();
      },
    });
  };

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await http.request<T>(method, path, body === undefined ? {} : { body });
    if (!response.ok) throw new ApiCallError(response.status, response.body as ApiErrorBody);
    return response.body;
  };
  const route = (collection: string) => {
    const def = collectionByName(collection);
    if (!def) throw new Error(`Unknown collection ${collection}`);
    return def.route;
  };
  const readDb = openReadonlyDb(userId ?? 'guest');
  let openBoardKey: string | null = null;
  /** Boards fully loaded in this session: opening one again only asks for the delta. */
  const loaded = new Set<string>();

  return {
    userId,
    db: readDb,
    async openBoard(teamId, boardId) {
      const key = `${teamId}:${boardId}`;
      if (openBoardKey !== key) {
        if (realtime && openBoardKey) {
          const [t, b] = openBoardKey.split(':');
          realtime.unsubscribeBoard(Number(t), b!);
        }
        openBoardKey = key;
      }
      syncToken();
      await startRealtime();
      void realtime?.subscribeBoard(teamId, boardId).catch(() => undefined);
      if (loaded.has(key)) {
        await sync.catchUp(teamId, boardId);
        return;
      }
      await sync.openBoard(teamId, boardId);
      loaded.add(key);
    },
    async findBoardTeam(boardId, hint) {
      const local = await readDb.records.get(['folder', boardId]);
      if (local && typeof local.team_id === 'number') return local.team_id;
      if (userId === null) return hint ?? null;
      // Not on this device yet: ask each of the user's workspaces for its boards.
      const mine = await call<{ data: { id: number }[] }>('get', '/api/me/workspaces');
      for (const team of mine.data ?? []) {
        const folders = await call<{ data: SyncRecord[] }>('get', `/api/${team.id}/folders`).catch(() => ({ data: [] as SyncRecord[] }));
        if (folders.data.some((f) => f.id === boardId)) return team.id;
      }
      return null;
    },
    apply: (name, args, options) => (syncToken(), sync.apply(name, args, options ?? {})),
    save: (collection, record, options) => (syncToken(), sync.save(collection, record, options ?? {})),
    remove: (collection, id, options) => (syncToken(), sync.delete(collection, id, options ?? {})),
    async restore(teamId, collection, id) {
      await call('post', `/api/${teamId}/${route(collection)}/${encodeURIComponent(id)}/restore`);
      // The restored copy comes back through the delta (and the realtime broadcast).
      await sync.catchUp(teamId).catch(() => undefined);
    },
    async purge(teamId, collection, id) {
      await call('delete', `/api/${teamId}/${route(collection)}/${encodeURIComponent(id)}?permanent=1`);
    },
    async trash(teamId, boardId) {
      const answer = await call<{ data: { collection: string; id: string; record: SyncRecord }[] }>('get', `/api/${teamId}/trash?board_id=${encodeURIComponent(boardId)}`);
      return answer.data ?? [];
    },
    async listBoards(teamId) {
      const answer = await call<{ data: SyncRecord[] }>('get', `/api/${teamId}/folders`);
      return (answer.data ?? []).filter((f) => f.parent_id === null && !f.deleted_at);
    },
    async setBoardMembers(boardId, userIds) {
      await call('put', '/api/users', { board_id: boardId, user_ids: userIds });
      const teamId = (await readDb.records.get(['folder', boardId]))?.team_id;
      if (typeof teamId === 'number') await sync.catchUp(teamId).catch(() => undefined);
    },
    onProblem(listener) {
      return events.on((event, payload) => {
        if (event === 'conflict') {
          const p = payload as { collection: string; id: string };
          listener({ kind: 'conflict', collection: p.collection, id: p.id } satisfies BackendProblem);
        } else if (event === 'rejected') {
          const p = payload as { collection: string; id: string; status: number; message: string };
          listener({ kind: 'rejected', collection: p.collection, id: p.id, status: p.status, message: p.message });
        }
      });
    },
  };
}
