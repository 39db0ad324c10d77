/**
 * The offline queue and failed requests (shell.md §4, §8).
 *
 * Every request the user makes is written to `failedRequests` (strict durability, in the same
 * transaction as the local change) before anything is sent, and leaves it only when the server
 * has answered it. So a crash, a reload or an expired session never loses a queued edit.
 *
 * - Queueing on: requests wait; `flush()` (or turning queueing off) sends them.
 * - Offline: a new request fails at once with an Offline error and is kept as a failed request.
 * - A sender reserves requests (reserved_at); others leave them alone for FAILED_REQUEST_LOCK_MS.
 * - Failed requests are retried when the connection returns, grouped by channel, then transaction
 *   batch, and removed when they succeed. retry() while offline fails with "still offline".
 * - The failed list is rebroadcast debounced by 500 ms.
 * - A missing answer (not a cancel) is a disconnect and keeps the request for a retry.
 *
 * Draining is batched: up to `batchSize` requests go in one POST /api/{teamId}/batch with one
 * X-Idempotency-Key kept (via batch_key) for every retry of that same call; a lone request goes as
 * its own PUT/DELETE with its own key. Requests of one record go strictly one after another.
 */
import { FAILED_REQUEST_LOCK_MS, FAILED_REBROADCAST_DEBOUNCE_MS } from '../schema/constants';
import { Messages } from '../schema/messages';
import type { BatchResult } from '../schema/collections';
import type { Clock } from './clock';
import type { UserDb } from './db';
import type { Emitter, FailedRequestSummary } from './events';
import { NetworkError, type HttpClient } from './http';
import { outcomeOf, type Outcome } from './merge';
import type { QueuedRequest, RequestError } from './types';

/** Requests per batch call: the server takes up to 1,000 (MAX_BATCH_REQUESTS) and writes a batch's saves together. */
export const DEFAULT_BATCH_SIZE = 1000;
/** Retries after a server error back off from 1 s up to a minute while the connection holds. */
export const RETRY_BACKOFF_MIN_MS = 1_000;
export const RETRY_BACKOFF_MAX_MS = 60_000;

/** A request made while offline fails at once with this error (shell.md §8). */
export class OfflineError extends Error {
  readonly type = 'offline';
  constructor(message: string = Messages.offlineAction) {
    super(message);
    this.name = 'OfflineError';
  }
}

export interface Settled {
  request: QueuedRequest;
  outcome: Outcome;
}

export interface QueueDeps {
  db: UserDb;
  http: HttpClient;
  clock: Clock;
  events: Emitter;
  newId: () => string;
  isOnline: () => boolean;
  /** Applies answered requests to records / conflicts and removes them (apply.ts). */
  settle: (results: Settled[]) => Promise<void>;
  batchSize?: number;
}

const recordKey = (r: Pick<QueuedRequest, 'collection' | 'id'>) => `${r.collection}\u0000${r.id}`;

export class RequestQueue {
  private queueing = false;
  private running: Promise<void> | null = null;
  private again = false;
  /** Requests out on the wire from this worker right now. */
  private inflight = new Set<string>();
  private broadcastTimer: unknown = null;
  private retryTimer: unknown = null;
  private backoff = RETRY_BACKOFF_MIN_MS;
  private stopped = false;
  private batchSize: number;

  constructor(private readonly deps: QueueDeps) {
    this.batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  get isQueueing(): boolean {
    return this.queueing;
  }

  /** Queueing on holds requests until flush(); turning it off flushes them. */
  setQueueing(on: boolean): Promise<void> {
    this.queueing = on;
    return on ? Promise.resolve() : this.flush();
  }

  /**
   * Called after requests were written: sends them, or (offline) marks the new ones as failed
   * at once with the Offline error. Resolves when that pass is over.
   */
  async kick(): Promise<void> {
    if (this.queueing || this.stopped) return;
    if (!this.deps.isOnline()) {
      // New requests were stored already failed with the Offline error (offlineError()).
      this.scheduleBroadcast();
      return;
    }
    await this.flush();
  }

  /** The error a request made while offline is stored with: it fails at once (shell.md §4). */
  offlineError(): RequestError | null {
    if (this.queueing || this.deps.isOnline()) return null;
    return { kind: 'offline', message: Messages.offlineAction, at: this.deps.clock.now() };
  }

  /** The user's "retry": fails with "still offline" while offline. */
  async retry(): Promise<void> {
    if (!this.deps.isOnline()) throw new OfflineError(Messages.stillOffline);
    this.backoff = RETRY_BACKOFF_MIN_MS;
    await this.flush();
  }

  /** Sends everything sendable; concurrent callers share one running pass (then one more). */
  flush(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.broadcastTimer !== null) this.deps.clock.clearTimeout(this.broadcastTimer);
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
  }

