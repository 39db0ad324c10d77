import { collectionByName } from '../../../schema/collections';
import { toastMessageFor, type ApiErrorBody } from '../../../schema/api-error';
import type { ApplyResult, CairnDexie, MutatorArgs, MutatorName, SyncRecord } from '../../../sync-worker/client';
import type { BackendProblem, BoardBackend, WrittenRecord } from './backend';
import { heldBoardFolder } from './live';
import { workspaces } from '../../api/workspaces-cache';

/** How long the sidebar's list of a workspace's folders answers the board's lookup of its workspace. */
const RECENT_FOLDERS_MS = 10_000;

/**
 * The board backend over any engine that offers the worker's commands: the SharedWorker's Comlink
 * API (worker-backend.ts) or the in-tab engine of visitors (tab-backend.ts). The two differ only
 * in how they are reached; everything the board screens need is built here once.
 */
export interface EnginePort {
  apply<N extends MutatorName>(name: N, args: MutatorArgs<N>, options?: { teamId?: number }): Promise<ApplyResult>;
  save(collection: string, record: SyncRecord, options?: { teamId?: number; transaction?: string | null }): Promise<SyncRecord | null>;
  delete(collection: string, id: string, options?: { teamId?: number }): Promise<void>;
  openBoard(teamId: number, boardId: string, options?: { firstScreen?: boolean }): Promise<void>;
  /** Online-only call through the engine's session: HTTP errors are answers. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; ok: boolean; body: unknown }>;
  /** The engine's events ('conflict', 'rejected', …); answers the unsubscribe. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

/** An HTTP answer with an error status, thrown by the online-only commands. */
export class BackendCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(toastMessageFor(status, body));
  }
}

export function backendOver(userId: number | null, db: CairnDexie, port: EnginePort): BoardBackend {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await port.request(method, path, body);
    if (!answer.ok) throw new BackendCallError(answer.status, answer.body as ApiErrorBody);
    return answer.body as T;
  };
  const route = (collection: string) => {
    const def = collectionByName(collection);
    if (!def) throw new Error(`Unknown collection ${collection}`);
    return def.route;
  };
  /**
   * A workspace's folders as the server lists them. The sidebar's answer is kept a few seconds
   * for the board's lookup of its workspace (`fresh` false); `fresh` asks again. A failed
   * lookup answers an empty list (that workspace is skipped), a failed sidebar list throws.
   */
  const recentFolders = new Map<number, { at: number; answer: Promise<SyncRecord[]> }>();
  function teamFolders(teamId: number, fresh: boolean, throwOnError = false): Promise<SyncRecord[]> {
    const held = recentFolders.get(teamId);
    if (!fresh && held && Date.now() - held.at < RECENT_FOLDERS_MS) return held.answer.catch(() => []);
    const answer = call<{ data: SyncRecord[] }>('get', `/api/${teamId}/folders`).then((a) => a.data ?? []);
    recentFolders.set(teamId, { at: Date.now(), answer });
    answer.catch(() => recentFolders.delete(teamId));
    return throwOnError ? answer : answer.catch(() => []);
  }
  /**
   * The board on screen catches up after a restore or a member change (the engine's own calls
   * are not echoed to its socket; the server logs both as changes, so the delta carries them).
   */
  let openRef: { teamId: number; boardId: string } | null = null;
  const reloadOpenBoard = async (teamId: number) => {
    if (openRef && openRef.teamId === teamId) await port.openBoard(openRef.teamId, openRef.boardId).catch(() => undefined);
  };
  return {
    userId,
    db,
    openBoard(teamId, boardId) {
      openRef = { teamId, boardId };
      // A tab waits for its first screen only: comments, timers, automations… load behind it.
      return port.openBoard(teamId, boardId, { firstScreen: true });
    },
    async findBoardTeam(boardId, hint) {
      const local = heldBoardFolder(db, boardId) ?? (await db.records.get(['folder', boardId]));
      if (local && typeof local.team_id === 'number') return local.team_id;
      if (userId === null) return hint ?? null;
      // Not on this device yet: ask each of the user's workspaces for its boards. The lists the
      // shell and the sidebar have just read come first (the sidebar's workspaces too) (a cold open asked for them again, one
      // call after another, before the board could load); a board not in them asks afresh.
      const shown = new Set([...(workspaces.get() ?? []).map((team) => team.id), ...recentFolders.keys()]);
      for (const teamId of shown) if ((await teamFolders(teamId, false)).some((f) => f.id === boardId)) return teamId;
      const mine = await call<{ data: { id: number }[] }>('get', '/api/me/workspaces');
      for (const team of mine.data ?? []) {
        if ((await teamFolders(team.id, true)).some((f) => f.id === boardId)) return team.id;
      }
      return null;
    },
    apply: (name, args, options) => port.apply(name, args, options),
    save: (collection, record, options) => port.save(collection, record, options),
    remove: (collection, id, options) => port.delete(collection, id, options),
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
      return (await teamFolders(teamId, true, true)).filter((f) => f.parent_id === null && !f.deleted_at);
    },
    async setBoardMembers(boardId, userIds) {
      await call('put', '/api/users', { board_id: boardId, user_ids: userIds });
      const teamId = (await db.records.get(['folder', boardId]))?.team_id;
      if (typeof teamId === 'number') await reloadOpenBoard(teamId);
    },
    onWritten(listener) {
      return port.subscribe((event, payload) => {
        if (event === 'written') listener((payload as { records: WrittenRecord[] }).records);
      });
    },
    onProblem(listener) {
      return port.subscribe((event, payload) => {
        if (event === 'conflict') {
          const p = payload as { collection: string; id: string; field?: string | null; label?: { item: string | null; field: string | null } };
          listener({ kind: 'conflict', collection: p.collection, id: p.id, field: p.field ?? null, label: p.label } satisfies BackendProblem);
        } else if (event === 'rejected') {
          const p = payload as { collection: string; id: string; status: number; message: string };
          listener({ kind: 'rejected', collection: p.collection, id: p.id, status: p.status, message: p.message });
        }
      });
    },
  };
}
