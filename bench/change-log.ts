/**
 * The change log over many updates (issue #31 part 6, decision 0351): 10,000 items updated round
 * after round through the real app (POST /batch of 100 saves: auth, rules, row versions, change
 * log), with the change log compacted as the server's background compactor does (every
 * checkpoint). At each of ten checkpoints it prints the change log's rows and size on disk, the
 * compaction's time and longest batch (the time it held the database), and `/changes` latency
 * (format 2, gzip as the worker asks) for a reader near the head (the last 100 updates) and for a
 * full catch-up from the previous checkpoint (every page). Flat rows, size and latency = the log
 * does not grow with the number of updates. On PGlite, and on PostgreSQL when DATABASE_URL is set
 * (a scratch database: the bench adds a user, a team and records).
 *
 *   npx tsx bench/change-log.ts [updates=1000000] [records=10000]
 *
 * The issue's figure is 1,000,000 updates of 10,000 records; on a busy 2-core machine that takes
 * long (≈ saves/s of bench/server-saves.ts via /batch), so pass a smaller count. Prints; never fails.
 */
import os from 'node:os';
import { gunzipSync } from 'node:zlib';
import { nanoid } from 'nanoid';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../server/db/index';
import { benchOwner, inProcessApp } from './in-process-app';
import { compactChangeLog } from '../server/sync/compaction';

const UPDATES = Number(process.argv[2] ?? 1_000_000);
const RECORDS = Number(process.argv[3] ?? 10_000);
const BATCH = 100;
const CHECKPOINTS = 10;
const RETENTION_MS = 90 * 86_400_000;

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

async function benchOn(kind: string, handle: DatabaseHandle): Promise<void> {
  const bench = await inProcessApp(handle);
  const { app, ctx } = bench;
  const owner = await benchOwner(ctx);
  const team = { id: owner.teamId };
  const token = owner.token;
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  const boardId = nanoid();
  const board = await app.inject({ method: 'PUT', url: `/api/${team.id}/folders/${boardId}`, headers, payload: { id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', row_version: 1 } });
  if (board.statusCode !== 200) throw new Error(`board: ${board.statusCode} ${board.body}`);

  const ids = Array.from({ length: RECORDS }, () => nanoid());
  const versions = new Array<number>(RECORDS).fill(0);
  /** Saves `count` records from `from` on (round-robin over the board's records), 100 per /batch. */
  const saveRange = async (from: number, count: number) => {
    for (let at = from; at < from + count; at += BATCH) {
      const requests = [];
      for (let i = at; i < Math.min(at + BATCH, from + count); i += 1) {
        const n = i % RECORDS;
        versions[n] += 1;
        requests.push({ method: 'put', route: `items/${ids[n]}`, payload: { id: ids[n], board_id: boardId, folder_id: boardId, name: `Item ${n} v${versions[n]}`, position: n, row_version: versions[n] } });
      }
      const res = await app.inject({ method: 'POST', url: `/api/${team.id}/batch`, headers: { ...headers, 'x-idempotency-key': nanoid() }, payload: { transaction: nanoid(), requests } });
      if (res.statusCode !== 200) throw new Error(`batch failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
  };
  const changes = async (after: number) => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/${team.id}/changes?after=${after}&format=2`, headers });
    if (res.statusCode !== 200) throw new Error(`changes: ${res.statusCode}`);
    // Gzipped as the worker takes it: the time includes the server's compression, not the client's parse.
    const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
    const body = JSON.parse(text) as { cursor: number; has_more: boolean; data: unknown[] };
    return { ms: performance.now() - t0, ...body };
  };
  const horizon = async () => (await changes(Number.MAX_SAFE_INTEGER)).cursor;
  /** Every page from `after` to the head: total ms, pages, changes. */
  const catchUp = async (after: number) => {
    let cursor = after;
    let ms = 0;
    let pages = 0;
    let count = 0;
    for (;;) {
      const page = await changes(cursor);
      ms += page.ms;
      pages += 1;
      count += page.data.length;
      if (!page.has_more || page.cursor <= cursor) return { ms, pages, count, cursor: page.cursor };
      cursor = page.cursor;
    }
  };
  const sizeOfLog = async () => {
    const rows = Number((await sql<{ n: string }>`select count(*)::text as n from change_log where team_id = ${team.id}`.execute(ctx.db)).rows[0]!.n);
    const bytes = Number((await sql<{ b: string }>`select pg_total_relation_size('change_log')::text as b`.execute(ctx.db)).rows[0]!.b);
    return { rows, bytes };
  };

  const t0 = performance.now();
  await saveRange(0, RECORDS);
  console.log(`\n${kind}: ${RECORDS.toLocaleString('en')} records created in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${UPDATES.toLocaleString('en')} updates in ${CHECKPOINTS} rounds (load ${load()})`);
  console.log('updates so far   log rows   log size   compaction (longest batch, vacuum)   /changes near head   catch-up since last checkpoint   load');
  let done = 0;
  let lastCheckpoint = await horizon();
  const step = Math.ceil(UPDATES / CHECKPOINTS / BATCH) * BATCH;
  for (let round = 1; round <= CHECKPOINTS && done < UPDATES; round += 1) {
    const count = Math.min(step, UPDATES - done);
    await saveRange(RECORDS + done, count);
    done += count;
    const c0 = performance.now();
    const compacted = await compactChangeLog(ctx.db, { retentionMs: RETENTION_MS });
    const compactMs = performance.now() - c0;
    const { rows, bytes } = await sizeOfLog();
    const head = await horizon();
    // A reader one realtime ping behind (100 updates), best of three (the first warms the page).
    const near = Math.min(...(await Promise.all([0, 1, 2].map(async () => (await changes(head - 100)).ms))));
    const behind = await catchUp(lastCheckpoint);
    lastCheckpoint = head;
    console.log(
      `${done.toLocaleString('en').padStart(15)} ${rows.toLocaleString('en').padStart(10)} ${(bytes / 1048576).toFixed(1).padStart(7)} MB ${`${(compactMs / 1000).toFixed(1)} s (${compacted.longestMs.toFixed(0)} ms${compacted.vacuumMs === undefined ? '' : `, vacuum ${compacted.vacuumMs.toFixed(0)} ms`})`.padStart(32)}        ${near.toFixed(1).padStart(7)} ms        ${`${behind.ms.toFixed(0)} ms, ${behind.pages} pages, ${behind.count.toLocaleString('en')} changes`.padStart(34)}   ${load()}`,
    );
  }
  console.log(`(without compaction the log would hold ${(RECORDS + done + 1).toLocaleString('en')} rows of this team)`);
  await bench.close();
}

async function main() {
  console.log(`change log bench — ${os.cpus().length} cores, node ${process.version}, load average ${load()} (figures scale with other load on the machine)`);
  const pglite = new PGlite();
  const local = await openDatabase({ databaseUrl: null, pglite });
  await benchOn('PGlite (in memory)', local);
  await local.close();
  if (process.env.DATABASE_URL) {
    const remote = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    await benchOn('PostgreSQL (DATABASE_URL)', remote);
    await remote.close();
  } else {
    console.log('\nPostgreSQL: skipped (set DATABASE_URL to a scratch database to include it)');
  }
}

main().catch((error) => {
  console.error('bench failed to run:', error);
  process.exitCode = 0; // a benchmark never fails the run
});
