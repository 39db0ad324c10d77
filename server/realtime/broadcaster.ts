import Pusher from 'pusher';
import type { Kysely } from 'kysely';
import type { AppContext, Broadcaster } from '../context';
import type { Database } from '../db/types';
import type { ServerConfig } from '../config';
import { EmbeddedRealtimeServer, isValidSocketId, type RealtimeServerOptions } from './server';
import { readersOf, recordChannelOf, recordOf, type RecordEvent } from './record-audience';
import { recheckSubscriptions } from './recheck';

export type RealtimeTuning = Partial<Omit<RealtimeServerOptions, 'appId' | 'key' | 'secret'>>;

type OutEvent = { channel: string; event: string; data: unknown };

/**
 * A board's `refresh` (a folder's access changed) without the folder's content: clients reload
 * through the read scope. Null for other events.
 */
function contentFreeRefresh(event: OutEvent): { boardId: string; folderId: string | null; data: string } | null {
  const owner = recordChannelOf(event.channel);
  if (!owner || owner.kind !== 'board' || event.event !== 'refresh') return null;
  const payload = (event.data ?? {}) as { collection?: unknown; data?: { id?: unknown } | null };
  const folderId = typeof payload.data?.id === 'string' ? payload.data.id : null;
  const collection = typeof payload.collection === 'string' ? payload.collection : undefined;
  return { boardId: owner.boardId, folderId, data: JSON.stringify({ collection, data: { board_id: owner.boardId } }) };
}

/**
 * Publishes in-process to the embedded server that runs inside this API process. Record events
 * (board and time-tracking channels) reach only the subscribers the read rule lets read the record
 * (decision 0090); the app context for that is given by the realtime module (useContext). Until
 * then, and for a record event of a shape it does not know, nobody gets it (fail closed).
 */
export class EmbeddedBroadcaster implements Broadcaster {
  private ctx: AppContext | null = null;

  constructor(readonly server: EmbeddedRealtimeServer) {}

  useContext(ctx: AppContext): void {
    this.ctx = ctx;
  }

  private get db(): Kysely<Database> | null {
    return this.ctx?.db ?? null;
  }

  /** Deliveries in publish order; a write's answer does not wait for its events to be judged. */
  private tail: Promise<void> = Promise.resolve();

  async publish(channel: string, event: string, data: unknown, opts: { excludeSocketId?: string } = {}) {
    await this.publishMany([{ channel, event, data }], opts);
  }

  /** Queues the events (resolves at once); they go out in the order published, each write's judged together. */
  async publishMany(events: OutEvent[], opts: { excludeSocketId?: string } = {}) {
    this.tail = this.tail.then(() => this.deliver(events, opts)).catch((error) => console.error('realtime delivery failed:', error instanceof Error ? error.message : error));
  }

  /** Resolves when everything published so far has gone out (tests, shutdown). */
  idle(): Promise<void> {
    return this.tail;
  }

  private async deliver(events: OutEvent[], opts: { excludeSocketId?: string }) {
    const exclude = isValidSocketId(opts.excludeSocketId) ? opts.excludeSocketId : undefined;
    const readers = await this.judge(events);
    for (const [i, event] of events.entries()) {
      const text = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      const refresh = contentFreeRefresh(event);
      if (refresh) {
        this.server.publish([event.channel], event.event, refresh.data, exclude);
        // The board's own access changed (made private, public, members…): whoever may no longer
        // follow it loses the subscription.
        const ctx = this.ctx;
        if (ctx && refresh.folderId === refresh.boardId) {
          const teamId = recordChannelOf(event.channel)!.teamId;
          await recheckSubscriptions(ctx, { teamId, boardId: refresh.boardId }).catch((error) => console.error('realtime recheck failed:', error));
        }
        continue;
      }
      const allowed = readers[i];
      if (allowed) this.server.publishTo(event.channel, event.event, text, (holder) => holder !== null && allowed.has(holder.userId), exclude);
      else if (!recordChannelOf(event.channel)) this.server.publish([event.channel], event.event, text, exclude);
      // Anything else on a record channel is not a record event we can judge: it goes nowhere.
    }
  }

  /** For each record event, who may read its record (null: not a record event). */
  private async judge(events: OutEvent[]): Promise<(Set<number> | null)[]> {
    const out: (Set<number> | null)[] = events.map(() => null);
    const byTeam = new Map<number, { index: number; record: RecordEvent }[]>();
    events.forEach((event, index) => {
      if (event.event === 'refresh') return;
      const record = recordOf(event.channel, event.data);
      if (!record) return;
      out[index] = new Set();
      const list = byTeam.get(record.teamId);
      if (list) list.push({ index, record });
      else byTeam.set(record.teamId, [{ index, record }]);
    });
    if (!this.db) return out;
    for (const [teamId, list] of byTeam) {
      const userIds = new Set<number>();
      for (const { index } of list) for (const holder of this.server.holdersOf(events[index]!.channel)) userIds.add(holder.userId);
      if (userIds.size === 0) continue;
      const sets = await readersOf(this.db, teamId, list.map((l) => l.record), [...userIds]);
      list.forEach(({ index }, k) => (out[index] = sets[k]!));
    }
    return out;
  }
}

