import type PusherClass from 'pusher-js';
import type { Channel, Options } from 'pusher-js';
import { systemClock, type Clock } from '../clock';
import { AuthBatcher, type FetchLike } from './auth-batcher';
import { channelNames, scopeOf, type ChannelScope } from './channels';
import { RealtimeUnauthorizedError } from './errors';

/** The pusher-js class: the worker build in the app, the Node build in tests. */
export type PusherConstructor = new (key: string, options: Options) => PusherClass;

/** `broadcasting` of GET /api/app-vars. */
export interface BroadcastingVars {
  key: string;
  host: string;
  port: number;
  useTLS?: boolean;
  /** The server's own endpoint: reach it where the app came from (proxies, TLS termination). */
  embedded?: boolean;
}

/**
 * Where to connect. The embedded endpoint lives on the API server, so from a page (or worker)
 * served by it the origin is the right address even behind a proxy; app-vars' host is the server's
 * own bind address, which a browser may not reach. External services use app-vars as given.
 */
export function socketAddress(vars: BroadcastingVars, origin: { hostname: string; port: string; protocol: string } | undefined): { host: string; port: number; tls: boolean } {
  if (vars.embedded && origin && origin.hostname) {
    const tls = origin.protocol === 'https:';
    return { host: origin.hostname, port: origin.port ? Number(origin.port) : tls ? 443 : 80, tls };
  }
  return { host: vars.host, port: vars.port, tls: Boolean(vars.useTLS) };
}

/** One event that arrived on a channel, with what the channel is about. */
export type RealtimeEvent =
  | { scope: 'board'; teamId: number; boardId: string; event: 'saved' | 'deleted' | 'refresh' | 'changed'; collection: string; data: unknown }
  | (Exclude<ChannelScope, { scope: 'board' }> & { event: string; data: unknown });

/**
 * Liveness signals for the connection state machine (shell.md §4): `connected` on the first
 * connection, `reconnected` on every later one, `pong` whenever the server proves it is there
 * (a pong to our ping, or its own ping), `dropped` when an established connection is lost.
 */
export type ConnectionSignal = 'connected' | 'reconnected' | 'pong' | 'dropped';

export interface RealtimeOptions {
  appVars: { broadcasting: BroadcastingVars };
  /** Base URL of the API ('' for same origin). */
  apiBase?: string;
  getToken(): Promise<string | null> | string | null;
  fetch: FetchLike;
  onEvent(event: RealtimeEvent): void;
  onConnectionChange?(signal: ConnectionSignal): void;
  /**
   * A channel is subscribed: the first time and again after every reconnect. Events published
   * while it was not (the socket away, or its authorisation on its way) never arrive, so this is
   * the moment to ask the server for what they would have said.
   */
  onSubscribed?(scope: ChannelScope): void;
  /** Unauthorized (RealtimeUnauthorizedError) and other subscription failures, also after reconnects. */
  onError?(error: Error): void;
  Pusher: PusherConstructor;
  clock?: Clock;
  authBatchMs?: number;
  /** The app's origin (defaults to the worker's `location`; null: always use app-vars as given). */
  origin?: { hostname: string; port: string; protocol: string } | null;
  /** pusher-js tuning (tests shorten timeouts). */
  pusherOptions?: Partial<Options>;
}

interface Subscription {
  channel: Channel;
  ready: Promise<void>;
  settle(error?: Error): void;
  lastError: Error | null;
  /** It was subscribed once: a later refusal is a right that ended (decision 0090). */
  succeeded: boolean;
}

/**
 * The worker's realtime client: one pusher-js connection, channel authorisation batched through
 * multi-auth, and typed events handed to the sync engine.
 */
export class Realtime {
  private readonly pusher: PusherClass;
  private readonly batcher: AuthBatcher;
  private readonly subscriptions = new Map<string, Subscription>();
  private everConnected = false;
  private stopping = false;

  constructor(private readonly opts: RealtimeOptions) {
    const clock = opts.clock ?? systemClock;
    this.batcher = new AuthBatcher({
      endpoint: `${opts.apiBase ?? ''}/api/broadcasting/multi-auth`,
      fetch: opts.fetch,
      getToken: opts.getToken,
      clock,
      batchMs: opts.authBatchMs,
      currentSocketId: () => this.socketId(),
      onFailure: (channel, error) => {
        const sub = this.subscriptions.get(channel);
        if (sub) sub.lastError = error;
      },
    });
    const vars = opts.appVars.broadcasting;
    const { host, port, tls } = socketAddress(vars, opts.origin === undefined ? (globalThis as { location?: Location }).location : (opts.origin ?? undefined));
    this.pusher = new opts.Pusher(vars.key, {
      cluster: 'embedded', // required by pusher-js; wsHost/wsPort decide where it connects
      wsHost: host,
      wsPort: port,
      wssPort: port,
      forceTLS: tls,
      enabledTransports: ['ws', 'wss'],
      disableStats: true,
      channelAuthorization: { customHandler: this.batcher.authorize },
      ...opts.pusherOptions,
    });
    this.pusher.connection.bind('state_change', ({ previous, current }: { previous: string; current: string }) => {
      if (current === 'connected') {
        this.signal(this.everConnected ? 'reconnected' : 'connected');
        this.everConnected = true;
      } else if (previous === 'connected' && !this.stopping) {
        this.signal('dropped');
      }
    });
    this.pusher.connection.bind('message', (message: { event?: string }) => {
      if (message.event === 'pusher:pong' || message.event === 'pusher:ping') this.signal('pong');
    });
  }

