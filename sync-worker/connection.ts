/**
 * Connected / disconnected (shell.md §4).
 *
 * Connected when the browser reports online, on a realtime pong or reconnect, or after a
 * successful non-GET request. Disconnected after a grace delay following an offline event or a
 * realtime drop (a blip that heals within the delay changes nothing), and at once on an HTTP
 * network failure. Each disconnected → connected step runs the reconnect work: flush the failed
 * requests and catch up the open board at once, then a full sync after a random wait of up to
 * DELAYED_SYNC_MAX_MS (420 s). All timing comes from the injected clock and random source.
 */
import { DELAYED_SYNC_MAX_MS } from '../schema/constants';
import type { Clock, Random } from './clock';

/** Not given by the spec ("after a delay"): we wait 3 s before believing an offline signal. */
export const DISCONNECT_GRACE_MS = 3_000;

export type ConnectionStatus = 'connected' | 'disconnected';

export interface ConnectionHooks {
  /** Right after reconnecting: flush failed requests, catch up through /changes. */
  onReconnect(): void;
  /** The delayed full sync, up to 420 s after a reconnect. */
  onDelayedSync(): void;
  onStatus?(status: ConnectionStatus): void;
  /** Connected by an HTTP answer while the realtime socket is away (see `unheard`). */
  onUnheard?(): void;
}

export class Connection {
  private state: ConnectionStatus;
  /** The realtime socket: never connected yet, live, or lost after being live. */
  private realtime: 'never' | 'live' | 'lost' = 'never';
  private disconnectTimer: unknown = null;
  private delayedSyncTimer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly hooks: ConnectionHooks,
    initiallyOnline = true,
    private readonly graceMs = DISCONNECT_GRACE_MS,
  ) {
    this.state = initiallyOnline ? 'connected' : 'disconnected';
  }

  get status(): ConnectionStatus {
    return this.state;
  }

  get online(): boolean {
    return this.state === 'connected';
  }

  browserOnline(): void {
    this.connect();
  }

  browserOffline(): void {
    this.disconnectSoon();
  }

  realtimePong(): void {
    this.realtime = 'live';
    this.connect();
  }

  realtimeReconnected(): void {
    this.realtime = 'live';
    this.connect();
  }

  realtimeDropped(): void {
    this.realtime = 'lost';
    this.disconnectSoon();
  }

  /**
   * Connected (an HTTP answer said so) while the realtime socket that was live is still away: no
   * socket can drop to tell us the network went again, so the engine asks the server itself
   * (engine.ts, the liveness probe) until the socket is back.
   */
  get unheard(): boolean {
    return this.state === 'connected' && this.realtime === 'lost';
  }

  /** Any answer to a non-GET proves the server is reachable. */
  requestSucceeded(method: string): void {
    if (method.toUpperCase() !== 'GET') this.connect();
  }

  /** A request got no answer at all: disconnected at once. */
  networkFailure(): void {
    this.cancelDisconnect();
    this.setState('disconnected');
  }

  /** The delayed sync that is waiting, if any (for tests and the status UI). */
  hasDelayedSync(): boolean {
    return this.delayedSyncTimer !== null;
  }

  dispose(): void {
    this.cancelDisconnect();
    if (this.delayedSyncTimer !== null) this.clock.clearTimeout(this.delayedSyncTimer);
    this.delayedSyncTimer = null;
  }

  private connect(): void {
    this.cancelDisconnect();
    if (this.state !== 'connected') {
      this.setState('connected');
      this.hooks.onReconnect();
      this.scheduleDelayedSync();
    }
    if (this.unheard) this.hooks.onUnheard?.();
  }

  private disconnectSoon(): void {
    if (this.state === 'disconnected' || this.disconnectTimer !== null) return;
    this.disconnectTimer = this.clock.setTimeout(() => {
      this.disconnectTimer = null;
      this.setState('disconnected');
    }, this.graceMs);
  }

  private cancelDisconnect(): void {
    if (this.disconnectTimer !== null) this.clock.clearTimeout(this.disconnectTimer);
    this.disconnectTimer = null;
  }

  private scheduleDelayedSync(): void {
    // One delayed sync at a time: a later reconnect replaces the one still waiting.
    if (this.delayedSyncTimer !== null) this.clock.clearTimeout(this.delayedSyncTimer);
    const wait = Math.floor(this.random() * DELAYED_SYNC_MAX_MS);
    this.delayedSyncTimer = this.clock.setTimeout(() => {
      this.delayedSyncTimer = null;
      this.hooks.onDelayedSync();
    }, wait);
  }

  private setState(next: ConnectionStatus): void {
    if (this.state === next) return;
    this.state = next;
    this.hooks.onStatus?.(next);
  }
}