/**
 * A workspace's member and permission channels. On an external cluster a removed member's open
 * socket cannot be closed, so these carry only a ping too (member e-mails stay behind the REST
 * read); the app reads members and permissions through REST today and subscribes to neither.
 */
const TEAM_CHANNEL = /^private-team\.(\d+)\.(?:users|permissions)$/;

/**
 * What an external cluster may carry (decision 0090): it cannot judge readers per socket nor be
 * told reliably to end a subscription, so record channels carry no records there. A record event
 * becomes a content-free `changed` on the board channel (the client catches up through /changes,
 * the read scope); the time-tracking copy is dropped; `refresh` loses its folder. Null: not sent.
 */
export function externalForm(event: OutEvent): OutEvent | null {
  const team = TEAM_CHANNEL.exec(event.channel);
  if (team) return { channel: event.channel, event: 'changed', data: { team_id: Number(team[1]) } };
  const owner = recordChannelOf(event.channel);
  if (!owner) return event;
  const refresh = contentFreeRefresh(event);
  if (refresh) return { channel: event.channel, event: 'refresh', data: JSON.parse(refresh.data) };
  if (owner.kind !== 'board') return null;
  return { channel: event.channel, event: 'changed', data: { board_id: owner.boardId } };
}

/**
 * Publishes through the `pusher` SDK (signed HTTP API) to an external Pusher-compatible service
 * (or a Cairn hub). A publish that fails is logged, never thrown: the write it announces is already
 * committed, and clients catch up through /changes when they reconnect.
 *
 * Like the embedded broadcaster, publishing queues and resolves at once: a write's answer must not
 * wait for a network round trip to the realtime service — with the SDK's 10 s timeout a slow or
 * unreachable hub held every save (found by bench/scale-out.ts, decision 0192). The queue is sent
 * in order, in signed batches of up to 10 events (`batch_events`), and while one batch is on its way
 * the next writes' board pings are merged: many saves to one board in that time make one `changed`
 * (the client reads /changes once anyway). While the service is unreachable the queue is capped;
 * beyond the cap events are dropped and the drop is logged (clients catch up when they reconnect).
 */
export class PusherBroadcaster implements Broadcaster {
  readonly client: Pusher;
  private queue: Pusher.BatchEvent[] = [];
  /** Index in `queue` of the `changed` ping per board channel not yet sent (to merge into). */
  private pings = new Map<string, number>();
  private sending: Promise<void> | null = null;
  private dropped = 0;
  static readonly MAX_PENDING = 10_000;
  /** The Pusher HTTP API's batch limit. */
  static readonly BATCH = 10;

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
    await this.publishMany([{ channel, event, data }], opts);
  }

  /** Queues the events in their external form (resolves at once); they go out in the order published. */
  async publishMany(events: OutEvent[], opts: { excludeSocketId?: string } = {}) {
    // The SDK throws on a malformed socket id; a bad X-Socket-Id header must not cost the event.
    const socketId = isValidSocketId(opts.excludeSocketId) ? opts.excludeSocketId : undefined;
    for (const original of events) {
      const event = externalForm(original);
      if (!event) continue;
      if (event.event === 'changed') {
        const at = this.pings.get(event.channel);
        if (at !== undefined) {
          // Merged with an unsent ping of the same board: it goes to everyone unless both writes
          // came from the same socket (a socket may get a ping of its own write: it reads nothing new).
          if (this.queue[at]!.socket_id !== socketId) delete this.queue[at]!.socket_id;
          continue;
        }
      }
      if (this.queue.length >= PusherBroadcaster.MAX_PENDING) {
        this.dropped += 1;
        if (this.dropped === 1 || this.dropped % 1000 === 0) this.onError(new Error(`realtime service not keeping up: ${this.dropped} events dropped`), event.channel, event.event);
        continue;
      }
      if (event.event === 'changed') this.pings.set(event.channel, this.queue.length);
      this.queue.push({ channel: event.channel, name: event.event, data: event.data, ...(socketId ? { socket_id: socketId } : {}) });
    }
    this.sending ??= this.drain().finally(() => (this.sending = null));
  }

  /** Resolves when everything published so far has been sent (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, PusherBroadcaster.BATCH);
      // Pings still queued move down with the queue; the sent ones can no longer be merged into.
      const pings = new Map<string, number>();
      for (const [channel, at] of this.pings) if (at >= batch.length) pings.set(channel, at - batch.length);
      this.pings = pings;
      try {
        if (batch.length === 1) {
          const [one] = batch;
          await this.client.trigger(one!.channel, one!.name, one!.data, one!.socket_id ? { socket_id: one!.socket_id } : undefined);
        } else await this.client.triggerBatch(batch);
      } catch (error) {
        this.onError(error, batch.map((e) => e.channel).join(','), batch.map((e) => e.name).join(','));
      }
    }
    this.dropped = 0;
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
