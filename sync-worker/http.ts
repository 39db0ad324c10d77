/**
 * The worker's HTTP client (shell.md §7): every request carries Authorization, X-Client-Version,
 * X-Idempotency-Key and X-SW-UUID, plus X-Authorization-Password when a password was set for the
 * session. x-update-required / x-force-reload become `update-required` events. The token is
 * refreshed before a request when due; a 401 from the refresh ends the session (`session-expired`).
 *
 * fetch is injected: tests pass the real global fetch against a real in-process server.
 * HTTP statuses are answers, not exceptions; only a missing answer throws (NetworkError), and a
 * cancel by the caller throws CancelError.
 */
import { CLIENT_VERSION, SERVER_ID_HEADER } from '../schema/constants';
import type { Clock } from './clock';
import type { Emitter } from './events';
import { tokenState, validateTokenRecord } from './token';
import type { TokenRecord } from './types';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** No answer arrived (connection refused, dropped, timed out): a disconnect, retriable. */
export class NetworkError extends Error {
  readonly kind = 'network';
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/**
 * The answer came from another database than the replica's (decision 0102): it is not used, and
 * counts as no answer (the request stays queued) while the engine starts over.
 */
export class ServerChangedError extends NetworkError {
  constructor(readonly serverId: string) {
    super('answered by another database (the server was reset or restored)');
    this.name = 'ServerChangedError';
  }
}

/** The caller cancelled the request: not a disconnect. */
export class CancelError extends Error {
  readonly kind = 'cancel';
  constructor() {
    super('cancelled');
    this.name = 'CancelError';
  }
}

export interface HttpResponse<T = unknown> {
  status: number;
  ok: boolean;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Kept across retries of the same request; a fresh one otherwise. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** The refresh call itself must not try to refresh first. */
  skipRefresh?: boolean;
  timeoutMs?: number;
}

export interface HttpClientOptions {
  baseUrl: string;
  fetch: FetchLike;
  clock: Clock;
  events: Emitter;
  newId: () => string;
  /** This client's X-SW-UUID (lets the service worker match its cache entries). */
  swUuid: string;
  timeoutMs?: number;
  /** Called whenever the token record changes (null when cleared), so the worker persists it. */
  onToken?: (record: TokenRecord | null) => void | Promise<void>;
  /** Called after any answer / missing answer, for the connection state machine. */
  onResult?: (info: { method: string; ok: boolean; networkError: boolean }) => void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export class HttpClient {
  private token: TokenRecord | null = null;
  private tokenReceivedAt = 0;
  private password: string | null = null;
  private refreshing: Promise<void> | null = null;
  /** The realtime socket of this client, sent as X-Socket-Id so the server leaves it out of its echo. */
  private socketIdOf: (() => string | null) | null = null;
  /** Judges each answer's X-Server-Id (the engine's replica check); false refuses the answer. */
  private serverCheck: ((serverId: string) => boolean) | null = null;

  constructor(private readonly opts: HttpClientOptions) {}

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  hasSession(): boolean {
    return this.token !== null;
  }

  currentToken(): TokenRecord | null {
    return this.token;
  }

  /** Sets (or clears) the session's token record, validating it. */
  setToken(record: unknown, receivedAt = this.opts.clock.now()): void {
    this.token = record === null ? null : validateTokenRecord(record);
    this.tokenReceivedAt = receivedAt;
  }

  useSocketId(getter: (() => string | null) | null): void {
    this.socketIdOf = getter;
  }

  /**
   * Every answer naming its database (X-Server-Id) is shown to `check` before it is used; when it
   * says no, the request throws ServerChangedError as if no answer had come (decision 0102).
   */
  useServerCheck(check: ((serverId: string) => boolean) | null): void {
    this.serverCheck = check;
  }

  setPassword(password: string | null): void {
    this.password = password;
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    if (!options.skipRefresh) await this.ensureFreshToken();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'X-Client-Version': CLIENT_VERSION,
      'X-Idempotency-Key': options.idempotencyKey ?? this.opts.newId(),
      'X-SW-UUID': this.opts.swUuid,
    };
    if (this.token) headers.Authorization = `Bearer ${this.token.access_token}`;
    if (this.password) headers['X-Authorization-Password'] = this.password;
    const socketId = this.socketIdOf?.();
    if (socketId) headers['X-Socket-Id'] = socketId;
    if (options.body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const onCallerAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onCallerAbort);
    if (options.signal?.aborted) controller.abort();
    const timer = this.opts.clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);

    let response: Response;
    let text: string;
    try {
      response = await this.opts.fetch(this.opts.baseUrl + path, {
        method: method.toUpperCase(),
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted && !timedOut) throw new CancelError();
      // No answer (refused, reset, timed out): a disconnect and a retriable failure.
      this.opts.onResult?.({ method, ok: false, networkError: true });
      throw new NetworkError(timedOut ? 'timeout' : error instanceof Error ? error.message : String(error));
    } finally {
      this.opts.clock.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }

    const serverId = response.headers.get(SERVER_ID_HEADER);
    if (serverId && this.serverCheck && !this.serverCheck(serverId)) {
      this.opts.onResult?.({ method, ok: false, networkError: true });
      throw new ServerChangedError(serverId);
    }
    this.noticeUpdateHeaders(response.headers);
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    this.opts.onResult?.({ method, ok: response.ok, networkError: false });
    return { status: response.status, ok: response.ok, body: body as T, headers: response.headers };
  }

  private noticeUpdateHeaders(headers: Headers) {
    const force = headers.get('x-force-reload');
    if (headers.get('x-update-required') || force) {
      this.opts.events.emit('update-required', {
        force: !!force && force !== '0' && force !== 'false',
        headers: { 'x-update-required': headers.get('x-update-required'), 'x-force-reload': force },
      });
    }
  }

  /** Refreshes the token first when it is due (one refresh at a time); clears it when too old. */
  async ensureFreshToken(): Promise<void> {
    if (!this.token) return;
    const state = tokenState(this.token, this.tokenReceivedAt, this.opts.clock.now());
    if (state === 'valid') return;
    if (state === 'expired') {
      await this.endSession();
      return;
    }
    if (!this.refreshing) {
      // The flag is cleared whatever happens, so a failed refresh is tried again next time.
      this.refreshing = this.refresh().finally(() => {
        this.refreshing = null;
      });
    }
    await this.refreshing;
  }

  private async refresh(): Promise<void> {
    const current = this.token;
    if (!current) return;
    let response: HttpResponse;
    try {
      response = await this.request('post', '/api/auth/refresh', {
        body: { grantType: 'refresh_token', refresh_token: current.refresh_token },
        skipRefresh: true,
      });
    } catch {
      return; // Offline: keep the token; the request will fail and be retried.
    }
    if (response.status === 401) {
      await this.endSession();
      return;
    }
    if (!response.ok) return;
    const body = response.body as { data?: unknown } | null;
    const record = body && typeof body === 'object' && 'access_token' in body ? body : body?.data;
    try {
      this.setToken(record);
    } catch {
      return;
    }
    await this.opts.onToken?.(this.token);
  }

  /** The session is over: forget the token (queued work stays) and tell the app. */
  async endSession(): Promise<void> {
    if (!this.token) return;
    this.token = null;
    await this.opts.onToken?.(null);
    this.opts.events.emit('session-expired', {});
  }
}
