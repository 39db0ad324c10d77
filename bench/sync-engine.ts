/**
 * Sync engine figures (DESIGN.md §8), each beside a floor measured in the same run:
 *
 *   npx tsx bench/sync-engine.ts [edits=10000] [bootstrap=20000] [boardItems=3000]
 *
 * 1. Bootstrap into IndexedDB: the engine storing an index answer (replaceIndex) vs raw Dexie
 *    bulkPut of the same rows; and a whole openBoard over HTTP from the real server.
 * 2. Local edit: engine.save() (record + queued request in one strict transaction) vs a raw Dexie
 *    put, p50/p95 — the write half of "local edit → visible".
 * 3. Drain: `edits` saves queued offline, then reconnect; time until the queue is empty, checked
 *    on the server (none lost, none doubled), vs the same creates posted straight to
 *    POST /api/{teamId}/batch (the server's floor).
 *
 * The server runs as its own process (server/main.ts on a fresh PGlite data dir, as `npm start`),
 * so client and server each get a core. IndexedDB here is fake-indexeddb in Node, which is NOT
 * Chromium's IndexedDB: its figures say how much work the engine adds over raw Dexie, not what a
 * browser will show. Prints; never fails.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import Dexie from 'dexie';
import { nanoid } from 'nanoid';
import { startServer, type RunningServer } from '../e2e/helpers';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../server/demo/seed';
import { ManualClock } from '../sync-worker/clock';
import { latestSchema, openUserDb } from '../sync-worker/db';
import { Emitter } from '../sync-worker/events';
import { HttpClient } from '../sync-worker/http';
import { SyncEngine } from '../sync-worker/engine';
import { replaceIndex } from '../sync-worker/apply';
import type { SyncRecord, TokenRecord } from '../sync-worker/types';

const EDITS = Number(process.argv[2] ?? 10_000);
const BOOTSTRAP = Number(process.argv[3] ?? 20_000);
const BOARD_ITEMS = Number(process.argv[4] ?? 3_000);
const BUDGET = { bootstrapPerSecond: 20_000, drainSeconds: 10, editP95Ms: 16 };

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(52)} ${value.padStart(16)}   ${note}`);
const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER budget');

async function json(server: RunningServer, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

function item(boardId: string, i: number): SyncRecord {
  return { id: nanoid(), board_id: boardId, folder_id: boardId, name: `Item ${i}`, position: i, row_version: 0 };
}

async function main() {
  console.log(`sync engine bench: ${EDITS} queued edits, ${BOOTSTRAP} bootstrap rows, ${BOARD_ITEMS}-item board (fake-indexeddb in Node, not Chromium)\n`);
  const server = await startServer({ LOG_LEVEL: 'error' });
  try {
    const login = await json(server, 'POST', '/api/auth/login', null, { email: DEMO_EMAIL, password: DEMO_PASSWORD, grantType: 'password' });
    const tokens = (login.access_token ? login : login.data ?? login) as TokenRecord;
    const me = await json(server, 'GET', '/api/me', tokens.access_token);
    const userId = Number(me.id ?? me.data?.id ?? 1);
    const teams = await json(server, 'GET', '/api/me/workspaces', tokens.access_token);
    const teamId = Number((teams.data ?? teams)[0].id);
    const newBoard = async (name: string) => {
      const id = nanoid();
      await json(server, 'PUT', `/api/${teamId}/folders/${id}`, tokens.access_token, { id, board_id: id, parent_id: null, name, row_version: 1 });
      return id;
    };

    // ── 1. bootstrap ────────────────────────────────────────────────────────────────────────
    {
      const rows = Array.from({ length: BOOTSTRAP }, (_, i) => ({ ...item('B', i), row_version: 1 }));
      // Floor: the same rows into a table with the same indexes, by one raw bulkPut.
      const raw = new Dexie('raw-bootstrap', { indexedDB: new IDBFactory(), IDBKeyRange });
      raw.version(1).stores({ records: latestSchema().stores.records! });
      const t0 = performance.now();
      await raw.table('records').bulkPut(rows.map((r) => ({ ...r, collection: 'item' })));
      const rawSeconds = (performance.now() - t0) / 1000;
      raw.close();

      const db = await openUserDb(1, { indexedDB: new IDBFactory(), IDBKeyRange });
      const t1 = performance.now();
      await replaceIndex(db, 'item', 'B', rows);
      const engineSeconds = (performance.now() - t1) / 1000;
      db.close();
      line('bootstrap: raw Dexie bulkPut (floor)', `${(BOOTSTRAP / rawSeconds).toFixed(0)} rec/s`);
      line('bootstrap: engine replaceIndex', `${(BOOTSTRAP / engineSeconds).toFixed(0)} rec/s`, `${verdict(BOOTSTRAP / engineSeconds >= BUDGET.bootstrapPerSecond)} (≥ ${BUDGET.bootstrapPerSecond}/s)`);

      // A real board over HTTP: the server's index answers plus storing them.
      const boardId = await newBoard('Bench bootstrap');
      for (let i = 0; i < BOARD_ITEMS; i += 1000) {
        const requests = Array.from({ length: Math.min(1000, BOARD_ITEMS - i) }, (_, j) => {
          const it = { ...item(boardId, i + j), row_version: 1 };
          return { method: 'put', route: `items/${it.id}`, payload: it };
        });
        await json(server, 'POST', `/api/${teamId}/batch`, tokens.access_token, { transaction: null, requests });
      }
      const client = await makeClient(server, tokens, userId);
      const t2 = performance.now();
      await client.engine.openBoard(teamId, boardId);
      const openSeconds = (performance.now() - t2) / 1000;
      const stored = await client.db.relaxed.records.count();
      line(`openBoard over HTTP (${stored} records)`, `${(stored / openSeconds).toFixed(0)} rec/s`, `${(openSeconds * 1000).toFixed(0)} ms incl. server reads`);
      client.engine.stop();
      client.db.close();
    }

    // ── 2. local edit ───────────────────────────────────────────────────────────────────────
    {
      const n = 1000;
      const raw = new Dexie('raw-edit', { indexedDB: new IDBFactory(), IDBKeyRange, chromeTransactionDurability: 'strict' });
      raw.version(1).stores({ records: latestSchema().stores.records! });
      const rawTimes: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await raw.table('records').put({ ...item('B', i), collection: 'item' });
        rawTimes.push(performance.now() - t);
      }
      raw.close();
      const client = await makeClient(server, tokens, userId);
      await client.engine.setQueueing(true);
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await client.engine.save('item', item('B', i), { teamId });
        times.push(performance.now() - t);
      }
      line('local edit: raw Dexie put p50 / p95 (floor)', `${pct(rawTimes, 50).toFixed(2)} / ${pct(rawTimes, 95).toFixed(2)} ms`);
      line('local edit: engine.save p50 / p95', `${pct(times, 50).toFixed(2)} / ${pct(times, 95).toFixed(2)} ms`, `${verdict(pct(times, 95) <= BUDGET.editP95Ms)} (write half of p95 ≤ ${BUDGET.editP95Ms} ms)`);
      client.engine.stop();
      client.db.close();
    }

    // ── 3. drain ────────────────────────────────────────────────────────────────────────────
    {
      // Floor: the same number of creates posted straight to the batch endpoint.
      const floorBoard = await newBoard('Bench drain floor');
      const t0 = performance.now();
      for (let i = 0; i < EDITS; i += 500) {
        const requests = Array.from({ length: Math.min(500, EDITS - i) }, (_, j) => {
          const it = { ...item(floorBoard, i + j), row_version: 1 };
          return { method: 'put', route: `items/${it.id}`, payload: it };
        });
        await json(server, 'POST', `/api/${teamId}/batch`, tokens.access_token, { transaction: null, requests });
      }
      const floorSeconds = (performance.now() - t0) / 1000;

      const boardId = await newBoard('Bench drain');
      const client = await makeClient(server, tokens, userId);
      client.engine.connection.networkFailure();
      const tq = performance.now();
      for (let i = 0; i < EDITS; i++) await client.engine.save('item', item(boardId, i), { teamId });
      const queueSeconds = (performance.now() - tq) / 1000;
      const queued = await client.db.relaxed.failedRequests.count();
      const t1 = performance.now();
      client.engine.connection.browserOnline();
      await client.engine.idle();
      while ((await client.db.relaxed.failedRequests.count()) > 0) await client.engine.flush();
      const drainSeconds = (performance.now() - t1) / 1000;

      const onServer = await json(server, 'GET', `/api/${teamId}/items?board_id=${boardId}`, tokens.access_token);
      const list = onServer.data as SyncRecord[];
      const doubled = list.filter((r) => r.row_version !== 1).length;
      line(`queue ${queued} edits offline`, `${queueSeconds.toFixed(2)} s`, `${(EDITS / queueSeconds).toFixed(0)} edits/s into IndexedDB`);
      line(`drain floor: ${EDITS} creates posted as raw batches`, `${floorSeconds.toFixed(2)} s`);
      line(`drain: ${queued} queued edits after reconnect`, `${drainSeconds.toFixed(2)} s`, `${verdict(drainSeconds <= BUDGET.drainSeconds && list.length === EDITS && doubled === 0)} (≤ ${BUDGET.drainSeconds} s)`);
      line('drain check: on server / lost / doubled', `${list.length} / ${EDITS - list.length} / ${doubled}`);
      client.engine.stop();
      client.db.close();
    }
  } catch (error) {
    console.log(`bench stopped early: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await server.stop();
  }
}

async function makeClient(server: RunningServer, tokens: TokenRecord, userId: number) {
  const db = await openUserDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  const events = new Emitter();
  const clock = new ManualClock(Date.now());
  let engine: SyncEngine | null = null;
  const http = new HttpClient({
    baseUrl: server.url,
    fetch: (input, init) => fetch(input, init),
    clock,
    events,
    newId: () => nanoid(),
    swUuid: 'bench',
    onResult: ({ method, ok, networkError }) => {
      if (networkError) engine?.connection.networkFailure();
      else if (ok) engine?.connection.requestSucceeded(method);
    },
  });
  http.setToken(tokens);
  engine = await SyncEngine.create({ db, http, clock, random: Math.random, events, newId: () => nanoid() });
  return { engine, db };
}

void main().then(() => process.exit(0));
