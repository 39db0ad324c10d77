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
 *    thundering herd after a deploy; each its own user and token, the clients spread over
 *    HERD_THREADS=4 worker threads) read from their old cursor through the balancer until
 *    `has_more` is false: p50/p95/max per client (budget p95 ≤ 2 s), the errors if any, the API
 *    servers' CPU seconds for the herd, and one client alone first (the floor). Then the same herd
 *    again, cold, with clients that take each page's bytes without decoding or parsing them (the
 *    servers' and the network's part: real clients parse on their own devices, not on these cores).
 *
 * PostgreSQL: a private cluster (port CAIRN_SCALE_PG_PORT, default 54345) unless PG_SERVER_URL names
 * a server to create a scratch database on. Prints figures; never fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { nanoid } from 'nanoid';
import { startPostgres } from '../scripts/setup-lib.mjs';
import { createDatabase, startCluster, type Cluster } from '../scripts/scale/cluster';
import { openDatabase } from '../server/db/index';
import { issueTokens } from '../server/auth/tokens';
import { signSubscription } from '../server/realtime/signature';

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

async function catchUp(cluster: Cluster, f: Awaited<ReturnType<typeof fixtures>>, boardId: string) {
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
  /** One client's catch-up, page by page: the floor the herd is compared with. */
  const alone = async () => {
    const began = performance.now();
    let cursor = start;
    for (;;) {
      const page = await json(await fetch(`${cluster.balancerUrl}/api/${teamId}/changes?after=${cursor}&board_id=${boardId}`, { headers }));
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    return performance.now() - began;
  };
  console.log(`  one client alone (the floor): ${ms(await alone())} (then again: ${ms(await alone())})`);
  // The servers keep a page they read for a few seconds (server/sync/changes.ts RETAIN_MS): wait
  // them out, so the herd starts as cold as after a deploy.
  await new Promise((r) => setTimeout(r, 6_000));
  console.log(`  load average before the herd: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  // A herd is many people, not one: each client is another member of the workspace with their own
  // token (so each request is authorised and judged for its reader), and the clients run in
  // HERD_THREADS worker threads — on real devices each client parses its pages on its own CPU, not
  // in one event loop with ninety-nine others.
  const tokens = await members(f, CLIENTS);
  const herd = async (bytesOnly: boolean) => {
    const cpuBefore = await Promise.all(cluster.apis.map((api) => cpuSeconds(cluster, api.url)));
    const pgBefore = postgresCpuSeconds();
    const benchBefore = process.cpuUsage();
    const began = performance.now();
    const results = await Promise.all(
      Array.from({ length: HERD_THREADS }, (_, n) => herdThread({ url: `${cluster.balancerUrl}/api/${teamId}/changes`, boardId, start, tokens: tokens.filter((_, i) => i % HERD_THREADS === n), bytesOnly })),
    );
    const wall = performance.now() - began;
    const benchCpu = process.cpuUsage(benchBefore);
    const pgCpu = postgresCpuSeconds() - pgBefore;
    const cpuAfter = await Promise.all(cluster.apis.map((api) => cpuSeconds(cluster, api.url)));
    const times = results.flatMap((r) => r.times);
    const errors = results.reduce((sum, r) => sum + r.errors + r.times.filter((_, i) => r.seen[i]! < CHANGES).length, 0);
    const requests = results.reduce((sum, r) => sum + r.requests, 0);
    const s = [...times].sort((a, b) => a - b);
    const p95 = percentile(s, 95);
    console.log(`  ${bytesOnly ? 'clients not parsing the pages: ' : ''}${CLIENTS} members at once, each catching up ${CHANGES} changes through the balancer (${requests} requests, ${HERD_THREADS} client threads, ${(wall / 1000).toFixed(1)} s in all): ${summary(times)}${errors ? `, ${errors} failed` : ''}`);
    console.log(`    CPU seconds the herd cost: API servers ${cpuAfter.map((c, i) => `${(c - cpuBefore[i]!).toFixed(1)}`).join(' + ')} (their /metrics), PostgreSQL ${pgCpu.toFixed(1)} (/proc), the clients and the balancer ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} (this process)`);
    console.log(`    load average after the herd: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`    budget p95 ≤ 2000 ms: ${p95 <= 2000 ? 'within' : 'OVER'}`);
  };
  await herd(false);
  // Again, cold, with clients that take the bytes without parsing them: the servers' and the network's part.
  await new Promise((r) => setTimeout(r, 6_000));
  await herd(true);
}

const HERD_THREADS = Number(process.env.HERD_THREADS) || 4;

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

/**
 * CPU seconds used so far by the private PostgreSQL cluster (its postmaster, the live backends, and
 * the backends that ended): from /proc, Linux only; NaN with PG_SERVER_URL (not our cluster).
 */
function postgresCpuSeconds(): number {
  if (process.env.PG_SERVER_URL) return NaN;
  try {
    const port = Number(process.env.CAIRN_SCALE_PG_PORT) || 54345;
    const postmaster = Number(readFileSync(`/tmp/cairn-test-pg-${port}/postmaster.pid`, 'utf8').split('\n')[0]);
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // Fields after "(comm)": state ppid … utime(14) stime(15) cutime(16) cstime(17), 1-based.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      else if (ppid === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100;
  } catch {
    return NaN;
  }
}

async function cpuSeconds(cluster: Cluster, base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
  return Number(/^cairn_process_cpu_seconds_total (\S+)/m.exec(text)?.[1] ?? NaN);
}

/** One worker thread's share of the herd: every client starts at once and pages until has_more is false. */
const HERD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, boardId, start, tokens, bytesOnly } = workerData;
const MARK = Buffer.from('{"collection":');
// bytesOnly: the page's bytes (gzip undone by fetch), the cursor read from its tail and the changes
// counted by their opening bytes, no text decoding or JSON of 1.7 MB: what the servers and the
// network take, with less of the clients' own work (on real devices, each on its own CPU).
async function readPage(res) {
  if (!bytesOnly) {
    const text = await res.text();
    if (!res.ok) throw new Error(res.status + ' ' + text.slice(0, 200));
    const page = JSON.parse(text);
    return { count: page.data.length, cursor: page.cursor, has_more: page.has_more };
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(res.status + ' ' + bytes.toString('utf8', 0, 200));
  let count = 0;
  for (let at = bytes.indexOf(MARK); at !== -1; at = bytes.indexOf(MARK, at + MARK.length)) count += 1;
  const tail = JSON.parse('{' + bytes.toString('utf8', bytes.lastIndexOf('"cursor":')));
  return { count, cursor: tail.cursor, has_more: tail.has_more };
}
(async () => {
  const times = [], seen = [];
  let errors = 0, requests = 0;
  await Promise.all(tokens.map(async (token) => {
    const began = performance.now();
    let cursor = start, count = 0;
    try {
      for (;;) {
        requests += 1;
        const headers = { authorization: 'Bearer ' + token };
        const page = await readPage(await fetch(url + '?after=' + cursor + '&board_id=' + boardId, { headers }));
        count += page.count;
        cursor = page.cursor;
        if (!page.has_more) break;
      }
      times.push(performance.now() - began);
      seen.push(count);
    } catch (error) {
      errors += 1;
      console.error(String(error));
    }
  }));
  parentPort.postMessage({ times, seen, errors, requests });
})();
`;

function herdThread(data: { url: string; boardId: string; start: number; tokens: string[]; bytesOnly: boolean }): Promise<{ times: number[]; seen: number[]; errors: number; requests: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HERD_WORKER, { eval: true, workerData: data });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
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
    await catchUp(cluster, f, boardId);
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
