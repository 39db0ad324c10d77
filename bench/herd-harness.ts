/**
 * The load generator of the `/changes` herd (bench/scale-out.ts, issue 19, decision 0285): cheap
 * clients, a real balancer, and where the machine's CPU went.
 *
 * Why it exists: the herd's budget (100 clients catching up 10,000 changes at once, p95 ≤ 2 s) is
 * about the servers and the database, but on this bench the hundred clients run on the same two
 * cores as the two API servers and PostgreSQL. The first harness (decision 0205) used `fetch` in
 * four worker threads started inside the timed window and a Node TCP balancer, and spent ~4
 * CPU-seconds on the herd against the servers' ~1.2: most of the p95 was the harness competing
 * with what it measured. This one:
 *
 * - runs the clients on plain `node:http` (the sync worker's `fetch` does the same work: one
 *   keep-alive connection per client, gzip undone as it streams, the text read and parsed), in
 *   HERD_THREADS worker threads that are started and warmed *before* the herd and told a common
 *   start time;
 * - takes each page one of two ways: `parse` — gunzip as it streams, then `JSON.parse` of the whole
 *   page, like the worker (sync-worker/http.ts); or `bytes` — gunzip as it streams and count the
 *   changes on the bytes, no text decoding or JSON (the time until the client has every change's
 *   bytes: the servers' and the network's part, without the client's own parsing, which on real
 *   devices runs on their own CPUs);
 * - puts nginx with the reference config (deploy/nginx.conf, only the addresses replaced) in front
 *   of the API servers (`BALANCER=nginx`, the default when `nginx` is installed), or spreads the
 *   clients' connections over the servers as an L4 balancer does (`BALANCER=direct`), or uses the
 *   cluster's Node TCP round robin (`BALANCER=node`, the old harness' balancer, for comparison);
 * - reads the CPU-seconds of the servers (API servers' /metrics, PostgreSQL's processes in /proc)
 *   and of the harness (this process and its threads, the nginx processes) around the herd.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { decodeChanges, encodeChange, leanAnswerJson } from '../schema/changes-wire';

export type HerdMode = 'parse' | 'bytes';

export interface HerdResult {
  /** Per client that finished: ms from the common start until its last page was read. */
  times: number[];
  /** Changes each finished client received. */
  seen: number[];
  /** Finished clients that received another number of changes than they were to (gaps, extras). */
  wrong: number;
  errors: string[];
  requests: number;
}

/**
 * schema/changes-wire.ts `decodeChanges` as plain JS for the client threads (they are evaluated
 * from text, without the TypeScript loader). `checkDecoder` below holds it to the real one.
 */
const DECODE_JS = `function decodeChanges(body) {
  if (body.format !== 2) return body.data;
  const shapes = body.shapes || [];
  const rows = body.data;
  const out = new Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i];
    const shape = shapes[row[0]];
    if (!Array.isArray(row) || !shape) throw new Error('changes: row ' + i + ' names no shape');
    const collection = shape[0], op = shape[1], keys = shape[2];
    if (keys === null) {
      if (row.length !== 2 || typeof row[1] !== 'string') throw new Error('changes: row ' + i + ' is not a removal');
      out[i] = { collection, id: row[1], op, record: null };
      continue;
    }
    if (row.length !== keys.length + 1 && row.length !== keys.length + 2) throw new Error('changes: row ' + i + ' does not fit its shape');
    const record = {};
    if (keys.includes('__proto__')) for (let k = 0; k < keys.length; k += 1) Object.defineProperty(record, keys[k], { value: row[k + 1], enumerable: true, writable: true, configurable: true });
    else for (let k = 0; k < keys.length; k += 1) record[keys[k]] = row[k + 1];
    out[i] = { collection, id: row.length === keys.length + 2 ? String(row[keys.length + 1]) : String(record.id), op, record };
  }
  return out;
}`;

