import { AUTH_BATCH_MS, CLIENT_VERSION } from '../../schema/constants';
import type { Clock } from '../clock';
import { RealtimeAuthUnavailableError, RealtimeUnauthorizedError } from './errors';

/** What pusher-js hands a channel authorizer, and the answer it waits for. */
export interface AuthRequest {
  socketId: string;
  channelName: string;
}
export interface ChannelAuth {
  auth: string;
  channel_data?: string;
}
export type AuthCallback = (error: Error | null, auth: ChannelAuth | null) => void;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface AuthBatcherOptions {
  /** Full URL of POST /api/broadcasting/multi-auth. */
  endpoint: string;
  fetch: FetchLike;
  /** The current access token (refreshed by the caller when due); null for a guest. */
  getToken(): Promise<string | null> | string | null;
  clock: Clock;
  batchMs?: number;
  /**
   * The live connection's socket id. Requests made for an earlier socket (the connection dropped
   * while they waited) are dropped unanswered: pusher-js asks again for the new socket, and a
   * signature for the old one would only be refused.
   */
  currentSocketId?(): string | null;
  /** Called for every channel refused or not authorised, before pusher-js hears of it. */
  onFailure?(channel: string, error: Error): void;
}

/** A failed call (no answer, 5xx) is asked again this many times, this far apart, before giving up. */
export const AUTH_RETRIES = 3;
export const AUTH_RETRY_MS = 5_000;

interface Waiting {
  channelName: string;
  callbacks: AuthCallback[];
}

/**
 * Collects every channel authorisation pusher-js asks for within AUTH_BATCH_MS (2 s, from the
 * first request) and asks the server once: POST multi-auth {socketId, channelNames}. Each channel
 * is answered from its own entry; an entry that is missing or not 200 is the Unauthorized error.
 */
export class AuthBatcher {
  private pending = new Map<string, Map<string, Waiting>>();
  private timer: unknown = null;
  private stopped = false;
  /** Multi-auth calls sent so far (diagnostics). */
  calls = 0;

  constructor(private readonly opts: AuthBatcherOptions) {}

  /** The pusher-js `channelAuthorization.customHandler`. */
  readonly authorize = (request: AuthRequest, callback: AuthCallback): void => {
    if (this.stopped) return;
    let bySocket = this.pending.get(request.socketId);
    if (!bySocket) {
      bySocket = new Map();
      this.pending.set(request.socketId, bySocket);
    }
    const waiting = bySocket.get(request.channelName);
    if (waiting) waiting.callbacks.push(callback);
    else bySocket.set(request.channelName, { channelName: request.channelName, callbacks: [callback] });
    if (this.timer === null) this.timer = this.opts.clock.setTimeout(() => void this.flush(), this.opts.batchMs ?? AUTH_BATCH_MS);
  };

  /** Sends what is waiting now (the timer calls this; tests and shutdown may too). */
  async flush(): Promise<void> {
    if (this.timer !== null) this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    await Promise.all(batches.map(([socketId, waiting]) => this.send(socketId, [...waiting.values()], 0)));
  }

  stop() {
    this.stopped = true;
    if (this.timer !== null) this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  private isStale(socketId: string): boolean {
    const current = this.opts.currentSocketId?.();
    return current !== undefined && current !== null && current !== socketId;
  }

  private async send(socketId: string, waiting: Waiting[], attempt: number, tokenRetried = false): Promise<void> {
    if (this.stopped || this.isStale(socketId)) return;
    const token = await this.opts.getToken();
    if (!token) {
      // Guests cannot subscribe (shell.md §6).
      for (const w of waiting) this.fail(w, new RealtimeUnauthorizedError(w.channelName));
      return;
    }
    let response: Response;
    let body: unknown = null;
    try {
      this.calls += 1;
      response = await this.opts.fetch(this.opts.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}`, 'x-client-version': CLIENT_VERSION },
        body: JSON.stringify({ socketId, channelNames: waiting.map((w) => w.channelName) }),
      });
      body = await response.json().catch(() => null);
    } catch (error) {
      return this.retryLater(socketId, waiting, attempt, `Channel authorisation got no answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.stopped || this.isStale(socketId)) return;
    if (response.status === 401 && !tokenRetried) {
      // The token went stale between reading and sending: ask again with a fresh one.
      return this.send(socketId, waiting, attempt, true);
    }
    if (response.status >= 500) return this.retryLater(socketId, waiting, attempt, `Channel authorisation failed with status ${response.status}`);
    const entries = response.ok && body && typeof body === 'object' ? (body as Record<string, { status?: number; data?: ChannelAuth } | undefined>) : {};
    for (const w of waiting) {
      const entry = entries[w.channelName];
      if (entry && entry.status === 200 && entry.data && typeof entry.data.auth === 'string') {
        const auth: ChannelAuth = { auth: entry.data.auth };
        if (typeof entry.data.channel_data === 'string') auth.channel_data = entry.data.channel_data;
        for (const callback of w.callbacks) callback(null, auth);
      } else {
        this.fail(w, new RealtimeUnauthorizedError(w.channelName, entry?.status ?? (response.ok ? undefined : response.status)));
      }
    }
  }

  private retryLater(socketId: string, waiting: Waiting[], attempt: number, message: string) {
    if (attempt + 1 >= AUTH_RETRIES) {
      for (const w of waiting) this.fail(w, new RealtimeAuthUnavailableError(w.channelName, message));
      return;
    }
    this.opts.clock.setTimeout(() => void this.send(socketId, waiting, attempt + 1), AUTH_RETRY_MS * (attempt + 1));
  }

  private fail(w: Waiting, error: Error) {
    this.opts.onFailure?.(w.channelName, error);
    for (const callback of w.callbacks) callback(error, null);
  }
}