  /** Requests still waiting (for the status UI and tests). */
  pendingCount(): Promise<number> {
    return this.deps.db.relaxed.failedRequests.count();
  }

  /** Debounced rebroadcast of the failed list (shell.md §4: 500 ms). */
  scheduleBroadcast(): void {
    if (this.broadcastTimer !== null) this.deps.clock.clearTimeout(this.broadcastTimer);
    this.broadcastTimer = this.deps.clock.setTimeout(() => {
      this.broadcastTimer = null;
      void this.broadcast();
    }, FAILED_REBROADCAST_DEBOUNCE_MS);
  }

  private async broadcast(): Promise<void> {
    if (this.stopped) return;
    const all = await this.deps.db.relaxed.failedRequests.toArray();
    const failed = all.filter((r) => r.error !== null);
    const summaries: FailedRequestSummary[] = failed.slice(0, 200).map((r) => ({
      key: r.key, collection: r.collection, id: r.id, method: r.method, error: r.error?.message ?? null, reserved_at: r.reserved_at,
    }));
    this.deps.events.emit('failed-requests', { count: failed.length, pending: all.length, failed: summaries });
  }

  /**
   * One pass: send rounds until nothing is sendable (each round moves every record's chain one
   * step). Calls go one after another in creation order, and a failed call ends the round: a
   * request is never sent before an earlier one it may depend on (an item before its values).
   * The next call goes out as soon as the previous one is *answered* (the server has committed
   * it), while the previous answer is still being stored locally: settling overlaps the next
   * round trip instead of adding to it.
   */
  private async drain(): Promise<void> {
    for (;;) {
      if (this.queueing || this.stopped || !this.deps.isOnline() || !this.deps.http.hasSession()) return;
      const calls = await this.reserveRound();
      if (calls.length === 0) return;
      let disconnected = false;
      let retriable = false;
      const settling: Promise<boolean>[] = [];
      for (const [index, call] of calls.entries()) {
        const { result, settled } = await this.send(call);
        settling.push(settled);
        if (result === 'ok') continue;
        if (result === 'network') disconnected = true;
        else retriable = true;
        // The calls not sent go back exactly as they were (never attempted).
        const rest = calls.slice(index + 1).flatMap((c) => c.before ?? []);
        for (const r of rest) this.inflight.delete(r.key);
        if (rest.length) await this.deps.db.strict.transaction('rw', this.deps.db.strict.failedRequests, () => this.deps.db.strict.failedRequests.bulkPut(rest));
        break;
      }
      // Every answer is stored before the next round reads the queue.
      if ((await Promise.all(settling)).includes(false)) retriable = true;
      this.scheduleBroadcast();
      if (disconnected) return;
      if (retriable) {
        this.scheduleRetry();
        return;
      }
      this.backoff = RETRY_BACKOFF_MIN_MS;
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, RETRY_BACKOFF_MAX_MS);
    this.retryTimer = this.deps.clock.setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, wait);
  }

  /**
   * Picks the head request of every record (lowest seq) that is neither out nor locked by another
   * sender, groups them into calls and reserves them in one strict transaction.
   */
  private async reserveRound(): Promise<Call[]> {
    const { db, clock } = this.deps;
    const now = clock.now();
    return db.strict.transaction('rw', db.strict.failedRequests, async () => {
      const rows = await db.strict.failedRequests.orderBy('seq').toArray();
      const seen = new Set<string>();
      const heads: QueuedRequest[] = [];
      for (const row of rows) {
        const rk = recordKey(row);
        if (seen.has(rk)) continue;
        seen.add(rk);
        if (this.inflight.has(row.key)) continue;
        if (row.reserved_at !== null && now - row.reserved_at < FAILED_REQUEST_LOCK_MS) continue;
        if (row.error?.kind === 'session' && !this.deps.http.hasSession()) continue;
        heads.push(row);
      }
      const calls = groupIntoCalls(completeTransactions(rows, heads), this.batchSize, this.deps.newId);
      const reserved: QueuedRequest[] = [];
      for (const call of calls) {
        call.before = call.requests;
        call.requests = call.requests.map((r) => ({ ...r, reserved_at: now, attempts: r.attempts + 1, batch_key: call.batch ? call.key : null }));
        reserved.push(...call.requests);
      }
      if (reserved.length) await db.strict.failedRequests.bulkPut(reserved);
      for (const r of reserved) this.inflight.add(r.key);
      return calls;
    });
  }

  /**
   * Sends one call. `result` is known once the answer is in; `settled` finishes storing it (the
   * outcomes applied locally, the call's requests released) and resolves false if that failed,
   * in which case the requests stay queued and are retried.
   */
  private async send(call: Call): Promise<{ result: 'ok' | 'network' | 'retry'; settled: Promise<boolean> }> {
    const stored = (work: Promise<unknown>) =>
      work.then(
        () => true,
        async (error: unknown) => {
          await this.release(call.requests, errorOf('server', undefined, error instanceof Error ? error.message : String(error), this.deps.clock.now())).catch(() => undefined);
          return false;
        },
      );
    const done = (result: 'ok' | 'network' | 'retry', work: Promise<unknown>) => {
      const settled = stored(work).finally(() => {
        for (const r of call.requests) this.inflight.delete(r.key);
      });
      return { result, settled };
    };
    const { http } = this.deps;
    try {
      if (!call.batch) {
        const request = call.requests[0]!;
        const response = await http.request(wireMethod(request.method), `/api/${request.teamId}/${request.route}`, {
          body: request.method === 'put' ? stripLocal(request.item) : undefined,
          idempotencyKey: request.key,
        });
        const f = this.finish([{ request, outcome: outcomeOf(request, response.status, response.body) }]);
        return done(f.result, f.work);
      }
      const first = call.requests[0]!;
      const response = await http.request('post', `/api/${first.teamId}/batch`, {
        body: {
          transaction: first.transaction,
          requests: call.requests.map((r) => ({ method: wireMethod(r.method), route: r.route, ...(r.method === 'put' ? { payload: stripLocal(r.item) } : {}) })),
        },
        idempotencyKey: call.key,
      });
      // A refused transaction still lists every request's outcome, inside the error body's data.
      const body = response.body as BatchResult[] | { data?: unknown } | null;
      const results = (Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : null) as BatchResult[] | null;
      if (results && results.length === call.requests.length) {
        const outcomes = wholeTransaction(call.requests.map((request, i) => outcomeOf(request, results[i]!.status, results[i]!.data)), first.transaction);
        const f = this.finish(call.requests.map((request, i) => ({ request, outcome: outcomes[i]! })));
        return done(f.result, f.work);
      }
      // The whole call was refused (no per-request answers).
      const outcome = outcomeOf({ method: 'put', item: null }, response.status, response.body);
      if (outcome.kind === 'rejected' && call.requests.length > 1 && !first.transaction) {
        // Too large or malformed as a whole: never refuse everyone's edits for it; send smaller calls.
        this.batchSize = Math.max(1, Math.floor(call.requests.length / 2));
        this.again = true;
        return done('ok', this.release(call.requests, errorOf('server', response.status, messageOf(outcome), this.deps.clock.now())));
      }
      if (outcome.kind === 'retry' || outcome.kind === 'session' || response.ok) {
        const work = (async () => {
          await this.release(call.requests, errorOf(outcome.kind === 'session' ? 'session' : 'server', response.status, messageOf(outcome), this.deps.clock.now()));
          if (outcome.kind === 'session') await http.endSession();
        })();
        return done('retry', work);
      }
      const f = this.finish(call.requests.map((request) => ({ request, outcome })));
      return done(f.result, f.work);
    } catch (error) {
      if (error instanceof NetworkError) {
        // No answer: it may or may not have been applied; the retry reuses the same key.
        return done('network', this.release(call.requests, errorOf('network', undefined, error.message, this.deps.clock.now()), true));
      }
      return done('retry', this.release(call.requests, errorOf('server', undefined, error instanceof Error ? error.message : String(error), this.deps.clock.now())));
    }
  }

  /** Whether the call's answers end the round, and the work that stores them. */
  private finish(results: Settled[]): { result: 'ok' | 'retry'; work: Promise<void> } {
    const done = results.filter((r) => r.outcome.kind !== 'retry' && r.outcome.kind !== 'session');
    const again = results.filter((r) => r.outcome.kind === 'retry' || r.outcome.kind === 'session');
    const work = (async () => {
      if (done.length) await this.deps.settle(done);
      for (const r of again) {
        const o = r.outcome as { kind: 'retry' | 'session'; status: number; message: string };
        await this.release([r.request], errorOf(o.kind === 'session' ? 'session' : 'server', o.status, o.message, this.deps.clock.now()));
      }
      if (again.some((r) => r.outcome.kind === 'session')) await this.deps.http.endSession();
    })();
    return { result: again.length ? 'retry' : 'ok', work };
  }

  /** Puts requests back as waiting, with the error of this attempt (reservation released). */
  private async release(requests: QueuedRequest[], error: RequestError | null, keepBatch = false): Promise<void> {
    const { db } = this.deps;
    await db.strict.transaction('rw', db.strict.failedRequests, async () => {
      const current = await db.strict.failedRequests.bulkGet(requests.map((r) => r.key));
      const updated = current
        .filter((r): r is QueuedRequest => !!r)
        .map((r) => ({ ...r, reserved_at: null, error: error ?? r.error, batch_key: keepBatch ? r.batch_key : null }));
      if (updated.length) await db.strict.failedRequests.bulkPut(updated);
    });
  }
}