/** Throws unless the threads' decoder answers what schema/changes-wire.ts does, on every kind of change. */
export function checkDecoder(): void {
  const sample = [
    encodeChange('item', 'a', 'saved', { id: 'a', name: 'x\n"y"', deleted_at: null, list: [1, { b: null }] }),
    encodeChange('item', 'b', 'deleted', { id: 'b', deleted_at: '2026-01-01T00:00:00.000Z' }),
    encodeChange('value', 'i.a', 'saved', { id: 'other', value: 3 }),
    encodeChange('comment', 'c', 'deleted', null),
  ];
  const body = JSON.parse(leanAnswerJson(sample, 1, false, 's'));
  const mine = (new Function(`return ${DECODE_JS}`) as () => typeof decodeChanges)()(body);
  if (JSON.stringify(mine) !== JSON.stringify(decodeChanges(body))) throw new Error('bench/herd-harness.ts DECODE_JS no longer decodes like schema/changes-wire.ts');
}

/** HERD_FORMAT=1|2: the /changes wire format the clients ask for (2, what the sync worker asks, by default). */
export const HERD_FORMAT = process.env.HERD_FORMAT === '1' ? 1 : 2;

/** One worker thread's clients. Plain CommonJS, evaluated in the thread. */
const CLIENT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const zlib = require('node:zlib');
const MARK = Buffer.from('{"collection":');
const NEWLINE = 10;
const FORMAT = workerData.format;
const now = () => performance.timeOrigin + performance.now();
/** schema/changes-wire.ts decodeChanges, as plain JS (checked against it in herd-harness.ts). */
const decodeChanges = ${DECODE_JS};

