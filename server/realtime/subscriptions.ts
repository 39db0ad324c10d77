import type { EmbeddedRealtimeServer, Holder } from './server';

/**
 * Ending subscriptions when the right to them ends (decision 0090). Whoever revokes a right calls
 * `endSubscriptions(db, {...})` after the change is stored: removing a member, changing a role,
 * revoking sessions, changing who may see a board. It reaches every embedded realtime server of
 * that database (one in a deployment; several app instances share a process only in tests).
 *
 * With an external Pusher-protocol cluster there is nothing to end here: board channels carry
 * content-free pings there and every read goes through the read scope (record-audience.ts).
 */
export interface SubscriptionFilter {
  /** Channels of this workspace (board, presence, time-tracking, users, permissions). */
  teamId?: number;
  /** Channels of this board (record, presence and time-tracking channels). */
  boardId?: string;
  /** Subscriptions authorised for this user. */
  userId?: number;
  /** Subscriptions authorised with this session's token. */
  sessionId?: number;
  /** …except this session (password change: the session that changed it stays). */
  exceptSessionId?: number;
  channel?: string;
}

const serversByDb = new WeakMap<object, Set<EmbeddedRealtimeServer>>();

/** Makes a server reachable by endSubscriptions on its database; returns the undo. */
export function registerRealtimeServer(db: object, server: EmbeddedRealtimeServer): () => void {
  let set = serversByDb.get(db);
  if (!set) serversByDb.set(db, (set = new Set()));
  set.add(server);
  return () => set.delete(server);
}

/** The embedded servers of this database. */
export function serversOf(db: object): EmbeddedRealtimeServer[] {
  return [...(serversByDb.get(db) ?? [])];
}

/** Ends the matching subscriptions on every embedded server of this database; returns how many connections ended. */
export function endSubscriptions(db: object, filter: SubscriptionFilter): number {
  const servers = serversByDb.get(db);
  if (!servers || servers.size === 0) return 0;
  const matches = subscriptionMatcher(filter);
  let ended = 0;
  for (const server of servers) ended += server.endSubscriptions(matches);
  return ended;
}

/** Team and board a channel belongs to, read from its name (null parts: not of a team/board). */
export function channelOwner(channel: string): { teamId: number | null; boardId: string | null } {
  let m = /^(?:private|presence)-team\.(\d+)\.board\.(.+)$/.exec(channel);
  if (m) return { teamId: Number(m[1]), boardId: m[2]! };
  m = /^private-user\.(\d+)\.(.+)\.timeTracking$/.exec(channel);
  if (m) return { teamId: Number(m[1]), boardId: m[2]! };
  m = /^private-team\.(\d+)\.(?:users|permissions)$/.exec(channel);
  if (m) return { teamId: Number(m[1]), boardId: null };
  return { teamId: null, boardId: null };
}

export function subscriptionMatcher(filter: SubscriptionFilter): (channel: string, holder: Holder | null) => boolean {
  const byHolder = filter.userId !== undefined || filter.sessionId !== undefined || filter.exceptSessionId !== undefined;
  const byChannel = filter.teamId !== undefined || filter.boardId !== undefined;
  if (!byHolder && !byChannel && filter.channel === undefined) return () => false; // an empty filter ends nothing
  return (channel, holder) => {
    if (filter.channel !== undefined && channel !== filter.channel) return false;
    if (byChannel) {
      const owner = channelOwner(channel);
      if (filter.teamId !== undefined && owner.teamId !== filter.teamId) return false;
      if (filter.boardId !== undefined && owner.boardId !== filter.boardId) return false;
    }
    if (byHolder) {
      // A subscription of unknown holder may be anyone's: it ends too.
      if (!holder) return true;
      if (filter.userId !== undefined && holder.userId !== filter.userId) return false;
      if (filter.sessionId !== undefined && holder.sessionId !== filter.sessionId) return false;
      if (filter.exceptSessionId !== undefined && holder.sessionId === filter.exceptSessionId) return false;
    }
    return true;
  };
}
