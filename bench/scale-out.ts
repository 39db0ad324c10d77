/**
 * Scale-out figures (issue 19, decision 0192) on the real shape — the realtime hub, two API
 * servers (separate processes, `PUSHER_HOST` = the hub) and one PostgreSQL (scripts/scale/cluster.ts):
 *
 *   npx tsx bench/scale-out.ts [seconds=10] [concurrency=16] [fanout=1000,5000] [catchup=10000x100]
 *   npx tsx bench/scale-out.ts 0 0 0 10000x100     # the herd alone
 *
 * 1. Sustained saves over HTTP (PUT /api/{team}/items/{id}, new items) for `seconds`, with
 *    `concurrency` clients, against one API server and then spread over both: saves/s, p50/p99.
 * 2. Realtime fan-out through the hub: N raw WebSocket clients subscribed to one board channel
 *    (signed subscriptions), one save through API server 1, delivery of the hub's `changed` to every
 *    client: p50/p95/p99/max from the save's request; hub memory per connection (its /metrics RSS).
 * 3. `/changes` catch-up: 10,000 changes written, then 100 members reconnecting at once (a
 *    thundering herd after a deploy; each its own user and token) read from their old cursor until
 *    `has_more` is false: p50/p95/p99 per client (budget p95 ≤ 2 s), the errors if any, and the
 *    CPU-seconds the herd cost the servers (API servers, PostgreSQL) and the harness (the clients,
 *    the balancer), with one client alone first (the floor). Twice, each cold: clients parsing every
 *    page like the sync worker, then clients taking each page's bytes without JSON.parse (what the
 *    servers and the network take; real clients parse on their own devices). The load generator —
 *    node:http clients in HERD_THREADS=2 threads started before the herd, nginx with
 *    deploy/nginx.conf in front (BALANCER=nginx|direct|node) — is bench/herd-harness.ts (decision
 *    0285). The last lines are the figures in one line each:
 *      herd 100×10000: p50 … p95 … p99 … (budget 2000 ms) servers X CPU-s, harness Y CPU-s
 *
 * PostgreSQL: a private cluster (port CAIRN_SCALE_PG_PORT, default 54345) unless PG_SERVER_URL names
 * a server to create a scratch database on. Prints figures; never fails.
 */
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { nanoid } from 'nanoid';
import { sql } from 'kysely';
import { startPostgres } from '../scripts/setup-lib.mjs';
import { createDatabase, startCluster, type Cluster } from '../scripts/scale/cluster';
import { openDatabase } from '../server/db/index';
import { issueTokens } from '../server/auth/tokens';
import { signSubscription } from '../server/realtime/signature';
import { checkDecoder, HERD_FORMAT, herdLine, postmasterPid, runHerd, startBalancer, treeCpuSeconds, type HerdClient, type HerdMode } from './herd-harness';

const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const FANOUT = (process.argv[4] ?? '1000,5000').split(',').map(Number).filter(Boolean);
const [CHANGES, CLIENTS] = (process.argv[5] ?? '10000x100').split('x').map(Number) as [number, number];
const KEY = 'cairn-key';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}, p99 ${ms(percentile(s, 99))}, max ${ms(s[s.length - 1] ?? NaN)}`;
};

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function fixtures(url: string) {
  const handle = await openDatabase({ databaseUrl: url });
  const now = new Date();
  const user = await handle.db
    .insertInto('users')
    .values({ email: `bench-${nanoid(6)}@example.test`, name: 'Bench', password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', email_verified_at: now, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  const team = await handle.db
    .insertInto('teams')
    .values({ name: 'Bench', owner_id: user.id, permissions: '{}', use_custom_logo: false, row_version: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db.insertInto('team_members').values({ team_id: team.id, user_id: user.id, role: 'owner', verified_at: now, invited_by: null, created_at: now }).execute();
  const token = (await issueTokens(handle.db, user.id, now)).access_token;
  return { handle, token, teamId: team.id };
}

const item = (boardId: string, name = 'bench') => ({ id: nanoid(), board_id: boardId, folder_id: boardId, name, position: Math.random(), row_version: 1 });

async function saves(cluster: Cluster, bases: string[], token: string, teamId: number, boardId: string) {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const base = bases[n++ % bases.length]!;
        const body = item(boardId);
        const t0 = performance.now();
        const res = await fetch(`${base}/api/${teamId}/items/${body.id}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - t0);
        else errors += 1;
      }
    }),
  );
  console.log(`  ${bases.length} API server${bases.length > 1 ? 's' : ''}: ${(latencies.length / SECONDS).toFixed(0)} saves/s, ${summary(latencies)}${errors ? `, ${errors} errors` : ''}`);
  void cluster;
}