/** One page: resolves { count, cursor, has_more } once its last byte is in (and parsed, in parse mode). */
function page(agent, url, token, mode) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: 'Bearer ' + token, 'accept-encoding': 'gzip' } }, (res) => {
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
      const chunks = [];
      let count = 0;
      let carry = null;
      let last = null;
      let beforeLast = null;
      body.on('data', (chunk) => {
        if (mode === 'parse' || res.statusCode !== 200) return void chunks.push(chunk);
        // Format 2 (decision 0320): each change on a line of its own, and a raw newline byte is
        // only ever JSON whitespace: count them.
        if (FORMAT === 2) {
          for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count += 1;
          beforeLast = last;
          last = chunk;
          return;
        }
        // Count the changes where each one's object opens; a mark split over two chunks is
        // found in the carried bytes (fewer than a mark, so none is counted twice).
        const scan = carry ? Buffer.concat([carry, chunk]) : chunk;
        for (let at = scan.indexOf(MARK); at !== -1; at = scan.indexOf(MARK, at + MARK.length)) count += 1;
        carry = scan.subarray(Math.max(0, scan.length - (MARK.length - 1)));
        beforeLast = last;
        last = chunk;
      });
      body.on('error', reject);
      body.on('end', () => {
        try {
          if (res.statusCode !== 200) throw new Error(res.statusCode + ' ' + Buffer.concat(chunks).toString('utf8', 0, 200));
          if (mode === 'parse') {
            // What the sync worker does with a page before it applies it (sync-worker/engine.ts
            // catchUpNow): parse, decode (format 2), and one change object each.
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            const changes = decodeChanges(answer).map((c) => ({ collection: c.collection, op: c.op, record: c.record, id: c.id }));
            return resolve({ count: changes.length, cursor: answer.cursor, has_more: answer.has_more });
          }
          const tail = Buffer.concat([beforeLast || Buffer.alloc(0), last || Buffer.alloc(0)]).toString('utf8');
          const end = JSON.parse('{' + tail.slice(tail.lastIndexOf('"cursor":')));
          resolve({ count, cursor: end.cursor, has_more: end.has_more });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
  });
}

async function client(c, startAt, mode) {
  // One device: one keep-alive connection for all its pages.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let cursor = c.start, count = 0, requests = 0;
  try {
    for (;;) {
      requests += 1;
      const p = await page(agent, c.base + '?after=' + cursor + '&board_id=' + encodeURIComponent(c.boardId) + (FORMAT === 2 ? '&format=2' : ''), c.token, mode);
      count += p.count;
      cursor = p.cursor;
      if (!p.has_more) break;
    }
    return { time: now() - startAt, count, requests };
  } finally {
    agent.destroy();
  }
}

parentPort.on('message', async ({ startAt, mode }) => {
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - now())));
  const times = [], seen = [], errors = [];
  let requests = 0, wrong = 0;
  await Promise.all(workerData.clients.map(async (c) => {
    try {
      const r = await client(c, startAt, mode);
      times.push(r.time);
      seen.push(r.count);
      if (r.count !== c.expected) wrong += 1;
      requests += r.requests;
    } catch (error) {
      errors.push(String(error));
    }
  }));
  parentPort.postMessage({ times, seen, errors, requests, wrong });
});
parentPort.postMessage('ready');
`;

export interface HerdClient {
  /** The /changes URL this client asks (through the balancer, or its own API server). */
  base: string;
  boardId: string;
  start: number;
  token: string;
  /** How many changes this client must receive from its cursor. */
  expected: number;
}

/**
 * Runs the clients at once from a common start, `threads` worker threads sharing them. The
 * threads are started and warmed before the start time, so only the herd itself is measured.
 */
export async function runHerd(clients: HerdClient[], threads: number, mode: HerdMode, around: { before(): Promise<void> | void; after(): Promise<void> | void }): Promise<HerdResult> {
  const count = Math.max(1, Math.min(threads, clients.length));
  const workers = Array.from({ length: count }, (_, n) => new Worker(CLIENT_THREAD, { eval: true, workerData: { format: HERD_FORMAT, clients: clients.filter((_, i) => i % count === n) } }));
  try {
    await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => (w.once('message', () => resolve()), w.once('error', reject)))));
    await around.before();
    const startAt = performance.timeOrigin + performance.now() + 20;
    const results = await Promise.all(
      workers.map(
        (w) =>
          new Promise<Omit<HerdResult, never>>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.postMessage({ startAt, mode });
          }),
      ),
    );
    await around.after();
    return {
      times: results.flatMap((r) => r.times),
      seen: results.flatMap((r) => r.seen),
      wrong: results.reduce((sum, r) => sum + r.wrong, 0),
      errors: results.flatMap((r) => r.errors),
      requests: results.reduce((sum, r) => sum + r.requests, 0),
    };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

// ── the balancer ──────────────────────────────────────────────────────────────────────────────

export interface Balancer {
  kind: 'nginx' | 'direct' | 'node';
  /** The base URL client `n` talks to. */
  urlFor(n: number): string;
  /** The balancer's own processes (for their CPU-seconds); none for direct/node. */
  pids(): number[];
  stop(): Promise<void>;
}

function hasNginx(): boolean {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * deploy/nginx.conf with only the addresses replaced (the API servers, the hub, the listening
 * port) and the files nginx writes moved into a scratch folder; no access log.
 */
export function benchNginxConf(reference: string, opts: { port: number; apiPorts: number[]; hubPort: number; dir: string }): string {
  const apis = opts.apiPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n');
  let conf = reference.replace(/^(\s*server api-\d+:8080[^;]*;\n)+/m, apis + '\n');
  conf = conf.replace(/server hub:8080;/, `server 127.0.0.1:${opts.hubPort};`);
  conf = conf.replace(/listen 8080 default_server;/, `listen 127.0.0.1:${opts.port} default_server;`);
  conf = conf.replace(/listen 8080;/, `listen 127.0.0.1:${opts.port};`);
  const files = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${opts.dir}/${k};`).join('\n');
  conf = conf.replace(/^http \{\n/m, `http {\n  access_log off;\n${files}\n`);
  if (!conf.includes(`127.0.0.1:${opts.apiPorts[0]}`) || !conf.includes(`listen 127.0.0.1:${opts.port}`)) throw new Error('deploy/nginx.conf no longer has the shape the bench rewrites (upstream api-N:8080, listen 8080)');
  return conf;
}

