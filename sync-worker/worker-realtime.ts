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

export type RealtimeFactory = (opts: Omit<RealtimeOptions, 'Pusher'>) => Realtime;

export function attachRealtime(runtime: SyncRuntime, create: RealtimeFactory): () => void {
  let current: { session: Session; realtime: Realtime | null; board: { teamId: number; boardId: string } | null } | null = null;

  const stop = () => {
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
    entry.realtime = create({
      appVars: { broadcasting },
      apiBase: session.http.baseUrl,
      getToken: () => session.http.currentToken()?.access_token ?? null,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => {
        if (event.scope !== 'board') return;
        void engine
          .applyRemote({ event: event.event, collection: event.collection, data: event.data as SyncRecord | null }, { teamId: event.teamId, boardId: event.boardId })
          .catch(() => undefined);
      },
      onConnectionChange: (signal) => {
        if (signal === 'pong' || signal === 'connected') engine.connection.realtimePong();
        else if (signal === 'reconnected') engine.connection.realtimeReconnected();
        else engine.connection.realtimeDropped();
      },
    });
    const realtime = entry.realtime;
    session.http.useSocketId(() => realtime.socketId());
    void entry.realtime.subscribeUser(session.userId).catch(() => undefined);
    if (engine.openBoardRef) follow(engine.openBoardRef);
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
