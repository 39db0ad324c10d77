import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type ServerConfig } from '../../server/config';
import { createMailer, readOutbox } from '../../server/mail/mailer';
import { silentBroadcaster, type AppContext, type Broadcaster } from '../../server/context';
import { freshDatabase } from './test-db';
import type { DatabaseHandle } from '../../server/db/index';
import { createBroadcaster, type RealtimeTuning } from '../../server/realtime/broadcaster';
import { createJobs } from '../../server/jobs/index';
import { addLogSource, LineBuffer } from './trail';

/** The realtime secret of every test server (a fixed one, so protocol tests can sign by hand). */
export const TEST_REALTIME_SECRET = 'test-realtime-secret-0123456789';

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Moves the server's clock; `now()` returns the base time plus this offset. */
  advance(ms: number): void;
  /**
   * Holds the server's clock where it is (advance() still moves it) until thaw(): a check that a
   * wait (a backoff) is not over yet then holds however slow the machine is (issue #32).
   */
  freeze(): void;
  thaw(): void;
  outbox(): ReturnType<typeof readOutbox>;
  /** Starts listening on a random loopback port (for real clients: pusher-js, fetch) and returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** A real server on a fresh database, for one test file (call in beforeAll). */
export async function createTestServer(opts: { config?: Partial<ServerConfig>; broadcaster?: Broadcaster; realtime?: boolean | RealtimeTuning; database?: DatabaseHandle } = {}): Promise<TestServer> {
  // `database`: a migrated database the caller opened (e.g. PGlite in a folder, for a CLI to read after); closed with the server.
  const handle = opts.database ?? (await freshDatabase());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-'));
  const config: ServerConfig = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', PUSHER_APP_SECRET: TEST_REALTIME_SECRET, TRUST_PROXY: 'true' /* tests act as the proxy: X-Forwarded-For picks the client address */ }), webDir: path.join(dataDir, 'no-web'), ...opts.config };
  let offset = 0;
  let frozenAt: number | null = null;
  const clock = () => new Date((frozenAt ?? Date.now()) + offset);
  const ctx: AppContext = {
    db: handle.db,
    config,
    mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), smtpUrl: null, from: config.mailFrom }),
    // `realtime` attaches the embedded Pusher-protocol server (reach it after listen()).
    broadcaster: opts.broadcaster ?? (opts.realtime ? createBroadcaster(config, opts.realtime === true ? {} : opts.realtime) : silentBroadcaster),
    // Not started: tests run jobs and event consumers with `await ctx.jobs.drain()`.
    jobs: createJobs(handle.db, { now: clock, kind: handle.kind }),
    now: clock,
  };
  // The server logs each request and every error into a buffer the failure report prints
  // (tests/helpers/failure-report.ts): nothing shows for a passing test.
  const log = new LineBuffer();
  const app = await buildApp(ctx, { logger: { level: 'info', stream: log, base: null } });
  const removeLog = addLogSource('the test server', log);
  return {
    app,
    ctx,
    advance(ms) {
      offset += ms;
    },
    freeze() {
      frozenAt = Date.now();
    },
    thaw() {
      if (frozenAt !== null) offset -= Date.now() - frozenAt; // the clock goes on from where it was held
      frozenAt = null;
    },
    outbox: () => readOutbox(path.join(dataDir, 'outbox')),
    async listen() {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      return address;
    },
    async close() {
      removeLog();
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Shorthand for a JSON request through inject, with an optional bearer token. */
export async function api(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse & { json<T = any>(): T }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const response = await app.inject({ method, url, headers, ...(opts.body !== undefined ? { payload: opts.body as object } : {}) });
  return response as never;
}
