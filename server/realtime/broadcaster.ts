import Pusher from 'pusher';
import type { Broadcaster } from '../context';
import type { ServerConfig } from '../config';
import { EmbeddedRealtimeServer, isValidSocketId, type RealtimeServerOptions } from './server';

export type RealtimeTuning = Partial<Omit<RealtimeServerOptions, 'appId' | 'key' | 'secret'>>;

/** Publishes in-process to the embedded server that runs inside this API process. */
export class EmbeddedBroadcaster implements Broadcaster {
  constructor(readonly server: EmbeddedRealtimeServer) {}

  async publish(channel: string, event: string, data: unknown, opts: { excludeSocketId?: string } = {}) {
    const exclude = isValidSocketId(opts.excludeSocketId) ? opts.excludeSocketId : undefined;
    this.server.publish([channel], event, typeof data === 'string' ? data : JSON.stringify(data), exclude);
  }
}

/**
 * Publishes through the `pusher` SDK (signed HTTP API) to an external Pusher-compatible service.
 * A publish that fails is logged, never thrown: the write it announces is already committed, and
 * clients catch up through /changes when they reconnect.
 */
export class PusherBroadcaster implements Broadcaster {
  readonly client: Pusher;

  constructor(
    pusher: ServerConfig['pusher'] & { host: string },
    private readonly onError: (error: unknown, channel: string, event: string) => void = (error, channel, event) =>
      console.error(`realtime publish of ${event} on ${channel} failed:`, error instanceof Error ? error.message : error),
  ) {
    this.client = new Pusher({
      appId: pusher.appId,
      key: pusher.key,
      secret: pusher.secret,
      host: pusher.host,
      ...(pusher.port ? { port: String(pusher.port) } : {}),
      useTLS: pusher.useTLS,
      timeout: 10_000,
    });
  }

  async publish(channel: string, event: string, data: unknown, opts: { excludeSocketId?: string } = {}) {
    // The SDK throws on a malformed socket id; a bad X-Socket-Id header must not cost the event.
    const params = isValidSocketId(opts.excludeSocketId) ? { socket_id: opts.excludeSocketId } : undefined;
    try {
      await this.client.trigger(channel, event, data, params);
    } catch (error) {
      this.onError(error, channel, event);
    }
  }
}

/**
 * The app's broadcaster: external when PUSHER_HOST is set, otherwise an embedded server that the
 * realtime module attaches to the app's HTTP server at /app/{key}.
 */
export function createBroadcaster(config: Pick<ServerConfig, 'pusher'>, tuning: RealtimeTuning = {}): Broadcaster {
  const { pusher } = config;
  if (pusher.host) return new PusherBroadcaster({ ...pusher, host: pusher.host });
  return new EmbeddedBroadcaster(new EmbeddedRealtimeServer({ appId: pusher.appId, key: pusher.key, secret: pusher.secret, ...tuning }));
}

/** The embedded server behind a broadcaster, or null (external service, or silent in tests). */
export function embeddedServerOf(broadcaster: Broadcaster): EmbeddedRealtimeServer | null {
  return broadcaster instanceof EmbeddedBroadcaster ? broadcaster.server : null;
}

/** Tuning of the embedded server from REALTIME_* environment variables (all optional). */
export function realtimeTuningFromEnv(env: NodeJS.ProcessEnv = process.env): RealtimeTuning {
  const tuning: RealtimeTuning = {};
  const number = (name: string) => (env[name] !== undefined && env[name] !== '' && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  const set = <K extends keyof RealtimeTuning>(key: K, value: RealtimeTuning[K] | undefined) => {
    if (value !== undefined) tuning[key] = value;
  };
  set('activityTimeoutSec', number('REALTIME_ACTIVITY_TIMEOUT_SEC'));
  set('pongTimeoutMs', number('REALTIME_PONG_TIMEOUT_MS'));
  set('maxConnectionsPerIp', number('REALTIME_MAX_CONNECTIONS_PER_IP'));
  set('maxMessageBytes', number('REALTIME_MAX_MESSAGE_BYTES'));
  set('maxSubscriptionsPerConnection', number('REALTIME_MAX_SUBSCRIPTIONS'));
  set('maxPublishBytes', number('REALTIME_MAX_PUBLISH_BYTES'));
  if (env.REALTIME_TRUST_PROXY) tuning.trustProxy = env.REALTIME_TRUST_PROXY === 'true';
  return tuning;
}
