/**
 * Realtime fan-out of a real save, judged per subscriber (decision 0090): N signed-in workspace
 * members (default 500), each a pusher-js client subscribed to one board's channel through the
 * real multi-auth, and one writer saving an item through the real HTTP API
 * (PUT /api/{team}/items/{id}).
 *
 *   npx tsx bench/realtime-judged.ts [clients=500] [rounds=30] [insiders=50]
 *
 * The API server (Fastify, PGlite in memory, the embedded realtime server) runs in a child process;
 * the clients and the writer run here. Two shapes:
 *   (a) the item in an open folder: every member may read it, every client must get it;
 *   (b) the item in a hidden folder whose user_ids name `insiders` of the members: exactly those
 *       must get it — any other delivery is printed as a FAILURE line.
 * Reports save answered → delivered per client and to the last allowed client (p50/p95/max),
 * beside the floor: the raw in-process publish on the same sockets, without judging. Budget
 * (DESIGN.md §8): realtime fan-out p95 ≤ 100 ms. Prints figures; never fails the run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nanoid } from 'nanoid';
import Pusher from 'pusher-js';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createMailer } from '../server/mail/mailer';
import type { AppContext } from '../server/context';
import { openDatabase } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { issueTokens } from '../server/auth/tokens';
import { createBroadcaster, embeddedServerOf } from '../server/realtime/broadcaster';
import { createJobs } from '../server/jobs/index';

const now = () => performance.timeOrigin + performance.now();
const BUDGET_P95_MS = 100;

interface Setup {
  port: number;
  key: string;
  teamId: number;
  boardId: string;
  writerToken: string;
  members: { userId: number; token: string }[];
  insiderIds: number[];
  openItemId: string;
  hiddenItemId: string;
  openFolderId: string;
  hiddenFolderId: string;
}
type ToServer = { type: 'raw'; round: number } | { type: 'stop' };
type FromServer = { type: 'ready'; setup: Setup } | { type: 'raw'; round: number; at: number };

// ── server side (child process) ─────────────────────────────────────────────────────────────
async function runServer(clients: number, insiders: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
  const handle = await openDatabase({ databaseUrl: null, pglite: new PGlite() });
  await migrate(handle.db);
  const config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', PUSHER_APP_SECRET: crypto.randomBytes(32).toString('hex') }),
    webDir: path.join(dataDir, 'no-web'),
  };
  const ctx: AppContext = {
    db: handle.db,
    config,
    mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), smtpUrl: null, from: config.mailFrom }),
    // Every client comes from 127.0.0.1: lift the per-address connection cap.
    broadcaster: createBroadcaster(config, { maxConnectionsPerIp: 100_000 }),
    jobs: createJobs(handle.db, { now: () => new Date() }),
    now: () => new Date(),
  };
  const app = await buildApp(ctx, { logger: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const embedded = embeddedServerOf(ctx.broadcaster)!;

  // The writer owns the workspace; the members are verified full members, inserted in bulk.
  const at = new Date();
  const user = (email: string, name: string) => ({ email, name, password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', email_verified_at: at, created_at: at, updated_at: at });
  const writer = await ctx.db.insertInto('users').values(user(`writer-${nanoid(6)}@example.test`, 'Writer')).returning('id').executeTakeFirstOrThrow();
  const team = await ctx.db
    .insertInto('teams')
    .values({ name: 'Bench', owner_id: writer.id, permissions: '{}', use_custom_logo: false, row_version: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: writer.id, role: 'owner', verified_at: at, invited_by: null, created_at: at }).execute();
  const memberRows = await ctx.db
    .insertInto('users')
    .values(Array.from({ length: clients }, (_, i) => user(`member-${i}-${nanoid(6)}@example.test`, `Member ${i}`)))
    .returning('id')
    .execute();
  await ctx.db
    .insertInto('team_members')
    .values(memberRows.map((m) => ({ team_id: team.id, user_id: m.id, role: 'full-member', verified_at: at, invited_by: null, created_at: at })))
    .execute();
  const writerToken = (await issueTokens(ctx.db, writer.id, at)).access_token;
  const members: Setup['members'] = [];
  for (const m of memberRows) members.push({ userId: m.id, token: (await issueTokens(ctx.db, m.id, at)).access_token });
  const insiderIds = memberRows.slice(0, insiders).map((m) => m.id);

  // The board, its folders and the two items, saved by the writer through the API.
  const put = async (route: string, body: Record<string, unknown>) => {
    const res = await app.inject({ method: 'PUT', url: `/api/${team.id}/${route}/${body.id}`, headers: { authorization: `Bearer ${writerToken}` }, payload: body });
    if (res.statusCode !== 200) throw new Error(`setup save of ${route} failed: ${res.statusCode} ${res.body}`);
  };
  const boardId = nanoid();
  const openFolderId = nanoid();
  const hiddenFolderId = nanoid();
  const openItemId = nanoid();
  const hiddenItemId = nanoid();
  await put('folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', row_version: 1 });
  await put('folders', { id: openFolderId, board_id: boardId, parent_id: boardId, name: 'Open folder', row_version: 1 });
  await put('folders', { id: hiddenFolderId, board_id: boardId, parent_id: boardId, name: 'Hidden folder', hidden: true, user_ids: [writer.id, ...insiderIds], row_version: 1 });
  await put('items', { id: openItemId, board_id: boardId, folder_id: openFolderId, name: 'open 0', position: 1, row_version: 1 });
  await put('items', { id: hiddenItemId, board_id: boardId, folder_id: hiddenFolderId, name: 'hidden 0', position: 2, row_version: 1 });

  const channel = `private-team.${team.id}.board.${boardId}`;
  const send = (m: FromServer) => process.send!(m);
  process.on('message', async (m: ToServer) => {
    if (m.type === 'raw') {
      // The floor: the same sockets, the raw publish path (no judging), like bench/realtime-fanout.ts.
      const sent = now();
      embedded.publish([channel], 'saved', JSON.stringify({ collection: 'item', data: { id: 'raw', name: `raw ${m.round}` } }));
      send({ type: 'raw', round: m.round, at: sent });
    } else if (m.type === 'stop') {
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  send({
    type: 'ready',
    setup: { port: Number(new URL(address).port), key: config.pusher.key, teamId: team.id, boardId, writerToken, members, insiderIds, openItemId, hiddenItemId, openFolderId, hiddenFolderId },
  });
}

// ── client side ──────────────────────────────────────────────────────────────────────────────
function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
const fmt = (ms: number) => ms.toFixed(1).padStart(7) + ' ms';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runBench() {
  const clients = Number(process.argv[2] ?? 500);
  const rounds = Number(process.argv[3] ?? 30);
  const insiders = Math.min(clients, Number(process.argv[4] ?? 50));
  const setupStart = now();
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--server', String(clients), String(insiders)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  const waiters = new Map<string, (m: FromServer) => void>();
  child.on('message', (m: FromServer) => {
    const key = m.type === 'raw' ? `raw:${m.round}` : m.type;
    waiters.get(key)?.(m);
    waiters.delete(key);
  });
  const expect = <T extends FromServer>(key: string) => new Promise<T>((resolve) => waiters.set(key, resolve as (m: FromServer) => void));
  const ready = expect<Extract<FromServer, { type: 'ready' }>>('ready');
  const died = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before it was ready`))));
  const { setup } = await Promise.race([ready, died]);
  const setupMs = now() - setupStart;
  const base = `http://127.0.0.1:${setup.port}`;
  const channelName = `private-team.${setup.teamId}.board.${setup.boardId}`;
  const insiderSet = new Set(setup.insiderIds);

  // Deliveries by the record name each round carries ("open 3", "hidden 7", "raw 2"): who, when.
  const received = new Map<string, { userId: number; at: number }[]>();
  const sockets: Pusher[] = [];
  let authCalls = 0;
  const connectOne = (member: { userId: number; token: string }) =>
    new Promise<void>((resolve, reject) => {
      const client = new Pusher(setup.key, {
        cluster: 'bench',
        wsHost: '127.0.0.1',
        wsPort: setup.port,
        forceTLS: false,
        enabledTransports: ['ws'],
        disableStats: true,
        channelAuthorization: {
          // The app's own route, as the sync worker calls it (one channel per call here).
          customHandler: async ({ socketId, channelName: name }, callback) => {
            authCalls += 1;
            try {
              const res = await fetch(`${base}/api/broadcasting/multi-auth`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
                body: JSON.stringify({ socketId, channelNames: [name] }),
              });
              const entry = (await res.json())[name];
              if (entry?.status === 200) callback(null, entry.data);
              else callback(new Error(`multi-auth refused ${name}: ${res.status}`), null);
            } catch (error) {
              callback(error as Error, null);
            }
          },
        },
      });
      sockets.push(client);
      const channel = client.subscribe(channelName);
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (error: unknown) => reject(new Error(`subscription refused for user ${member.userId}: ${JSON.stringify(error)}`)));
      channel.bind('saved', (payload: { collection: string; data: { name?: string } }) => {
        const at = now();
        const name = payload?.data?.name;
        if (typeof name !== 'string') return;
        let list = received.get(name);
        if (!list) received.set(name, (list = []));
        list.push({ userId: member.userId, at });
      });
    });
  const connectStart = now();
  for (let i = 0; i < setup.members.length; i += 50) await Promise.all(setup.members.slice(i, i + 50).map(connectOne));
  const connectMs = now() - connectStart;

  const waitFor = async (name: string, count: number) => {
    const deadline = Date.now() + 5000;
    while ((received.get(name)?.length ?? 0) < count && Date.now() < deadline) await sleep(1);
  };

  // Floor: raw in-process publish to the same sockets.
  const raw: number[] = [];
  const rawLast: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const ack = expect<Extract<FromServer, { type: 'raw' }>>(`raw:${round}`);
    child.send({ type: 'raw', round } satisfies ToServer);
    const { at } = await ack;
    await waitFor(`raw ${round}`, clients);
    const times = (received.get(`raw ${round}`) ?? []).map((d) => d.at - at);
    raw.push(...times);
    rawLast.push(Math.max(...times));
    await sleep(20);
  }

  // The judged path: the writer saves through the HTTP API; the realtime module judges readers.
  interface Shape {
    label: string;
    itemId: string;
    folderId: string;
    prefix: string;
    allowed: (userId: number) => boolean;
    expected: number;
  }
  const shapes: Shape[] = [
    { label: '(a) open folder', itemId: setup.openItemId, folderId: setup.openFolderId, prefix: 'open', allowed: () => true, expected: clients },
    { label: `(b) hidden folder, ${insiders} named`, itemId: setup.hiddenItemId, folderId: setup.hiddenFolderId, prefix: 'hidden', allowed: (id) => insiderSet.has(id), expected: insiders },
  ];
  const failures: string[] = [];
  const results: { shape: Shape; perClient: number[]; last: number[]; fromSent: number[]; saveMs: number[] }[] = [];
  for (const shape of shapes) {
    const perClient: number[] = [];
    const last: number[] = [];
    const fromSent: number[] = [];
    const saveMs: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const name = `${shape.prefix} ${round}`;
      const body = { id: shape.itemId, board_id: setup.boardId, folder_id: shape.folderId, name, position: 1, row_version: round + 1 };
      const sent = now();
      const res = await fetch(`${base}/api/${setup.teamId}/items/${shape.itemId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${setup.writerToken}`, 'x-idempotency-key': nanoid() },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      const answered = now();
      if (res.status !== 200) {
        failures.push(`FAILURE ${shape.label} round ${round}: save answered ${res.status} ${text.slice(0, 200)}`);
        continue;
      }
      saveMs.push(answered - sent);
      await waitFor(name, shape.expected);
      // Room for a wrong delivery to show up before the round is judged.
      if (shape.expected < clients) await sleep(30);
      const deliveries = received.get(name) ?? [];
      const wrong = deliveries.filter((d) => !shape.allowed(d.userId));
      const right = deliveries.filter((d) => shape.allowed(d.userId));
      const distinct = new Set(right.map((d) => d.userId)).size;
      if (wrong.length > 0) failures.push(`FAILURE ${shape.label} round ${round}: delivered to ${wrong.length} client(s) that may not read it (users ${[...new Set(wrong.map((d) => d.userId))].slice(0, 10).join(', ')})`);
      if (distinct !== shape.expected || right.length !== shape.expected)
        failures.push(`FAILURE ${shape.label} round ${round}: ${distinct} of ${shape.expected} allowed clients got it (${right.length} deliveries)`);
      for (const d of right) {
        perClient.push(d.at - answered);
        fromSent.push(d.at - sent);
      }
      if (right.length > 0) last.push(Math.max(...right.map((d) => d.at)) - answered);
      await sleep(20);
    }
    results.push({ shape, perClient, last, fromSent, saveMs });
  }
  // Late wrong deliveries (after their round was judged) still count.
  await sleep(200);
  for (const { shape } of results) {
    if (shape.expected === clients) continue;
    for (let round = 1; round <= rounds; round++) {
      const wrong = (received.get(`${shape.prefix} ${round}`) ?? []).filter((d) => !shape.allowed(d.userId));
      if (wrong.length > 0 && !failures.some((f) => f.startsWith(`FAILURE ${shape.label} round ${round}: delivered`)))
        failures.push(`FAILURE ${shape.label} round ${round}: ${wrong.length} late delivery(ies) to clients that may not read it`);
    }
  }

  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const line = (label: string, list: number[], withMax = true) => {
    const s = sorted(list);
    return `${label.padEnd(44)} p50 ${fmt(percentile(s, 50))}   p95 ${fmt(percentile(s, 95))}${withMax ? `   max ${fmt(s[s.length - 1] ?? NaN)}` : ''}`;
  };
  const rawP95 = percentile(sorted(raw), 95);
  const rawLastP95 = percentile(sorted(rawLast), 95);

  console.log(`\nRealtime fan-out of a judged save: ${clients} signed-in members (pusher-js, multi-auth) on one board channel, one writer (PUT /api/{team}/items/{id}), ${rounds} rounds per shape`);
  console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (shared machine: figures rise with load)`);
  console.log(`setup (server, ${clients} users + tokens, board): ${setupMs.toFixed(0)} ms; connect + multi-auth + subscribe ${clients} clients: ${connectMs.toFixed(0)} ms (${authCalls} auth calls)`);
  console.log(line('floor: raw publish → client (same sockets)', raw));
  console.log(line('floor: raw publish → last client', rawLast));
  for (const { shape, perClient, last, fromSent, saveMs } of results) {
    console.log(`${shape.label}: ${perClient.length}/${shape.expected * rounds} allowed deliveries`);
    console.log(line('  save request → answered', saveMs));
    console.log(line('  save answered → client', perClient) + `   (floor p95 ${fmt(rawP95)})`);
    console.log(line('  save answered → last allowed client', last) + `   (floor p95 ${fmt(rawLastP95)})`);
    console.log(line('  save sent → client', fromSent));
  }
  for (const f of failures) console.log(f);
  if (failures.length === 0) console.log(`deliveries: every allowed client got every round, no other client got any (${failures.length} failures)`);
  for (const { shape, perClient } of results) {
    const p95 = percentile(sorted(perClient), 95);
    console.log(`budget p95 ≤ ${BUDGET_P95_MS} ms ${shape.label}: ${p95 <= BUDGET_P95_MS ? 'within' : 'OVER'} (${p95.toFixed(1)} ms, save answered → client)`);
  }
  console.log('');

  for (const s of sockets) s.disconnect();
  child.send({ type: 'stop' } satisfies ToServer);
  await new Promise((r) => child.once('exit', r));
}

if (process.argv.includes('--server')) {
  const i = process.argv.indexOf('--server');
  runServer(Number(process.argv[i + 1] ?? 500), Number(process.argv[i + 2] ?? 50)).catch((error) => {
    console.error('bench server failed:', error);
    process.exit(0);
  });
} else {
  runBench()
    .catch((error) => console.error('benchmark failed to run:', error))
    .finally(() => process.exit(0));
}
