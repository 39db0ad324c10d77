/**
 * Wires the realtime client (sync-worker/realtime/, pusher-js worker build) to each signed-in
 * session of the runtime: board events go to engine.applyRemote, liveness signals to the
 * connection state machine, and the open board's channel follows `loaded` events. Guests have no
 * session here, so they never subscribe (workspace.md §6).
 */
import type { SyncRuntime, Session } from './api';
import type { EngineEvents } from './events';
import type { Realtime, RealtimeOptions } from './realtime';
import type { SyncRecord } from './types';
import { CONFLICTS_CHANGED_EVENT } from '../schema/sync-conflicts';
import { APP_VERSION_EVENT, type AppVersionPayload } from '../schema/app-version-event';
import { conflictSyncOf } from './conflict-sync';

export type RealtimeFactory = (opts: Omit<RealtimeOptions, 'Pusher'>) => Realtime;

export function attachRealtime(runtime: SyncRuntime, create: RealtimeFactory): () => void {
  let current: {
    session: Session;
    realtime: Realtime | null;
    board: { teamId: number; boardId: string } | null;
    stopPulls?: () => void;
    pull?: (teamId: number, boardId: string) => void;
  } | null = null;

  const stop = () => {
    current?.stopPulls?.();
    current?.session.http.useSocketId(null);
    current?.realtime?.stop();
    current = null;
  };

  const start = async (session: Session) => {
    const entry: NonNullable<typeof current> = { session, realtime: null, board: null };
    current = entry;
    const vars = await session.http.request<{ broadcasting?: RealtimeOptions['appVars']['broadcasting'] }>('get', '/api/app-vars').catch(() => null);
    const broadcasting = vars?.ok ? vars.body?.broadcasting : undefined;
    if (!broadcasting || current !== entry) return;
    const engine = session.engine;
    const pulls = new CatchUpPulls((teamId, boardId) => engine.catchUp(teamId, boardId));
    entry.stopPulls = () => pulls.stop();
    entry.pull = (teamId, boardId) => pulls.request(teamId, boardId);
    entry.realtime = create({
      appVars: { broadcasting },
      apiBase: session.http.baseUrl,
      getToken: () => session.http.currentToken()?.access_token ?? null,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => {
        // TimeEntrySaved (the personal channel and the board's time-tracking channel): stored only
        // when newer than the copy held (applyRemote's merge rule), like a board `saved`.
        if ((event.scope === 'user' || event.scope === 'timeTracking') && event.event === TIME_ENTRY_SAVED) {
          const entry = timeEntryOf(event.data);
          if (entry && (event.scope !== 'user' || event.userId === session.userId)) void engine.applyRemote({ event: 'saved', collection: 'time_entry', data: entry }).catch(() => undefined);
          return;
        }
        // private-App.User.{id}: "notification saved", "all notifications read" (notifications.ts).
        if (event.scope === 'user') {
          if (event.userId !== session.userId) return;
          // ConflictsChanged: another device of the user reported or settled a conflict (conflict-sync.ts).
          if (event.event === CONFLICTS_CHANGED_EVENT) void conflictSyncOf(session)?.sync();
          // The server's version, pushed on each (re)subscription (S4.11): the tabs compare it with their build.
          else if (event.event === APP_VERSION_EVENT) runtime.events.emit('server-version', { version: versionOf(event.data) });
          else session.notifications.onRealtime(event.event, event.data);
          return;
        }
        // team.{id}.users / team.{id}.permissions: members, roles, the workspace and its permission
        // entries changed; every tab reloads what it shows of that workspace.
        if (event.scope === 'team.users' || event.scope === 'team.permissions') {
          runtime.events.emit('team', { teamId: event.teamId, channel: event.scope === 'team.users' ? 'users' : 'permissions', event: event.event, data: event.data });
          return;
        }
        if (event.scope !== 'board') return;
        if (event.event === 'changed') {
          pulls.request(event.teamId, event.boardId);
          return;
        }
        void engine
          .applyRemote({ event: event.event, collection: event.collection, data: event.data as SyncRecord | null }, { teamId: event.teamId, boardId: event.boardId })
          .catch(() => undefined);
      },
      onConnectionChange: (signal) => {
        if (signal === 'pong' || signal === 'connected') engine.connection.realtimePong();
        else if (signal === 'reconnected') engine.connection.realtimeReconnected();
        else engine.connection.realtimeDropped();
      },
      onSubscribed: (scope) => {
        // A channel is subscribed, first or again after a reconnect: what it said while it was not
        // is lost, so the server is asked. Not on the reconnect itself: the channel's authorisation
        // is still on its way then (the multi-auth batch), and an event published in between was
        // lost (#30: a conflict another device reported right after this one came back stayed
        // unseen until a reload). A board's channel: one pull catches up on saves made between
        // the board's load (or the drop) and now. The user's: the unread count and the conflicts.
        if (scope.scope === 'board') entry.pull?.(scope.teamId, scope.boardId);
        if (scope.scope !== 'user' || scope.userId !== session.userId) return;
        void session.notifications.refresh();
        void conflictSyncOf(session)?.sync();
      },
    });
    const realtime = entry.realtime;
    session.http.useSocketId(() => realtime.socketId());
    // Once subscribed (onSubscribed), the count and the conflicts are asked again.
    void entry.realtime.subscribeUser(session.userId).catch(() => undefined);
    // The channels of every workspace the user is a member of (shell.md §7).
    void followTeams(entry);
    if (engine.openBoardRef) follow(engine.openBoardRef);
  };

  const followTeams = async (entry: NonNullable<typeof current>) => {
    const answer = await entry.session.http.request<{ data?: { id: number }[] }>('get', '/api/me/workspaces').catch(() => null);
    if (!answer?.ok || current !== entry || !entry.realtime) return;
    const realtime = entry.realtime;
    for (const team of answer.body?.data ?? []) if (typeof team.id === 'number') void realtime.subscribeTeam(team.id).catch(() => undefined);
  };

  const follow = (board: { teamId: number; boardId: string }) => {
    const entry = current;
    if (!entry?.realtime) {
      if (entry) entry.board = board;
      return;
    }
    if (entry.board && (entry.board.teamId !== board.teamId || entry.board.boardId !== board.boardId)) {
      entry.realtime.unsubscribeBoard(entry.board.teamId, entry.board.boardId);
    }
    entry.board = board;
    // Once subscribed (onSubscribed), one pull catches up on saves made before (seen as a second
    // tab that never regrouped).
    void entry.realtime.subscribeBoard(board.teamId, board.boardId).catch(() => undefined);
  };

  const offEvents = runtime.events.on((event, payload) => {
    if (event === 'loaded') follow(payload as EngineEvents['loaded']);
  });
  const offSession = runtime.onSession((session) => {
    stop();
    if (session) void start(session);
  });
  return () => {
    offEvents();
    offSession();
    stop();
  };
}

