/**
 * Server saves: PUT /api/{teamId}/items/{id} through the real app (Fastify inject, auth, the
 * permission model, row_version check, change log, idempotency key) on PGlite, and on PostgreSQL
 * when DATABASE_URL is set (use a scratch database: the bench adds a user, a team and records).
 *
 *   npx tsx bench/server-saves.ts [saves=2000] [concurrency=8]
 *
 * Reports saves/s and per-save latency p50/p99 for creates and for updates, sequential and
 * concurrent, beside the floor of the same row writes done directly through Kysely in one
 * transaction each. Budget (DESIGN.md §8): ≥ 2,000 saves/s, p99 ≤ 25 ms. Prints; never fails.
 */
import os from 'node:os';
import { nanoid } from 'nanoid';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../server/db/index';
import { benchOwner, inProcessApp } from './in-process-app';

const SAVES = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const BUDGET = { perSecond: 2000, p99Ms: 25 };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

interface Figures {
  label: string;
  count: number;
  seconds: number;
  latencies: number[];
}

function report(f: Figures): void {
  const sorted = [...f.latencies].sort((a, b) => a - b);
  const perSecond = f.count / f.seconds;
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const verdict = perSecond >= BUDGET.perSecond && p99 <= BUDGET.p99Ms ? 'within budget' : 'OVER budget';
  console.log(
    `${f.label.padEnd(44)} ${perSecond.toFixed(0).padStart(6)} saves/s   p50 ${p50.toFixed(2).padStart(6)} ms   p99 ${p99.toFixed(2).padStart(6)} ms   (${verdict})`,
  );
}

/** Runs `count` tasks with at most `concurrency` in flight, timing each. */
async function run(label: string, count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { label, count, seconds: (performance.now() - started) / 1000, latencies };
}

async function benchOn(kind: string, handle: DatabaseHandle): Promise<void> {
  const bench = await inProcessApp(handle);
  const { app, ctx } = bench;
  const owner = await benchOwner(ctx);
  const user = { id: owner.userId };
  const team = { id: owner.teamId };
  const token = owner.token;
  const headers = { authorization: `Bearer ${token}` };
  const boardId = nanoid();
  const put = async (route: string, body: Record<string, unknown>, key?: string) => {
    const res = await app.inject({ method: 'PUT', url: `/api/${team.id}/${route}/${body.id}`, headers: key ? { ...headers, 'x-idempotency-key': key } : headers, payload: body });
    if (res.statusCode !== 200) throw new Error(`save failed: ${res.statusCode} ${res.body}`);
  };
  await put('folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', row_version: 1 });

  const item = (id: string, version: number) => ({ id, board_id: boardId, folder_id: boardId, name: `Item ${id}`, position: 1, row_version: version });
  // Warm-up (JIT, prepared plans).
  for (let i = 0; i < 100; i++) await put('items', item(nanoid(), 1));

  console.log(`\n${kind}: ${SAVES} saves per run, concurrency ${CONCURRENCY} where stated`);
  const ids = Array.from({ length: SAVES }, () => nanoid());
  report(await run('create, sequential', SAVES, 1, (i) => put('items', item(ids[i]!, 1), nanoid())));
  report(await run(`update, ${CONCURRENCY} in flight`, SAVES, CONCURRENCY, (i) => put('items', item(ids[i]!, 2), nanoid())));
  const more = Array.from({ length: SAVES }, () => nanoid());
  report(await run(`create, ${CONCURRENCY} in flight`, SAVES, CONCURRENCY, (i) => put('items', item(more[i]!, 1), nanoid())));

  // The worker flushes its queue as batches: 100 saves per POST /batch (one transaction).
  const BATCH = 100;
  const batchIds = Array.from({ length: SAVES }, () => nanoid());
  const batches = Math.ceil(SAVES / BATCH);
  const batchRun = await run(`create via /batch of ${BATCH} (per batch)`, batches, 1, async (b) => {
    const requests = batchIds.slice(b * BATCH, (b + 1) * BATCH).map((id) => ({ method: 'put', route: `items/${id}`, payload: item(id, 1) }));
    const res = await app.inject({ method: 'POST', url: `/api/${team.id}/batch`, headers: { ...headers, 'x-idempotency-key': nanoid() }, payload: { transaction: nanoid(), requests } });
    if (res.statusCode !== 200) throw new Error(`batch failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  });
  report({ label: `create via /batch of ${BATCH} (saves)`, count: SAVES, seconds: batchRun.seconds, latencies: batchRun.latencies.map((ms) => ms / BATCH) });
  console.log(`  (latency above is per save = batch time / ${BATCH}; a whole batch took p50 ${percentile([...batchRun.latencies].sort((a, b) => a - b), 50).toFixed(1)} ms)`);

  // Floor: the same row writes (record + change log) without HTTP, auth or rules.
  const floorIds = Array.from({ length: SAVES }, () => nanoid());
  report(
    await run('floor: direct insert record + change_log', SAVES, 1, async (i) => {
      await ctx.db.transaction().execute(async (trx) => {
        const rec = item(floorIds[i]!, 1);
        await trx.insertInto('records').values({ collection: 'item', id: rec.id, team_id: team.id, board_id: boardId, row_version: 1, data: JSON.stringify(rec), created_by: user.id, created_at: new Date(), updated_at: new Date() }).execute();
        await trx.insertInto('change_log').values({ team_id: team.id, board_id: boardId, collection: 'item', record_id: rec.id, op: 'saved', at: new Date() }).execute();
      });
    }),
  );
  console.log(`budget: ≥ ${BUDGET.perSecond} saves/s, p99 ≤ ${BUDGET.p99Ms} ms (DESIGN.md §8)`);
  await bench.close();
}

async function main() {
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`server saves bench — ${os.cpus().length} cores, node ${process.version}, load average ${load} (figures scale with other load on the machine)`);
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
