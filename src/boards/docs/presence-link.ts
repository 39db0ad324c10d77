import Pusher from 'pusher-js';
import { appVars } from '../../app-vars';
import { request } from '../../api/client';
import { AWARENESS_EVENT, type AwarenessMessage, type PresenceTransport } from './presence';

/**
 * The wire of document presence (decision 0218): this tab's own connection to the realtime
 * server, subscribed to the board's presence channel `presence-team.{teamId}.board.{boardId}`
 * only while a document is open. The subscription is signed by the ordinary multi-auth endpoint
 * (VIEW_BOARD, the rule of the board's channels); the sync worker's connection is not used
 * because it carries the replica's records and hands client events to no one (they must never
 * pose as data). Loaded on demand with the first open document (pusher-js, ~18 KB gzip).
 */

interface Broadcasting {
  key: string;
  host: string;
  port: number;
  useTLS?: boolean;
  embedded?: boolean;
}

export const presenceChannel = (teamId: number, boardId: string) => `presence-team.${teamId}.board.${boardId}`;

export interface PresenceLink extends PresenceTransport {
  close(): void;
}

/** Opens the link, or null when the server has no realtime (or it is not known yet). */
export function openPresenceLink(teamId: number, boardId: string): PresenceLink | null {
  const vars = appVars.get().broadcasting as Broadcasting | undefined;
  if (!vars?.key) return null;
  // The embedded server is reached where the app came from (proxies, TLS), as the worker does.
  const tls = vars.embedded ? location.protocol === 'https:' : Boolean(vars.useTLS);
  const host = vars.embedded ? location.hostname : vars.host;
  const port = vars.embedded ? Number(location.port || (tls ? 443 : 80)) : vars.port;
  const name = presenceChannel(teamId, boardId);
  const pusher = new Pusher(vars.key, {
    cluster: 'embedded',
    wsHost: host,
    wsPort: port,
    wssPort: port,
    forceTLS: tls,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        request<Record<string, { status: number; data: { auth: string; channel_data?: string } }>>('POST', '/api/broadcasting/multi-auth', { socketId, channelNames: [channelName] }).then(
          (answer) => {
            const entry = answer[channelName];
            if (entry?.status === 200) callback(null, entry.data);
            else callback(new Error('refused'), null);
          },
          (error: Error) => callback(error, null),
        );
      },
    },
  });
  const channel = pusher.subscribe(name);
  const messageListeners = new Set<(message: AwarenessMessage, userId: string | null) => void>();
  const leaveListeners = new Set<(userId: string) => void>();
  let subscribed = false;
  const waiting: AwarenessMessage[] = [];
  channel.bind('pusher:subscription_succeeded', () => {
    subscribed = true;
    // Only the newest state matters: send the last one held back.
    const last = waiting.pop();
    waiting.length = 0;
    if (last) channel.trigger(AWARENESS_EVENT, last);
  });
  channel.bind(AWARENESS_EVENT, (data: unknown, metadata?: { user_id?: string }) => {
    const message = data as Partial<AwarenessMessage> | null;
    if (!message || typeof message.item !== 'string' || typeof message.client !== 'number' || typeof message.update !== 'string') return;
    for (const listener of messageListeners) listener(message as AwarenessMessage, metadata?.user_id ?? null);
  });
  channel.bind('pusher:member_removed', (member: { id?: string }) => {
    if (member?.id) for (const listener of leaveListeners) listener(String(member.id));
  });
  return {
    send(message) {
      if (subscribed) channel.trigger(AWARENESS_EVENT, message);
      else waiting.push(message);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onMemberRemoved(listener) {
      leaveListeners.add(listener);
      return () => leaveListeners.delete(listener);
    },
    close() {
      messageListeners.clear();
      leaveListeners.clear();
      pusher.unsubscribe(name);
      pusher.disconnect();
    },
  };
}