interface Call {
  key: string;
  batch: boolean;
  requests: QueuedRequest[];
  /** The rows as they were before this call reserved them. */
  before?: QueuedRequest[];
}

/** The HTTP method of a queued request ('restore' is POST {route}/restore). */
const wireMethod = (method: QueuedRequest['method']): 'put' | 'delete' | 'post' => (method === 'restore' ? 'post' : method);

/**
 * The heads that may go now: a request of a transaction (one user action, decision 0100) only
 * when every request of that transaction is a head too, so the action goes out whole in one call.
 * A member waiting behind an earlier request of its record holds the rest of its action back.
 */
export function completeTransactions(queued: QueuedRequest[], heads: QueuedRequest[]): QueuedRequest[] {
  const members = new Map<string, number>();
  for (const r of queued) if (r.transaction) members.set(r.transaction, (members.get(r.transaction) ?? 0) + 1);
  const ready = new Map<string, number>();
  for (const r of heads) if (r.transaction) ready.set(r.transaction, (ready.get(r.transaction) ?? 0) + 1);
  return heads.filter((r) => !r.transaction || ready.get(r.transaction) === members.get(r.transaction));
}

/**
 * A transaction's answers as one: when the server could not decide (a retry, an ended session)
 * for any member, the whole transaction waits and goes again; the others' 424 "not applied" must
 * not settle them alone.
 */