  /** The socket id of the live connection, sent as X-Socket-Id on writes so the server skips us. */
  socketId(): string | null {
    return this.pusher.connection.state === 'connected' ? (this.pusher.connection.socket_id ?? null) : null;
  }

  get state(): string {
    return this.pusher.connection.state;
  }

  /** team.{id}.users and team.{id}.permissions. */
  subscribeTeam(teamId: number): Promise<void> {
    return all([this.subscribe(channelNames.teamUsers(teamId)), this.subscribe(channelNames.teamPermissions(teamId))]);
  }

  unsubscribeTeam(teamId: number) {
    this.unsubscribe(channelNames.teamUsers(teamId));
    this.unsubscribe(channelNames.teamPermissions(teamId));
  }

  /** App.User.{id}: notifications, all-read, TimeEntrySaved. */
  subscribeUser(userId: number): Promise<void> {
    return this.subscribe(channelNames.user(userId));
  }

  /** The board's record channel (saved, deleted, refresh) and its time-tracking channel. */
  subscribeBoard(teamId: number, boardId: string): Promise<void> {
    return all([this.subscribe(channelNames.board(teamId, boardId)), this.subscribe(channelNames.timeTracking(teamId, boardId))]);
  }

  unsubscribeBoard(teamId: number, boardId: string) {
    this.unsubscribe(channelNames.board(teamId, boardId));
    this.unsubscribe(channelNames.timeTracking(teamId, boardId));
  }

  /** Names of the channels asked for (subscribed or waiting for authorisation). */
  channels(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** Resolves when subscribed; rejects with RealtimeUnauthorizedError when the server refuses. */
  subscribe(name: string): Promise<void> {
    const existing = this.subscriptions.get(name);
    if (existing) return existing.ready;
    const channel = this.pusher.subscribe(name);
    let settled = false;
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    ready.catch(() => undefined); // callers may not wait; failures also go to onError
    const sub: Subscription = {
      channel,
      ready,
      lastError: null,
      succeeded: false,
      settle(error) {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      },
    };
    this.subscriptions.set(name, sub);
    channel.bind('pusher:subscription_succeeded', () => {
      sub.lastError = null;
      sub.succeeded = true;
      sub.settle();
      const scope = scopeOf(name);
      if (scope) this.opts.onSubscribed?.(scope);
    });
    channel.bind('pusher:subscription_error', (info: { status?: number } | undefined) => {
      const error = sub.lastError ?? new RealtimeUnauthorizedError(name, info?.status);
      // The server ended our subscriptions (close 4210) and pusher-js asked again on reconnect:
      // a channel refused now is one we lost the right to. Forget it, so asking later starts afresh.
      if (sub.succeeded && error instanceof RealtimeUnauthorizedError && this.subscriptions.get(name) === sub) this.unsubscribe(name);
      sub.settle(error);
      this.opts.onError?.(error);
    });
    channel.bind_global((event: string, data: unknown) => {
      if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
      this.dispatch(name, event, data);
    });
    return ready;
  }

  unsubscribe(name: string) {
    const sub = this.subscriptions.get(name);
    if (!sub) return;
    this.subscriptions.delete(name);
    sub.channel.unbind_all();
    this.pusher.unsubscribe(name);
  }

  /** Disconnects for good (sign-out, worker shutdown). */
  stop() {
    this.stopping = true;
    this.batcher.stop();
    this.pusher.disconnect();
  }

  private dispatch(channel: string, event: string, data: unknown) {
    // Client events come from other browsers, not from the server: never let them pose as data.
    if (event.startsWith('client-')) return;
    const scope = scopeOf(channel);
    if (!scope) return;
    if (scope.scope === 'board') {
      // `changed` (external cluster): something on the board changed; fetch it through /changes.
      if (event !== 'saved' && event !== 'deleted' && event !== 'refresh' && event !== 'changed') return;
      const payload = (data ?? {}) as { collection?: string; data?: unknown };
      this.opts.onEvent({ ...scope, event, collection: payload.collection ?? '', data: payload.data ?? null });
      return;
    }
    this.opts.onEvent({ ...scope, event, data });
  }

  private signal(signal: ConnectionSignal) {
    this.opts.onConnectionChange?.(signal);
  }
}

function all(promises: Promise<void>[]): Promise<void> {
  const joined = Promise.all(promises).then(() => undefined);
  joined.catch(() => undefined);
  return joined;
}

/** Starts the realtime client (pusher-js connects at once). Guests should not call this (shell.md §6). */
export function createRealtime(opts: RealtimeOptions): Realtime {
  return new Realtime(opts);
}
