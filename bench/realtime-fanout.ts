/**
 * Realtime fan-out: one event published to N connected pusher-js clients (default 500).
 *
 *   npx tsx bench/realtime-fanout.ts [clients=500] [rounds=30]
 *
 * The embedded server (Fastify + the Pusher-protocol endpoint, no database) runs in a child
 * process so its memory per connection is measured alone; the clients run here. Reports, for
 * in-process publishing (what the API server does) and for the signed HTTP API (what an external
 * publisher or the `pusher` SDK does): per-client delivery latency p50/p95/max and the time until
 * the last client had it, plus the server's own send loop as the floor. Budget (DESIGN.md §8):
 * p95 ≤ 100 ms. Prints figures; never fails.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import Fastify from 'fastify';
import Pusher from 'pusher-js';
import PusherServer from 'pusher';
import { EmbeddedRealtimeServer } from '../server/realtime/server';
import { registerHttpPublishApi } from '../server/realtime/http-api';
import { signSubscription } from '../server/realtime/signature';

const APP = { appId: 'bench', key: 'bench-key', secret: 'bench-secret' };
const CHANNEL = 'private-team.1.board.bench';
const now = () => performance.timeOrigin + performance.now();

type ToServer = { type: 'publish'; id: number } | { type: 'memory' } | { type: 'stop' };
type FromServer = { type: 'ready'; port: number } | { type: 'published'; id: number; at: number; sendLoopMs: number } | { type: 'memory'; rss: number; heapUsed: number; connections: number };

// ── server side (child process) ─────────────────────────────────────────────────────────────
async function runServer() {
  const realtime = new EmbeddedRealtimeServer({ ...APP, maxConnectionsPerIp: 100_000 });
  const app = Fastify({ logger: false });
  realtime.attach(app.server);
  await registerHttpPublishApi(app, realtime);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const send = (m: FromServer) => process.send!(m);
  process.on('message', async (m: ToServer) => {
    if (m.type === 'publish') {
      const at = now();
      realtime.publish([CHANNEL], 'saved', JSON.stringify({ collection: 'item', data: { id: 'x', sent: at, round: m.id } }));
      send({ type: 'published', id: m.id, at, sendLoopMs: now() - at });
    } else if (m.type === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((r) => setTimeout(r, 100));
      const usage = process.memoryUsage();
      send({ type: 'memory', rss: usage.rss, heapUsed: usage.heapUsed, connections: realtime.connectionCount });
    } else if (m.type === 'stop') {
      await app.close();
      await realtime.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', port });
}

// ── client side ──────────────────────────────────────────────────────────────────────────────
function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const fmt = (ms: number) => ms.toFixed(1).padStart(7) + ' ms';

async function runBench() {
  const clients = Number(process.argv[2] ?? 500);
  const rounds = Number(process.argv[3] ?? 30);
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--server'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  const waiters = new Map<string, (m: FromServer) => void>();
  child.on('message', (m: FromServer) => {
    const key = m.type === 'published' ? `published:${m.id}` : m.type;
    waiters.get(key)?.(m);
    waiters.delete(key);
  });
  const expect = <T extends FromServer>(key: string) => new Promise<T>((resolve) => waiters.set(key, resolve as (m: FromServer) => void));
  const ask = <T extends FromServer>(message: ToServer, key: string) => {
    const answer = expect<T>(key);
    child.send(message);
    return answer;
  };

  const { port } = await expect<{ type: 'ready'; port: number }>('ready');
  const before = await ask<Extract<FromServer, { type: 'memory' }>>({ type: 'memory' }, 'memory');

  // Receive times per round, per client.
  const received = new Map<number, number[]>();
  const sockets: Pusher[] = [];
  const connectOne = () =>
    new Promise<void>((resolve, reject) => {
      const client = new Pusher(APP.key, {
        cluster: 'bench',
        wsHost: '127.0.0.1',
        wsPort: port,
        forceTLS: false,
        enabledTransports: ['ws'],
        disableStats: true,
        channelAuthorization: { customHandler: ({ socketId, channelName }, cb) => cb(null, { auth: signSubscription(APP.key, APP.secret, socketId, channelName) }) },
      });
      sockets.push(client);
      const channel = client.subscribe(CHANNEL);
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', reject);
      channel.bind('saved', (payload: { data: { round: number } }) => {
        const at = now();
        let list = received.get(payload.data.round);
        if (!list) received.set(payload.data.round, (list = []));
        list.push(at);
      });
    });
  const connectStart = now();
  for (let i = 0; i < clients; i += 50) await Promise.all(Array.from({ length: Math.min(50, clients - i) }, connectOne));
  const connectMs = now() - connectStart;
  const after = await ask<Extract<FromServer, { type: 'memory' }>>({ type: 'memory' }, 'memory');

  const waitAll = async (round: number) => {
    const deadline = Date.now() + 5000;
    while ((received.get(round)?.length ?? 0) < clients && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  };

  // In-process publish (the embedded broadcaster).
  const inProcess: number[] = [];
  const lastInProcess: number[] = [];
  const loops: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const published = await ask<Extract<FromServer, { type: 'published' }>>({ type: 'publish', id: round }, `published:${round}`);
    await waitAll(round);
    const times = received.get(round) ?? [];
    for (const t of times) inProcess.push(t - published.at);
    lastInProcess.push(Math.max(...times) - published.at);
    loops.push(published.sendLoopMs);
    await new Promise((r) => setTimeout(r, 20));
  }

  // Through the signed HTTP API with the `pusher` SDK (external-publisher path).
  const sdk = new PusherServer({ appId: APP.appId, key: APP.key, secret: APP.secret, host: '127.0.0.1', port: String(port), useTLS: false });
  const viaHttp: number[] = [];
  const lastViaHttp: number[] = [];
  for (let i = 1; i <= rounds; i++) {
    const round = 10_000 + i;
    const at = now();
    await sdk.trigger(CHANNEL, 'saved', { collection: 'item', data: { id: 'x', round } });
    await waitAll(round);
    const times = received.get(round) ?? [];
    for (const t of times) viaHttp.push(t - at);
    lastViaHttp.push(Math.max(...times) - at);
    await new Promise((r) => setTimeout(r, 20));
  }

  const delivered = [...received.values()].reduce((n, l) => n + l.length, 0);
  inProcess.sort((a, b) => a - b);
  viaHttp.sort((a, b) => a - b);
  lastInProcess.sort((a, b) => a - b);
  lastViaHttp.sort((a, b) => a - b);
  loops.sort((a, b) => a - b);
  const perConnRss = (after.rss - before.rss) / clients / 1024;
  const perConnHeap = (after.heapUsed - before.heapUsed) / clients / 1024;

  console.log(`\nRealtime fan-out: ${clients} pusher-js clients on one private channel, ${rounds} rounds per path (${delivered}/${clients * rounds * 2} deliveries)`);
  console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (shared machine: figures rise with load)`);
  console.log(`connect + subscribe ${clients} clients: ${connectMs.toFixed(0)} ms; server holds ${after.connections} connections`);
  console.log(`server send loop (floor)        p50 ${fmt(percentile(loops, 50))}   p95 ${fmt(percentile(loops, 95))}`);
  console.log(`in-process publish → client     p50 ${fmt(percentile(inProcess, 50))}   p95 ${fmt(percentile(inProcess, 95))}   max ${fmt(inProcess[inProcess.length - 1] ?? NaN)}`);
  console.log(`in-process publish → last client p50 ${fmt(percentile(lastInProcess, 50))}   p95 ${fmt(percentile(lastInProcess, 95))}`);
  console.log(`HTTP API (pusher SDK) → client  p50 ${fmt(percentile(viaHttp, 50))}   p95 ${fmt(percentile(viaHttp, 95))}   max ${fmt(viaHttp[viaHttp.length - 1] ?? NaN)}`);
  console.log(`HTTP API → last client          p50 ${fmt(percentile(lastViaHttp, 50))}   p95 ${fmt(percentile(lastViaHttp, 95))}`);
  console.log(`server memory per connection: ${perConnRss.toFixed(1)} KB RSS, ${perConnHeap.toFixed(1)} KB heap`);
  const p95 = percentile(inProcess, 95);
  console.log(`budget p95 ≤ 100 ms: ${p95 <= 100 ? 'within' : 'OVER'} (${p95.toFixed(1)} ms)\n`);

  for (const s of sockets) s.disconnect();
  child.send({ type: 'stop' } satisfies ToServer);
  await new Promise((r) => child.once('exit', r));
}

if (process.argv.includes('--server')) {
  runServer().catch((error) => {
    console.error(error);
    process.exit(0);
  });
} else {
  runBench()
    .catch((error) => console.error('benchmark failed to run:', error))
    .finally(() => process.exit(0));
}
