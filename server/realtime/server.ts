import crypto from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { Codes, Events, MAX_EVENT_NAME_LENGTH, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, channelKind, encodeFrame, errorFrame, isClientEvent, isValidChannelName, type Frame } from './protocol';
import { verifySubscription } from './signature';
import { ChannelRegistry, type Member } from './channels';

/** Settings of the embedded Pusher-protocol server. Times in ms unless named otherwise. */
export interface RealtimeServerOptions {
  appId: string;
  key: string;
  secret: string;
  /** Seconds of silence before the server pings a client; sent to clients in the handshake. */
  activityTimeoutSec: number;
  /** How long a pinged client has to answer before it is dropped (close 4201). */
  pongTimeoutMs: number;
  maxConnectionsPerIp: number;
  /** Largest client message accepted; larger ones get a pusher:error and are ignored. */
  maxMessageBytes: number;
  maxSubscriptionsPerConnection: number;
  /** Largest `data` accepted by the HTTP publish API. */
  maxPublishBytes: number;
  /** Client events a connection may send per second before they are refused. */
  clientEventsPerSecond: number;
  /** A client whose unsent backlog passes this is too slow to follow; it is closed (4100) and reconnects. */
  maxBufferedBytes: number;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  now: () => number;
}

export const defaultRealtimeOptions: Omit<RealtimeServerOptions, 'appId' | 'key' | 'secret'> = {
  activityTimeoutSec: 120,
  pongTimeoutMs: 30_000,
  maxConnectionsPerIp: 200,
  maxMessageBytes: 10 * 1024,
  maxSubscriptionsPerConnection: 100,
  maxPublishBytes: 256 * 1024,
  clientEventsPerSecond: 10,
  maxBufferedBytes: 8 * 1024 * 1024,
  trustProxy: false,
  now: Date.now,
};

/** Who a subscription was authorised for (multi-auth tells the server when it signs). */
export interface Holder {
  userId: number;
  /** The session whose access token asked; null when unknown. */
  sessionId: number | null;
}

/** Most signed-but-not-yet-used authorisations one connection keeps (older ones are forgotten). */
const MAX_PENDING_GRANTS = 256;

/** One client connection and what the server tracks about it. */
export class Connection {
  readonly channels = new Set<string>();
  /** Holder of each subscription; null when it was signed elsewhere (then it gets no scoped event). */
  readonly holders = new Map<string, Holder | null>();
  /** Authorisations signed for this socket, waiting for its subscribe frame. */
  readonly grants = new Map<string, Holder>();
  /** The presence member this connection is on each presence channel. */
  readonly presence = new Map<string, Member>();
  lastSeen: number;
  pingSentAt: number | null = null;
  private eventWindowStart = 0;
  private eventsInWindow = 0;

  constructor(
    readonly socketId: string,
    readonly ws: WebSocket,
    readonly ip: string,
    now: number,
  ) {
    this.lastSeen = now;
  }

  send(frame: string | Buffer) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(frame, { binary: false });
  }

  /** A fixed one-second window: enough to stop a flood without keeping per-event history. */
  takeClientEventSlot(now: number, perSecond: number): boolean {
    if (now - this.eventWindowStart >= 1000) {
      this.eventWindowStart = now;
      this.eventsInWindow = 0;
    }
    this.eventsInWindow += 1;
    return this.eventsInWindow <= perSecond;
  }
}

const SOCKET_ID = /^\d+\.\d+$/;
export const isValidSocketId = (value: unknown): value is string => typeof value === 'string' && SOCKET_ID.test(value);

function newSocketId(): string {
  const part = () => crypto.randomInt(1, 2 ** 47).toString();
  return `${part()}.${part()}`;
}

/**
 * The embedded Pusher Channels (protocol 7) server: WebSocket connections at /app/{key}, public,
 * private and presence channels, ping/pong, limits, and in-process publishing for the API server.
 */