/** The realtime event of a saved time entry (server/sync/time-entries.ts), payload {collection, data}. */
export const TIME_ENTRY_SAVED = 'TimeEntrySaved';

/** The entry a TimeEntrySaved payload carries, or null when it is not one. */
export function timeEntryOf(payload: unknown): SyncRecord | null {
  const p = payload as { collection?: unknown; data?: unknown } | null;
  const data = p?.data as SyncRecord | null | undefined;
  if (!p || p.collection !== 'time_entry' || !data || typeof data.id !== 'string' || typeof data.row_version !== 'number') return null;
  return data;
}

/** Wait before the second pull of a `changed`: a change is readable once every earlier writer finished (decision 0031). */
export const CHANGED_FOLLOW_UP_MS = 1000;

/**
 * Catch-ups asked by content-free `changed` pings (external cluster, decision 0090): at most one
 * pull per board runs, pings that arrive meanwhile make one more; and each burst ends with one
 * follow-up pull a moment later, because /changes hands out only what every earlier writer of the
 * database has finished, so a pull right after the ping can stop short of the change it announced.
 */
export class CatchUpPulls {
  private readonly boards = new Map<string, { running: boolean; again: boolean; followUp: ReturnType<typeof setTimeout> | null }>();
  private stopped = false;

  constructor(
    private readonly pull: (teamId: number, boardId: string) => Promise<unknown>,
    private readonly followUpMs = CHANGED_FOLLOW_UP_MS,
  ) {}

  request(teamId: number, boardId: string): void {
    if (this.stopped) return;
    const key = `${teamId}:${boardId}`;
    let state = this.boards.get(key);
    if (!state) this.boards.set(key, (state = { running: false, again: false, followUp: null }));
    if (state.followUp !== null) clearTimeout(state.followUp);
    state.followUp = setTimeout(() => {
      state!.followUp = null;
      this.run(teamId, boardId, state!);
    }, this.followUpMs);
    this.run(teamId, boardId, state);
  }

  private run(teamId: number, boardId: string, state: { running: boolean; again: boolean }): void {
    if (this.stopped) return;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    void this.pull(teamId, boardId)
      .catch(() => undefined)
      .finally(() => {
        state.running = false;
        if (state.again) {
          state.again = false;
          this.run(teamId, boardId, state);
        }
      });
  }

  stop(): void {
    this.stopped = true;
    for (const state of this.boards.values()) if (state.followUp !== null) clearTimeout(state.followUp);
    this.boards.clear();
  }
}

/** The version an AppVersion event names (its data arrives parsed or as the JSON text), or null. */
function versionOf(data: unknown): string | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const version = (value as Partial<AppVersionPayload> | null)?.version;
  return typeof version === 'string' ? version : null;
}