async function hubRss(cluster: Cluster): Promise<number> {
  const text = await (await fetch(`${cluster.hub.url}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
  return Number(/^cairn_process_resident_memory_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
}

interface Client {
  ws: WebSocket;
  arrivals: Map<string, number>;
}

/** A raw Pusher-protocol client subscribed to the board channel with a signature made here (what multi-auth would answer). */
function connect(cluster: Cluster, channel: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${cluster.hub.port}/app/${KEY}?protocol=7&client=js&version=8.6.0`);
    const client: Client = { ws, arrivals: new Map() };
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data?: string; channel?: string };
      if (frame.event === 'pusher:connection_established') {
        const socketId = JSON.parse(frame.data!).socket_id as string;
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: signSubscription(KEY, cluster.secret, socketId, channel) } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded') resolve(client);
      else if (frame.event === 'pusher:error') reject(new Error(frame.data));
      else if (frame.event === 'changed') client.arrivals.set('last', performance.now());
    });
  });
}

async function fanout(cluster: Cluster, token: string, teamId: number, boardId: string) {
  const channel = `private-team.${teamId}.board.${boardId}`;
  const clients: Client[] = [];
  const base = await hubRss(cluster);
  for (const target of FANOUT) {
    while (clients.length < target) {
      const batch = Math.min(250, target - clients.length);
      clients.push(...(await Promise.all(Array.from({ length: batch }, () => connect(cluster, channel)))));
    }
    await new Promise((r) => setTimeout(r, 500));
    const rss = await hubRss(cluster);
    const rounds: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const c of clients) c.arrivals.clear();
      const body = item(boardId, `fan-out ${round}`);
      const t0 = performance.now();
      await json(await fetch(`${cluster.apis[0]!.url}/api/${teamId}/items/${body.id}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }));
      const deadline = performance.now() + 10_000;
      while (clients.some((c) => !c.arrivals.has('last')) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const got = clients.filter((c) => c.arrivals.has('last'));
      rounds.push(...got.map((c) => c.arrivals.get('last')! - t0));
      if (got.length < clients.length) console.log(`  (round ${round}: ${clients.length - got.length} of ${clients.length} clients had nothing within 10 s)`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`  ${clients.length} clients, save on api-1 → hub → every client (5 rounds): ${summary(rounds)}`);
    console.log(`    hub RSS ${(rss / 1048576).toFixed(0)} MB with ${clients.length} connections, ${(((rss - base) / clients.length) / 1024).toFixed(1)} KB per connection over the idle hub`);
  }
  for (const c of clients) c.ws.terminate();
}

async function catchUp(cluster: Cluster, f: Awaited<ReturnType<typeof fixtures>>, boardId: string, databaseUrl: string) {
  const { token, teamId } = f;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const start = (await json(await fetch(`${cluster.apis[0]!.url}/api/${teamId}/changes?after=0&board_id=${boardId}`, { headers }))).cursor as number;
  const t0 = performance.now();
  for (let written = 0, n = 0; written < CHANGES; n += 1) {
    const size = Math.min(500, CHANGES - written);
    const requests = Array.from({ length: size }, () => {
      const body = item(boardId, 'catch-up');
      return { method: 'put', route: `items/${body.id}`, payload: body };
    });
    await json(await fetch(`${cluster.apis[n % cluster.apis.length]!.url}/api/${teamId}/batch`, { method: 'POST', headers, body: JSON.stringify({ transaction: null, requests }) }));
    written += size;
  }
  console.log(`  wrote ${CHANGES} changes in ${((performance.now() - t0) / 1000).toFixed(1)} s (batches of 500 over both servers)`);
  // What autovacuum would do to the fresh rows anyway, done before the herds instead of maybe
  // during one (where it would count as the herd's database CPU).
  await sql`vacuum (analyze) change_log, records`.execute(f.handle.db);
  checkDecoder();
  const balancer = await startBalancer(root, cluster);
  const postmaster = postmasterPid(databaseUrl);
  try {
    // HERD_CURSORS=spread: client n reconnects from n changes further on (the writes above took
    // consecutive change numbers), so no two clients share a first page, as after a real deploy
    // where each live client had its own cursor; `same` (default): every client from one cursor.
    const spread = process.env.HERD_CURSORS === 'spread';
    const clientsOf = (tokens: string[]): HerdClient[] =>
      tokens.map((t, n) => ({ base: `${balancer.urlFor(n)}/api/${teamId}/changes`, boardId, start: spread ? start + n : start, token: t, expected: spread ? CHANGES - n : CHANGES }));
    const nothing = { before: () => undefined, after: () => undefined };
    /** One client's catch-up, page by page, parsing like the worker: the floor the herd is compared with. */
    const alone = async () => (await runHerd(clientsOf([token]), 1, 'parse', nothing)).times[0] ?? NaN;
    console.log(`  balancer: ${balancer.kind}${balancer.kind === 'nginx' ? ' (deploy/nginx.conf)' : balancer.kind === 'direct' ? ' (clients spread over the API servers, as an L4 balancer does)' : ' (the cluster\'s Node TCP round robin)'}; clients: node:http, one keep-alive connection each, gzip, ${HERD_THREADS} client thread${HERD_THREADS > 1 ? 's' : ''}; ${spread ? 'each client from its own cursor (HERD_CURSORS=spread)' : 'every client from the same cursor'}; /changes format ${HERD_FORMAT}${HERD_FORMAT === 2 ? ' (lean, decision 0320; HERD_FORMAT=1 for the old one)' : ' (HERD_FORMAT=1)'}`);
    console.log(`  one client alone (the floor): ${ms(await alone())} (then again: ${ms(await alone())})`);
    // A herd is many people, not one: each client is another member of the workspace with their own
    // token (so each request is authorised and judged for its reader).
    const tokens = await members(f, CLIENTS);
    const lines: string[] = [];
    for (const mode of HERD_MODES) {
      // The servers keep a page they read for a few seconds (server/sync/changes.ts RETAIN_MS) and
      // their idle database connections for 10 s (pg's pool): wait both out, so each herd starts as
      // cold as after a deploy (new servers open new connections, PostgreSQL starts a backend for each).
      await new Promise((r) => setTimeout(r, 11_000));
      let apiBefore: number[] = [], pgBefore = NaN, lbBefore = NaN, benchBefore = process.cpuUsage(), loadBefore = '';
      let apiCpu: number[] = [], pgCpu = NaN, lbCpu = 0, benchCpu = 0;
      const began = performance.now();
      const result = await runHerd(clientsOf(tokens), HERD_THREADS, mode, {
        async before() {
          loadBefore = loadavg();
          apiBefore = await Promise.all(cluster.apis.map((api) => cpuSeconds(cluster, api.url)));
          pgBefore = treeCpuSeconds(postmaster);
          lbBefore = balancer.pids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
          benchBefore = process.cpuUsage();
        },
        async after() {
          const bench = process.cpuUsage(benchBefore);
          benchCpu = (bench.user + bench.system) / 1e6;
          lbCpu = balancer.pids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) - lbBefore;
          pgCpu = treeCpuSeconds(postmaster) - pgBefore;
          apiCpu = (await Promise.all(cluster.apis.map((api) => cpuSeconds(cluster, api.url)))).map((c, i) => c - apiBefore[i]!);
        },
      });
      const wall = performance.now() - began;
      const failed = result.errors.length + result.wrong;
      for (const error of result.errors.slice(0, 3)) console.log(`    error: ${error.slice(0, 300)}`);
      const api = apiCpu.reduce((a, b) => a + b, 0);
      const servers = api + (Number.isNaN(pgCpu) ? 0 : pgCpu);
      const harness = benchCpu + lbCpu;
      const label = mode === 'parse' ? 'clients parsing every page like the sync worker' : 'clients taking each page\'s bytes (gunzipped, changes counted) without JSON.parse';
      console.log(`  ${CLIENTS} members at once, each catching up ${CHANGES} changes, ${label} (${result.requests} requests, ${(wall / 1000).toFixed(1)} s in all, load average ${loadBefore} before, ${loadavg()} after): ${summary(result.times)}${failed ? `, ${failed} failed` : ''}`);
      console.log(`    CPU-seconds: API servers ${apiCpu.map((c) => c.toFixed(2)).join(' + ')} (their /metrics), PostgreSQL ${Number.isNaN(pgCpu) ? 'n/a (not a cluster of this machine)' : pgCpu.toFixed(2)} (/proc); harness: clients ${benchCpu.toFixed(2)} (this process)${balancer.kind === 'nginx' ? `, nginx ${lbCpu.toFixed(2)}` : balancer.kind === 'node' ? ' (with the Node balancer in it)' : ''}`);
      lines.push(herdLine({ label: (mode === 'parse' ? '' : ' (no JSON.parse)') + (spread ? ' (own cursors)' : '') + (HERD_FORMAT === 1 ? ' (format 1)' : ''), clients: CLIENTS, changes: CHANGES, times: result.times, servers, harness, failed }));
    }
    console.log('');
    for (const line of lines) console.log(line);
  } finally {
    await balancer.stop();
  }
}

/** HERD_THREADS client threads (2 by default: one per core of the test machine). */
const HERD_THREADS = Number(process.env.HERD_THREADS) || 2;
/** HERD_MODES=parse,bytes (default both): clients parsing like the worker, then clients not parsing. */
const HERD_MODES = (process.env.HERD_MODES ?? 'parse,bytes').split(',').filter((m): m is HerdMode => m === 'parse' || m === 'bytes');
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** `count` members of the bench workspace (full members), each with their own access token. */
async function members(f: Awaited<ReturnType<typeof fixtures>>, count: number): Promise<string[]> {
  const now = new Date();
  const tokens: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const user = await f.handle.db
      .insertInto('users')
      .values({ email: `herd-${n}-${nanoid(6)}@example.test`, name: `Herd ${n}`, password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', email_verified_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await f.handle.db.insertInto('team_members').values({ team_id: f.teamId, user_id: user.id, role: 'full-member', verified_at: now, invited_by: null, created_at: now }).execute();
    tokens.push((await issueTokens(f.handle.db, user.id, now)).access_token);
  }
  return tokens;
}

async function cpuSeconds(cluster: Cluster, base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
  return Number(/^cairn_process_cpu_seconds_total (\S+)/m.exec(text)?.[1] ?? NaN);
}

async function main() {
  const own = process.env.PG_SERVER_URL ? null : startPostgres(Number(process.env.CAIRN_SCALE_PG_PORT) || 54345);
  const serverUrl = process.env.PG_SERVER_URL ?? own?.url;
  if (!serverUrl) throw new Error('no PostgreSQL');
  const database = await createDatabase(serverUrl);
  console.log(`machine: ${(await import('node:os')).cpus().length} cores, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const cluster = await startCluster({ databaseUrl: database.url, env: { REALTIME_MAX_CONNECTIONS_PER_IP: '100000', LOG_LEVEL: 'warn' } });
  const f = await fixtures(database.url);
  try {
    const boardId = nanoid();
    await json(await fetch(`${cluster.apis[0]!.url}/api/${f.teamId}/folders/${boardId}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` }, body: JSON.stringify({ id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', position: 0, row_version: 1 }) }));
    // seconds = 0 and fan-out = 0 leave those parts out (e.g. `0 0 0 10000x100`: the herd alone).
    if (SECONDS > 0) {
      console.log(`\nSustained saves, ${SECONDS} s each, ${CONCURRENCY} clients (budget ≥ 2,000 saves/s, p99 ≤ 25 ms: a single-process figure in DESIGN.md §8):`);
      await saves(cluster, [cluster.apis[0]!.url], f.token, f.teamId, boardId);
      await saves(cluster, cluster.apis.map((a) => a.url), f.token, f.teamId, boardId);
    }
    if (FANOUT.length) {
      console.log('\nRealtime fan-out through the hub (budget p95 ≤ 100 ms):');
      await fanout(cluster, f.token, f.teamId, boardId);
    }
    console.log('\n/changes catch-up after a deploy:');
    await catchUp(cluster, f, boardId, database.url);
    console.log(`\nload average at the end: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await f.handle.close();
    await cluster.stop();
    await database.drop().catch(() => undefined);
    own?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