function wholeTransaction(outcomes: Outcome[], transaction: string | null): Outcome[] {
  if (!transaction) return outcomes;
  const undecided = outcomes.find((o) => o.kind === 'retry' || o.kind === 'session');
  return undecided ? outcomes.map(() => undecided) : outcomes;
}

/** The record as sent: without the local table's `collection` tag. */
function stripLocal(item: QueuedRequest['item']): unknown {
  if (!item) return undefined;
  const { collection: _collection, ...rest } = item as Record<string, unknown>;
  return rest;
}

function errorOf(kind: RequestError['kind'], status: number | undefined, message: string, at: number): RequestError {
  return { kind, message, ...(status !== undefined ? { status } : {}), at };
}

function messageOf(outcome: Outcome): string {
  return 'message' in outcome ? outcome.message : outcome.kind;
}

/**
 * Groups sendable requests into calls: by team, then channel, then transaction batch (a
 * transaction goes whole in one call: all or none). A call that went out before and got no
 * answer is rebuilt exactly (same members, same key) so the server can answer it from its
 * idempotency store. Other groups are cut into calls of at most `batchSize`.
 */
export function groupIntoCalls(requests: QueuedRequest[], batchSize: number, newId: () => string): Call[] {
  const calls: Call[] = [];
  const byBatch = new Map<string, QueuedRequest[]>();
  const groups = new Map<string, QueuedRequest[]>();
  for (const r of requests) {
    if (r.batch_key) {
      const list = byBatch.get(r.batch_key) ?? [];
      list.push(r);
      byBatch.set(r.batch_key, list);
      continue;
    }
    // A transaction is one action: whole in one call, whichever channels its records are on.
    const g = r.transaction ? `${r.teamId}\u0000\u0000${r.transaction}` : `${r.teamId}\u0000${r.channel}\u0000`;
    const list = groups.get(g) ?? [];
    list.push(r);
    groups.set(g, list);
  }
  for (const [key, list] of byBatch) calls.push({ key, batch: true, requests: list });
  for (const list of groups.values()) {
    const transaction = list[0]!.transaction;
    const size = transaction ? list.length : batchSize;
    for (let i = 0; i < list.length; i += size) {
      const part = list.slice(i, i + size);
      if (part.length === 1 && !transaction) calls.push({ key: part[0]!.key, batch: false, requests: part });
      else calls.push({ key: newId(), batch: true, requests: part });
    }
  }
  return calls;
}
