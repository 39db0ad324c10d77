/**
 * The scale-out shape as real processes (issue 19, decision 0192): one realtime hub (a Cairn
 * process without PUSHER_HOST), N API servers publishing to it (PUSHER_HOST), all on one
 * PostgreSQL database and one S3-compatible store (s3rver), and a tiny TCP round-robin balancer
 * in front of the API servers. Used by `npm run scale:up` (scripts/scale-up.ts), the suite in
 * tests/scale and the benchmarks in bench/scale-*.ts.
 *
 * Every process is `node --import tsx server/main.ts`, started exactly as `npm start` starts the
 * server (without the web build), with the settings docs/operations.md tells a self-hoster to set:
 * the same PUSHER_APP_SECRET, VAPID keys and S3 settings everywhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import webPush from 'web-push';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface CairnProcess {
  name: string;
  port: number;
  url: string;
  dataDir: string;
  /** Lines the process wrote (stdout and stderr), for failure reports. */
  log(): string;
  alive(): boolean;
  /** SIGKILL: a crash, no graceful shutdown. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful shutdown a deploy does. */
  stop(): Promise<void>;
}

export interface Cluster {
  databaseUrl: string;
  hub: CairnProcess;
  apis: CairnProcess[];
  /** The balancer's base URL (round robin over the API servers that accept connections). */
  balancerUrl: string;
  s3Endpoint: string;
  secret: string;
  metricsToken: string;
  /** Starts one more API server (another process behind the balancer). */
  addApi(): Promise<CairnProcess>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** An existing PostgreSQL database (created and migrated by the first process when empty). */
  databaseUrl: string;
  apiServers?: number;
  /** First port: the hub gets it, the API servers the next ones, then the balancer and the store. */
  basePort?: number;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Print the processes' output as it comes (scale:up). */
  inherit?: boolean;
}

const READY_TIMEOUT_MS = 240_000;

/** Asks a free loopback port of the OS (when no base port is given). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(proc: CairnProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!proc.alive()) throw new Error(`${proc.name} exited before it was ready:\n${proc.log().slice(-4000)}`);
    try {
      const res = await fetch(`${proc.url}/api/ready`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} was not ready within ${READY_TIMEOUT_MS} ms:\n${proc.log().slice(-4000)}`);
}

function startProcess(name: string, port: number, env: Record<string, string>, inherit: boolean): CairnProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${name}-`));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, WEB_DIR: path.join(dataDir, 'no-web'), ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
    if (inherit) process.stdout.write(`[${name}] ${chunk.toString()}`);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const end = async (signal: NodeJS.Signals) => {
    if (exited) return;
    child.kill(signal);
    await exit;
  };
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    log: () => output,
    alive: () => !exited,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP round robin: each new connection goes to the next backend; one that refuses the
 * connection is skipped (as a balancer's health check would take it out). HTTP keep-alive
 * connections stay with the backend they were opened to, as with any L4 balancer.
 */
export function roundRobin(port: number, backends: () => number[]): Promise<net.Server> {
  let next = 0;
  const server = net.createServer((client) => {
    client.pause();
    const ports = backends();
    const tryAt = (attempt: number) => {
      if (attempt >= ports.length) return client.destroy();
      const target = ports[(next + attempt) % ports.length]!;
      const upstream = net.connect(target, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        next = (next + attempt + 1) % ports.length;
        client.pipe(upstream).pipe(client);
        client.resume();
        client.once('error', () => upstream.destroy());
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      upstream.on('error', () => {
        if (!connected) tryAt(attempt + 1);
        else client.destroy();
      });
    };
    tryAt(0);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const ports = opts.basePort ? null : await Promise.all(Array.from({ length: 10 }, freePort));
  let portIndex = 0;
  const nextPort = () => (ports ? ports[portIndex++]! : opts.basePort! + portIndex++);
  const hubPort = nextPort();
  const apiPorts = Array.from({ length: opts.apiServers ?? 2 }, nextPort);
  const balancerPort = nextPort();
  const s3Port = nextPort();

  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-s3-'));
  const s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: s3Dir });
  await s3.run();
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;

  const secret = crypto.randomBytes(24).toString('hex');
  const metricsToken = crypto.randomBytes(16).toString('hex');
  const vapid = webPush.generateVAPIDKeys();
  const common: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl,
    PUSHER_APP_SECRET: secret,
    // One key for sealed secrets on every process (SSO client secrets, SMTP passwords), as
    // docs/operations.md and docker-compose.yml set it; unset, each would make its own.
    SECRETS_KEY: crypto.randomBytes(24).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    S3_BUCKET: 'cairn',
    S3_ENDPOINT: s3Endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    METRICS_TOKEN: metricsToken,
    SEED_DEMO: 'false',
    NODE_ENV: 'production',
    // Production refuses to start without an explicit provider (N7); this cluster sells nothing.
    PAYMENT_PROVIDER: 'local',
    LOG_LEVEL: 'warn',
    FILE_SWEEP_INTERVAL_MINUTES: '0',
    ...opts.env,
  };
  const inherit = opts.inherit ?? false;
  const started: CairnProcess[] = [];
  const apis: CairnProcess[] = [];
  let balancer: net.Server | null = null;
  const stopAll = async () => {
    balancer?.close();
    await Promise.all(started.map((p) => p.stop()));
    await s3.close();
    fs.rmSync(s3Dir, { recursive: true, force: true });
  };
  try {
    // The hub first: it migrates an empty database (and pg-boss makes its schema) alone.
    const hub = startProcess('hub', hubPort, common, inherit);
    started.push(hub);
    await waitReady(hub);
    // Demo data (scale:up) is seeded once, by the hub, before the API servers start.
    const apiEnv = { ...common, SEED_DEMO: 'false', PUSHER_HOST: '127.0.0.1', PUSHER_PORT: String(hubPort) };
    let apiCount = 0;
    const addApi = async () => {
      apiCount += 1;
      const port = apiCount <= apiPorts.length ? apiPorts[apiCount - 1]! : await freePort();
      const api = startProcess(`api-${apiCount}`, port, apiEnv, inherit);
      started.push(api);
      apis.push(api);
      await waitReady(api);
      return api;
    };
    await Promise.all(apiPorts.map(() => addApi()));
    apis.sort((a, b) => a.name.localeCompare(b.name));
    balancer = await roundRobin(balancerPort, () => apis.filter((a) => a.alive()).map((a) => a.port));
    return { databaseUrl: opts.databaseUrl, hub, apis, balancerUrl: `http://127.0.0.1:${balancerPort}`, s3Endpoint, secret, metricsToken, addApi, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A new empty database on a PostgreSQL server (or a copy of a template database), answering its URL and a drop function. */
export async function createDatabase(serverUrl: string, opts: { template?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = 'cairn_scale_' + crypto.randomBytes(5).toString('hex');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${opts.template ? ` template ${opts.template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = '/' + name;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