async function startNginx(root: string, apiPorts: number[], hubPort: number): Promise<Balancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-herd-nginx-'));
  // nginx's workers run as nobody when started by root: they must reach their temp folders.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'nginx.conf'), benchNginxConf(fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8'), { port, apiPorts, hubPort, dir }));
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-2000) : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    kind: 'nginx',
    urlFor: () => `http://127.0.0.1:${port}`,
    pids: () => (child.pid ? [child.pid, ...childrenOf(child.pid)] : []),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** BALANCER=nginx|direct|node; nginx by default when it is installed, else direct. */
export async function startBalancer(root: string, cluster: { apis: { url: string; port: number }[]; hub: { port: number }; balancerUrl: string }): Promise<Balancer> {
  const wanted = process.env.BALANCER ?? (hasNginx() ? 'nginx' : 'direct');
  if (wanted === 'nginx') return startNginx(root, cluster.apis.map((a) => a.port), cluster.hub.port);
  if (wanted === 'node') return { kind: 'node', urlFor: () => cluster.balancerUrl, pids: () => [], stop: async () => undefined };
  if (wanted === 'direct') return { kind: 'direct', urlFor: (n) => cluster.apis[n % cluster.apis.length]!.url, pids: () => [], stop: async () => undefined };
  throw new Error(`BALANCER must be nginx, direct or node (not ${wanted})`);
}

// ── CPU-seconds from /proc (Linux) ───────────────────────────────────────────────────────────────

function stat(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17), 1-based.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = stat(Number(entry));
    if (fields && Number(fields[1]) === parent) out.push(Number(entry));
  }
  return out;
}

const TICKS = 100;

/**
 * CPU-seconds of a process tree's root and its live children, plus what its ended children had
 * (the root's cutime/cstime): PostgreSQL's postmaster and backends, nginx's master and workers.
 */
export function treeCpuSeconds(root: number | null): number {
  if (root === null) return NaN;
  const top = stat(root);
  if (!top) return NaN;
  let ticks = Number(top[11]) + Number(top[12]) + Number(top[13]) + Number(top[14]);
  for (const pid of childrenOf(root)) {
    const fields = stat(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS;
}

/**
 * The postmaster of a PostgreSQL cluster started by scripts/setup-lib.mjs on this machine
 * (/tmp/cairn-test-pg-PORT), found by the port of its URL; null for any other server.
 */
export function postmasterPid(url: string): number | null {
  try {
    const port = new URL(url).port || '5432';
    return Number(fs.readFileSync(`/tmp/cairn-test-pg-${port}/postmaster.pid`, 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

// ── figures ──────────────────────────────────────────────────────────────────────────────────────

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** The line the lead reads: `herd 100×10000: p50 … p95 … p99 … (budget 2000 ms) servers X CPU-s, harness Y CPU-s`. */
export function herdLine(opts: { label: string; clients: number; changes: number; times: number[]; servers: number; harness: number; failed: number }): string {
  const s = [...opts.times].sort((a, b) => a - b);
  const f = (n: number) => `${Math.round(n)} ms`;
  const p95 = percentile(s, 95);
  const verdict = opts.failed > 0 ? `, ${opts.failed} FAILED` : p95 <= 2000 ? ', within' : ', OVER';
  return `herd ${opts.clients}×${opts.changes}${opts.label}: p50 ${f(percentile(s, 50))} p95 ${f(p95)} p99 ${f(percentile(s, 99))} (budget 2000 ms${verdict}) servers ${opts.servers.toFixed(1)} CPU-s, harness ${opts.harness.toFixed(1)} CPU-s`;
}