export class EmbeddedRealtimeServer {
  readonly options: RealtimeServerOptions;
  private readonly wss: WebSocketServer;
  private readonly connections = new Map<string, Connection>();
  private readonly perIp = new Map<string, number>();
  readonly registry = new ChannelRegistry<Connection>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /**
   * A first event for a channel, sent right after its subscription succeeds (and on a repeated
   * subscribe): the app announces its version on the user channel this way (routes.ts, S4.11).
   */
  welcome: ((channel: string) => { event: string; data: string } | null) | null = null;

  constructor(options: Partial<RealtimeServerOptions> & Pick<RealtimeServerOptions, 'appId' | 'key' | 'secret'>) {
    this.options = { ...defaultRealtimeOptions, ...options };
    // ws enforces a hard cap (close 1009) well above the polite limit we answer with pusher:error.
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: Math.max(this.options.maxMessageBytes * 4, 64 * 1024) });
  }

  get connectionCount() {
    return this.connections.size;
  }

  /** Listens for WebSocket upgrades on an HTTP server (the Fastify app's). */
  attach(server: HttpServer) {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.handleUpgrade(request, socket, head)) return;
      // Not ours: leave it to another upgrade listener if there is one.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
    });
    this.startSweep();
  }

  /** Takes an upgrade request for /app/…; returns false for other paths. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/app\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) return false;
    if (this.closed) {
      socket.destroy();
      return true;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, request, decodeURIComponent(match[1]!), url.searchParams.get('protocol')));
    return true;
  }

  private clientIp(request: IncomingMessage): string {
    if (this.options.trustProxy) {
      const forwarded = request.headers['x-forwarded-for'];
      const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
      if (first) return first;
    }
    return request.socket.remoteAddress ?? 'unknown';
  }

  private refuse(ws: WebSocket, code: number, message: string) {
    ws.send(errorFrame(code, message));
    ws.close(code, message);
  }

  private accept(ws: WebSocket, request: IncomingMessage, key: string, protocol: string | null) {
    if (key !== this.options.key) return this.refuse(ws, Codes.appDoesNotExist, `Application does not exist: ${key}`);
    if (protocol === null) return this.refuse(ws, Codes.noProtocolVersion, 'No protocol version supplied');
    if (!/^\d+$/.test(protocol)) return this.refuse(ws, Codes.invalidVersion, 'Invalid version string format');
    const version = Number(protocol);
    if (version < MIN_PROTOCOL_VERSION || version > PROTOCOL_VERSION) return this.refuse(ws, Codes.unsupportedProtocol, `Unsupported protocol version: ${version}`);

    const ip = this.clientIp(request);
    const open = this.perIp.get(ip) ?? 0;
    if (open >= this.options.maxConnectionsPerIp) {
      return this.refuse(ws, Codes.overCapacity, `Over capacity: at most ${this.options.maxConnectionsPerIp} connections per address`);
    }
    this.perIp.set(ip, open + 1);

    const connection = new Connection(newSocketId(), ws, ip, this.options.now());
    this.connections.set(connection.socketId, connection);
    ws.on('message', (raw, isBinary) => this.onMessage(connection, raw, isBinary));
    ws.on('close', () => this.onClose(connection));
    ws.on('error', () => ws.terminate());
    connection.send(
      encodeFrame({
        event: Events.connectionEstablished,
        data: JSON.stringify({ socket_id: connection.socketId, activity_timeout: this.options.activityTimeoutSec }),
      }),
    );
  }

  private onClose(connection: Connection) {
    if (!this.connections.delete(connection.socketId)) return;
    const left = (this.perIp.get(connection.ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(connection.ip, left);
    else this.perIp.delete(connection.ip);
    for (const channel of connection.channels) this.leave(connection, channel);
  }

  private onMessage(connection: Connection, raw: RawData, isBinary: boolean) {
    connection.lastSeen = this.options.now();
    connection.pingSentAt = null;
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : (raw as Buffer | ArrayBuffer).byteLength;
    if (size > this.options.maxMessageBytes) {
      connection.send(errorFrame(Codes.messageRejected, `Message too large: the limit is ${this.options.maxMessageBytes} bytes`));
      return;
    }
    if (isBinary) {
      connection.send(errorFrame(Codes.messageRejected, 'Binary messages are not supported'));
      return;
    }
    let frame: Frame;
    try {
      frame = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.concat(Array.isArray(raw) ? raw : [Buffer.from(raw)]).toString('utf8'));
      if (!frame || typeof frame !== 'object' || typeof frame.event !== 'string') throw new Error('no event');
    } catch {
      connection.send(errorFrame(Codes.messageRejected, 'Message is not a valid protocol frame (JSON with an event name)'));
      return;
    }
    const data = typeof frame.data === 'string' ? tryParse(frame.data) : frame.data;
    switch (frame.event) {
      case Events.ping:
        connection.send(encodeFrame({ event: Events.pong, data: {} }));
        return;
      case Events.pong:
        return;
      case Events.subscribe:
        this.subscribe(connection, (data ?? {}) as SubscribeData);
        return;
      case Events.unsubscribe: {
        const channel = (data as { channel?: unknown } | undefined)?.channel;
        if (typeof channel === 'string' && connection.channels.has(channel)) this.leave(connection, channel);
        return;
      }
      default:
        if (isClientEvent(frame.event)) this.clientEvent(connection, frame);
      // Other events (pusher:signin, unknown ones) are ignored, as the protocol allows.
    }
  }

  private subscriptionError(connection: Connection, channel: string, type: string, error: string, status: number) {
    connection.send(encodeFrame({ event: Events.subscriptionError, channel, data: { type, error, status } }));
  }

  private subscribe(connection: Connection, data: SubscribeData) {
    const channel = data.channel;
    if (!isValidChannelName(channel)) {
      this.subscriptionError(connection, String(channel ?? ''), 'InvalidChannel', 'Invalid channel name', 400);
      return;
    }
    const kind = channelKind(channel);
    if (!connection.channels.has(channel) && connection.channels.size >= this.options.maxSubscriptionsPerConnection) {
      this.subscriptionError(connection, channel, 'LimitReached', `Too many subscriptions: at most ${this.options.maxSubscriptionsPerConnection} per connection`, 429);
      return;
    }
    let member: Member | undefined;
    if (kind !== 'public') {
      const channelData = kind === 'presence' && typeof data.channel_data === 'string' ? data.channel_data : undefined;
      if (kind === 'presence' && channelData === undefined) {
        this.subscriptionError(connection, channel, 'AuthError', 'Presence channels need channel_data', 401);
        return;
      }
      if (!verifySubscription(this.options.key, this.options.secret, data.auth, connection.socketId, channel, channelData)) {
        this.subscriptionError(connection, channel, 'AuthError', `Invalid signature for channel ${channel}`, 401);
        return;
      }
      if (kind === 'presence') {
        member = parseMember(channelData ?? '');
        if (!member) {
          this.subscriptionError(connection, channel, 'AuthError', 'channel_data must be JSON with a user_id', 400);
          return;
        }
      }
    }
    if (connection.channels.has(channel)) {
      // A repeated subscribe (e.g. after a client-side retry) just confirms again.
      this.confirm(connection, channel);
      return;
    }
    connection.channels.add(channel);
    connection.holders.set(channel, connection.grants.get(channel) ?? null);
    connection.grants.delete(channel);
    const { isNewMember } = this.registry.join(channel, connection, member);
    if (member) {
      connection.presence.set(channel, member);
      if (isNewMember) {
        this.sendToChannel(channel, encodeFrame({ event: Events.memberAdded, channel, data: JSON.stringify({ user_id: member.user_id, user_info: member.user_info }) }), connection.socketId);
      }
    }
    this.confirm(connection, channel);
  }

  private confirm(connection: Connection, channel: string) {
    const data = channelKind(channel) === 'presence' ? JSON.stringify({ presence: this.registry.presenceData(channel) }) : '{}';
    connection.send(encodeFrame({ event: Events.subscriptionSucceeded, channel, data }));
    const first = this.welcome?.(channel);
    if (first) connection.send(encodeFrame({ event: first.event, channel, data: first.data }));
  }

  private leave(connection: Connection, channel: string) {
    connection.channels.delete(channel);
    connection.holders.delete(channel);
    const member = connection.presence.get(channel);
    connection.presence.delete(channel);
    const { memberGone } = this.registry.leave(channel, connection, member);
    if (member && memberGone) {
      this.sendToChannel(channel, encodeFrame({ event: Events.memberRemoved, channel, data: JSON.stringify({ user_id: member.user_id }) }));
    }
  }

  private clientEvent(connection: Connection, frame: Frame) {
    const channel = frame.channel;
    if (typeof channel !== 'string' || channelKind(channel) === 'public') {
      connection.send(errorFrame(Codes.clientEventRejected, 'Client event rejected: only supported on private and presence channels'));
      return;
    }
    if (!connection.channels.has(channel)) {
      connection.send(errorFrame(Codes.clientEventRejected, `Client event rejected: not subscribed to ${channel}`));
      return;
    }
    if (frame.event.length > MAX_EVENT_NAME_LENGTH) {
      connection.send(errorFrame(Codes.clientEventRejected, 'Client event rejected: event name too long'));
      return;
    }
    if (!connection.takeClientEventSlot(this.options.now(), this.options.clientEventsPerSecond)) {
      connection.send(errorFrame(Codes.clientEventRejected, 'Client event rejected due to rate limit'));
      return;
    }
    const out: Frame = { event: frame.event, channel, data: typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data ?? {}) };
    const member = connection.presence.get(channel);
    if (member) out.user_id = member.user_id;
    this.sendToChannel(channel, encodeFrame(out), connection.socketId);
  }

  /**
   * Sends one encoded frame to every subscriber of a channel except one socket (and, with `to`,
   * only to subscriptions whose holder it accepts); returns how many got it.
   */
  private sendToChannel(channel: string, frame: string, excludeSocketId?: string, to?: (holder: Holder | null) => boolean): number {
    const subscribers = this.registry.subscribers(channel);
    if (!subscribers || subscribers.size === 0) return 0;
    // Encode once; ws would otherwise convert the string for every socket.
    const bytes = Buffer.from(frame, 'utf8');
    let sent = 0;
    for (const connection of subscribers) {
      if (connection.socketId === excludeSocketId) continue;
      if (to && !to(connection.holders.get(channel) ?? null)) continue;
      if (connection.ws.bufferedAmount > this.options.maxBufferedBytes) {
        // Too far behind to catch up by frames: cut it; it reconnects and catches up via /changes.
        connection.ws.terminate();
        this.onClose(connection);
        continue;
      }
      connection.send(bytes);
      sent += 1;
    }
    return sent;
  }

  /**
   * Publishes one server event to channels (what the HTTP API and the in-process broadcaster call).
   * `data` is the event payload as a string, as in the protocol. Returns the number of deliveries.
   */
  publish(channels: string[], event: string, data: string, excludeSocketId?: string): number {
    let sent = 0;
    for (const channel of channels) sent += this.sendToChannel(channel, encodeFrame({ event, channel, data }), excludeSocketId);
    return sent;
  }

  /**
   * Publishes one event to the subscribers of one channel whose holder `to` accepts (a record
   * event judged per reader, record-audience.ts). Returns the number of deliveries.
   */
  publishTo(channel: string, event: string, data: string, to: (holder: Holder | null) => boolean, excludeSocketId?: string): number {
    return this.sendToChannel(channel, encodeFrame({ event, channel, data }), excludeSocketId, to);
  }

  /** The holders subscribed to a channel now (to judge an event for each of them). */
  holdersOf(channel: string): Holder[] {
    const out: Holder[] = [];
    for (const connection of this.registry.subscribers(channel) ?? []) {
      const holder = connection.holders.get(channel);
      if (holder) out.push(holder);
    }
    return out;
  }

  /**
   * Multi-auth signed `channel` for this socket on behalf of `holder`: remembered until the
   * socket subscribes with that signature, so the server knows whose subscription it is.
   */
  grant(socketId: string, channel: string, holder: Holder): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    connection.grants.delete(channel);
    connection.grants.set(channel, holder);
    if (connection.grants.size > MAX_PENDING_GRANTS) connection.grants.delete(connection.grants.keys().next().value!);
  }

  /**
   * Ends, at once, every connection holding a subscription that `matches` (decision 0090): the
   * connection is closed with 4210 and forgotten, so it gets nothing more; the client reconnects
   * and asks again for each channel, and what it may no longer read is refused. Returns how many
   * connections were ended.
   */
  endSubscriptions(matches: (channel: string, holder: Holder | null) => boolean): number {
    const ending = new Set<string>();
    for (const connection of this.connections.values()) {
      if ([...connection.holders].some(([channel, holder]) => matches(channel, holder))) ending.add(connection.socketId);
    }
    return this.endConnections(ending);
  }

  /** Ends these connections (close 4210); returns how many were open. */
  endConnections(socketIds: Iterable<string>): number {
    let ended = 0;
    for (const socketId of socketIds) {
      const connection = this.connections.get(socketId);
      if (!connection) continue;
      connection.ws.close(Codes.subscriptionsEnded, 'Subscriptions ended: authorise again');
      const ws = connection.ws;
      setTimeout(() => ws.terminate(), 1000).unref();
      this.onClose(connection);
      ended += 1;
    }
    return ended;
  }

  /** Every subscription now, with its socket and holder. */
  *subscriptions(): Generator<{ socketId: string; channel: string; holder: Holder | null }> {
    for (const connection of this.connections.values()) {
      for (const [channel, holder] of connection.holders) yield { socketId: connection.socketId, channel, holder };
    }
  }

  /** Pings silent clients and drops those that did not answer in time. */
  sweep() {
    const now = this.options.now();
    const activityMs = this.options.activityTimeoutSec * 1000;
    for (const connection of this.connections.values()) {
      if (connection.pingSentAt !== null) {
        if (now - connection.pingSentAt >= this.options.pongTimeoutMs) {
          connection.ws.close(Codes.pongNotReceived, 'Pong reply not received');
          // Do not wait for the closing handshake of a client that no longer answers.
          const ws = connection.ws;
          setTimeout(() => ws.terminate(), 1000).unref();
          this.onClose(connection);
        }
      } else if (now - connection.lastSeen >= activityMs) {
        connection.pingSentAt = now;
        connection.send(encodeFrame({ event: Events.ping, data: {} }));
      }
    }
  }

  private startSweep() {
    if (this.sweepTimer) return;
    const every = Math.max(50, Math.min(1000, this.options.pongTimeoutMs / 4, (this.options.activityTimeoutSec * 1000) / 4));
    this.sweepTimer = setInterval(() => this.sweep(), every);
    this.sweepTimer.unref();
  }

  stats() {
    return { connections: this.connections.size, channels: this.registry.size };
  }

  /** Closes every connection (code 4200: clients reconnect, e.g. to another server) and stops. */
  async close() {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    const sockets = [...this.connections.values()].map((connection) => {
      connection.ws.close(Codes.genericReconnect, 'Server shutting down');
      this.onClose(connection);
      return connection.ws;
    });
    // Give the close frames a moment to leave, then cut whatever is still open.
    if (sockets.length) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const ws of sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

interface SubscribeData {
  channel?: unknown;
  auth?: unknown;
  channel_data?: unknown;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseMember(channelData: string): Member | undefined {
  const parsed = tryParse(channelData) as { user_id?: unknown; user_info?: unknown } | string;
  if (!parsed || typeof parsed !== 'object') return undefined;
  const id = parsed.user_id;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0) return undefined;
  return { user_id: String(id), user_info: parsed.user_info ?? null };
}
