/**
 * Heavy work beside requests (issue #31, N9 of the security review): a CSV import of
 * HEAVY_ROWS × HEAVY_COLUMNS (default 100,000 × 10) into one workspace while a second user of
 * another workspace keeps using the server: GET /api/health every 200 ms, GET /api/me every 500 ms,
 * an item index load of their own 200-item board every second and one save a second.
 *
 *   npx tsx bench/heavy-jobs.ts                      PGlite (and PostgreSQL too when DATABASE_URL is set)
 *   HEAVY_ROWS=20000 npx tsx bench/heavy-jobs.ts     a quick run
 *
 * The readers run in a worker thread with their own event loop, so a blocked server loop shows up
 * as their latency (not as requests sent late). Prints the readers' floor (3 s with no import), the
 * POST's answer time, the import time and the readers' p50/p95/max during the import, beside the
 * budgets of issue #31. Then the start answer alone for a ~40 MB file (HEAVY_START_MB), as the app
 * sends it (an upload) and as the older JSON body, each job cancelled at once. Prints; never fails.
 * HEAVY_FORM=json sends the import itself as the JSON body (the form older clients use);
 * HEAVY_PGLITE=thread|both runs PGlite in a worker thread of its own (decision 0373);
 * HEAVY_DB=pglite|postgres runs one database only.
 *
 * Every budget line of issue #31 is printed beside its floor, measured in the same run: the
 * import beside writing the same records into a bare table (COPY on PostgreSQL, the floor the
 * issue names; 1,000-row statements on PGlite, which has no COPY FROM STDIN here); the readers
 * during the import beside the same readers before it; on PostgreSQL the CSV export of the
 * imported board beside reading its records, and the duplicate of a 10,000-item board
 * (HEAVY_DUPLICATE_ITEMS) beside copying its records into a bare table inside the database.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../server/db/types';
import { copyLine } from '../server/db/copy-in';
import { nanoid } from 'nanoid';
import { putBoardWithView, putRecord, seedWorkspace, startBenchServer } from './seed';

const ROWS = Number(process.env.HEAVY_ROWS ?? 100_000);
const COLUMNS = Math.max(2, Number(process.env.HEAVY_COLUMNS ?? 10));
const START_MB = Number(process.env.HEAVY_START_MB ?? 40);
const FORM = process.env.HEAVY_FORM === 'json' ? 'json' : 'upload';
const DUPLICATE_ITEMS = Number(process.env.HEAVY_DUPLICATE_ITEMS ?? 10_000);
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const KINDS = ['number', 'date', 'label', 'email', 'link', 'text', 'number', 'label', 'date'] as const;

/** POSTs an import as the app does (multipart: options, then the file) or as the JSON body; answers the job id and the ms to the answer. */
async function postImport(url: string, token: string, body: { board_id: string; folder_id: string; file_name: string; csv: string; delimiter: string; header: boolean; columns: unknown[]; rows: number }, form: 'upload' | 'json'): Promise<{ id: string; ms: number }> {
  const { csv, rows, ...options } = body;
  const t0 = performance.now();
  let res: Response;
  if (form === 'json') {
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...options, csv }) });
  } else {
    const data = new FormData();
    data.append('options', JSON.stringify({ ...options, rows }));
    data.append('file', new Blob([csv], { type: 'text/csv' }), options.file_name);
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: data });
  }
  const ms = performance.now() - t0;
  if (res.status !== 202) throw new Error(`import: ${res.status} ${await res.text()}`);
  return { id: ((await res.json()) as { data: { id: string } }).data.id, ms };
}

/** Rows padded to about `mb` megabytes (a long text column), for the start answer alone. */
function makeLargeCsv(mb: number): { csv: string; mapping: unknown[]; rows: number } {
  const pad = 'x'.repeat(300);
  const lines = ['Name,Notes'];
  let size = 11;
  let r = 0;
  while (size < mb * 1024 * 1024 && r < 100_000) {
    const line = `Item ${r},${pad} ${r}`;
    lines.push(line);
    size += line.length + 1;
    r++;
  }
  return { csv: lines.join('\n'), mapping: [{ to: 'name' }, { to: 'new', name: 'Notes', kind: 'text' }], rows: r };
}

function makeCsv(rows: number, columns: number): { csv: string; mapping: unknown[] } {
  const kinds = Array.from({ length: columns - 1 }, (_, i) => KINDS[i % KINDS.length]!);
  const header = ['Name', ...kinds.map((k, i) => `${k} ${i + 1}`)];
  const lines = [header.join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [`Item ${r + 1}`];
    for (const [i, kind] of kinds.entries()) {
      if (kind === 'number') cells.push(String((r * (i + 3)) % 9973));
      else if (kind === 'date') cells.push(`2025-${String((r % 12) + 1).padStart(2, '0')}-${String((r % 28) + 1).padStart(2, '0')}`);
      else if (kind === 'label') cells.push(['Todo', 'Doing', 'Done', 'Blocked'][(r + i) % 4]!);
      else if (kind === 'email') cells.push(`person${r}@example.com`);
      else if (kind === 'link') cells.push(`https://example.com/items/${r}`);
      else cells.push(`Note ${r} for column ${i}`);
    }
    lines.push(cells.join(','));
  }
  const mapping = [{ to: 'name' }, ...kinds.map((kind, i) => ({ to: 'new', name: header[i + 1], kind }))];
  return { csv: lines.join('\n'), mapping };
}

/** The second user, in a worker thread: four paced loops until told to stop; posts {kind: [ms…]} and errors. */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, token, teamId, boardId, itemIds } = workerData;
const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
let running = true;
let phase = 'floor';
const out = {};
const errors = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function loop(kind, every, send) {
  let n = 0;
  while (running) {
    const started = performance.now();
    const at = phase;
    try {
      const res = await send(n++);
      await res.arrayBuffer();
      if (res.status >= 400) errors.push(at + ' ' + kind + ': ' + res.status);
    } catch (e) { errors.push(at + ' ' + kind + ': ' + e.message); }
    const ms = performance.now() - started;
    ((out[at] ??= {})[kind] ??= []).push(ms);
    await sleep(Math.max(0, every - ms));
  }
}
const versions = new Map();
parentPort.on('message', (m) => { if (m === 'import') phase = 'import'; if (m === 'stop') running = false; });
Promise.all([
  loop('health', 200, () => fetch(base + '/api/health')),
  loop('me', 500, () => fetch(base + '/api/me', { headers })),
  loop('items', 1000, () => fetch(base + '/api/' + teamId + '/items?board_id=' + boardId, { headers })),
  loop('save', 1000, async (n) => {
    const id = itemIds[n % itemIds.length];
    const version = (versions.get(id) ?? 1) + 1;
    versions.set(id, version);
    return fetch(base + '/api/' + teamId + '/items/' + id, { method: 'PUT', headers, body: JSON.stringify({ id, board_id: boardId, folder_id: boardId, name: 'Saved ' + n, position: n, row_version: version }) });
  }),
]).then(() => parentPort.postMessage({ out, errors }));
`;

interface ReaderResult {
  out: Record<string, Record<string, number[]>>;
  errors: string[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

let floorRecords = 0;

function figures(values: number[] | undefined): { n: number; p50: string; p95: string; max: string } {
  const sorted = [...(values ?? [])].sort((a, b) => a - b);
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-').padStart(5);
  return { n: sorted.length, p50: f(percentile(sorted, 50)), p95: f(percentile(sorted, 95)), max: f(sorted[sorted.length - 1] ?? NaN) };
}

/**
 * The import's floor: the records the job wrote (items and values), written again into a bare
 * table (no indexes, no change log, no events) in one transaction that is rolled back. On
 * PostgreSQL by COPY (a client of its own; the issue's floor); on PGlite in 1,000-row statements.
 */
async function writeFloor(db: Kysely<Database>, databaseUrl: string | null, teamId: number, boardId: string, jobId: string): Promise<number> {
  const { rows } = await sql<{ collection: string; id: string; board_id: string; data: unknown }>`
    select collection, id, board_id, data from records where team_id = ${teamId} and board_id = ${boardId} and id like ${`${jobId}%`} and collection in ('item', 'value')`.execute(db);
  floorRecords = rows.length;
  const now = new Date().toISOString();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('create temp table bare_records (collection text, id text, team_id integer, board_id text, row_version integer, data jsonb, created_by integer, created_at timestamptz, updated_at timestamptz, deleted_at timestamptz) on commit drop');
      const t0 = performance.now();
      const text = rows.map((r) => copyLine([r.collection, r.id, teamId, r.board_id, 1, JSON.stringify(r.data), null, now, now, null])).join('');
      await pipeline(Readable.from([text]), client.query(copyFrom('copy bare_records from stdin')));
      const s = (performance.now() - t0) / 1000;
      await client.query('rollback');
      return s;
    } finally {
      await client.end();
    }
  }
  return db.transaction().execute(async (trx) => {
    await sql`create temp table bare_records (collection text, id text, team_id integer, board_id text, row_version integer, data jsonb, created_by integer, created_at timestamptz, updated_at timestamptz, deleted_at timestamptz) on commit drop`.execute(trx);
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += 1000) {
      const input = JSON.stringify(rows.slice(i, i + 1000).map((r) => ({ collection: r.collection, id: r.id, board_id: r.board_id, data: r.data })));
      await sql`insert into bare_records (collection, id, team_id, board_id, row_version, data, created_at, updated_at)
        select collection, id, ${teamId}, board_id, 1, data, ${now}, ${now} from jsonb_to_recordset(${input}::jsonb) as i(collection text, id text, board_id text, data jsonb)`.execute(trx);
    }
    return (performance.now() - t0) / 1000;
  });
}

/** Duplicate a board of DUPLICATE_ITEMS items with values (imported first), beside copying its records in the database. */
async function duplicateBench(db: Kysely<Database>, base: string, importer: { team: { id: number }; token: string }, headers: Record<string, string>, _importUrl: string): Promise<void> {
  if (DUPLICATE_ITEMS <= 0) return;
  const { boardId } = await putBoardWithView(putRecord(base, importer.team.id, importer.token));
  const { csv, mapping } = makeCsv(DUPLICATE_ITEMS, COLUMNS);
  const { id: importId } = await postImport(`${base}/api/${importer.team.id}/boards/${boardId}/imports/csv`, importer.token, { board_id: boardId, folder_id: boardId, file_name: 'source.csv', csv, delimiter: ',', header: true, columns: mapping, rows: DUPLICATE_ITEMS }, 'upload');
  const imported = await untilFinished(base, headers, importId);
  if (imported.state !== 'done') return console.log(`  duplicate: the source import ${imported.state} (${imported.error})`);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/${importer.team.id}/boards/${boardId}/duplicate`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Copy' }) });
  if (res.status !== 202) return console.log(`  duplicate: ${res.status} ${await res.text()}`);
  const jobId = ((await res.json()) as { data: { job: { id: string } } }).data.job.id;
  const job = await untilFinished(base, headers, jobId);
  const duplicateS = (performance.now() - t0) / 1000;
  const floor = await db.transaction().execute(async (trx) => {
    const t1 = performance.now();
    const copied = await sql<{ n: string }>`with c as (select * from records where team_id = ${importer.team.id} and board_id = ${boardId}) select count(*) as n from c`.execute(trx);
    await sql`create temp table bare_copy on commit drop as select * from records where team_id = ${importer.team.id} and board_id = ${boardId}`.execute(trx);
    return { s: (performance.now() - t1) / 1000, n: copied.rows[0]?.n };
  });
  console.log(`  duplicate a board of ${DUPLICATE_ITEMS} items × ${COLUMNS - 1} values: ${job.state} in ${duplicateS.toFixed(1)} s (budget ≤ 5 s); floor ${floor.s.toFixed(2)} s (copying its ${floor.n} records into a bare table in the database); ${load()}`);
}

async function untilFinished(base: string, headers: Record<string, string>, id: string): Promise<{ state: string; error: string | null }> {
  for (;;) {
    const job = ((await (await fetch(`${base}/api/me/board-jobs/${id}`, { headers })).json()) as { data: { state: string; error: string | null } }).data;
    if (['done', 'failed', 'cancelled'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function benchOn(databaseUrl: string | null, pgliteThread = false): Promise<void> {
  const { handle, ctx, app, base } = await startBenchServer({ databaseUrl, pgliteThread });
  await ctx.jobs.prepare();
  ctx.jobs.start();
  try {
    // The importer's workspace and board.
    const importer = await seedWorkspace(ctx, { emailPrefix: 'importer' });
    const { boardId } = await putBoardWithView(putRecord(base, importer.team.id, importer.token));
    // The other user's workspace, with a board of 200 items to load and save into.
    const reader = await seedWorkspace(ctx, { emailPrefix: 'reader' });
    const put = putRecord(base, reader.team.id, reader.token);
    const { boardId: readerBoard } = await putBoardWithView(put);
    const itemIds: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = nanoid();
      itemIds.push(id);
      await put('items', { id, board_id: readerBoard, folder_id: readerBoard, name: `Item ${i}`, position: i, row_version: 1 });
    }

    const { csv, mapping } = makeCsv(ROWS, COLUMNS);
    console.log(`\n${handle.kind}${handle.kind === 'pglite' ? (pgliteThread ? ' (in its own thread)' : ' (on the server thread)') : ''}: import of ${ROWS} × ${COLUMNS} (${(csv.length / 1024 / 1024).toFixed(1)} MB) beside a second user; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);

    const worker = new Worker(READER, { eval: true, workerData: { base, token: reader.token, teamId: reader.team.id, boardId: readerBoard, itemIds: itemIds.slice(0, 20) } });
    const done = new Promise<ReaderResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 5000));
    worker.postMessage('import');

    const headers = { authorization: `Bearer ${importer.token}` };
    const importUrl = `${base}/api/${importer.team.id}/boards/${boardId}/imports/csv`;
    const t0 = performance.now();
    const { id: jobId, ms: answered } = await postImport(importUrl, importer.token, { board_id: boardId, folder_id: boardId, file_name: 'heavy.csv', csv, delimiter: ',', header: true, columns: mapping, rows: ROWS }, FORM);
    let job = { state: 'queued', done: 0, total: ROWS, error: null as string | null };
    while (!['done', 'failed', 'cancelled'].includes(job.state)) {
      await new Promise((r) => setTimeout(r, 250));
      job = ((await (await fetch(`${base}/api/me/board-jobs/${jobId}`, { headers })).json()) as { data: typeof job }).data;
    }
    const importS = (performance.now() - t0) / 1000;
    worker.postMessage('stop');
    const result = await done;
    await worker.terminate();

    const budgetS = handle.kind === 'postgres' ? 10 : 30;
    const pgKind = handle.kind === 'postgres';
    const floorS = await writeFloor(handle.db, databaseUrl, importer.team.id, boardId, jobId);
    console.log(`  POST (${FORM}) answered 202 in ${answered.toFixed(0)} ms (budget ≤ 300 ms; ${load()})`);
    console.log(`  import ${job.state}${job.error ? ` (${job.error})` : ''} ${job.done}/${job.total} in ${importS.toFixed(1)} s (budget ≤ ${budgetS} s at 100,000 × 10), ${(ROWS / importS).toFixed(0)} rows/s; floor ${floorS.toFixed(1)} s (${pgKind ? 'COPY' : '1,000-row inserts'} of the same ${floorRecords} records into a bare table), ${(importS / floorS).toFixed(1)}× the floor`);
    const readsBudget = pgKind ? 50 : 150;
    const budgets: Record<string, string> = { health: 'p95 ≤ 50', me: `p95 ≤ ${readsBudget}${pgKind ? '' : ', max ≤ 1000'}`, items: `p95 ≤ ${readsBudget}${pgKind ? '' : ', max ≤ 1000'}`, save: `p95 ≤ ${readsBudget}${pgKind ? '' : ', max ≤ 1000'}` };
    for (const kind of ['health', 'me', 'items', 'save']) {
      const during = figures(result.out.import?.[kind]);
      const before = figures(result.out.floor?.[kind]);
      console.log(`  during  ${kind.padEnd(7)} n=${String(during.n).padStart(4)}  p50 ${during.p50} p95 ${during.p95} max ${during.max} ms   floor (no import) p50 ${before.p50} p95 ${before.p95} max ${before.max} ms   budget ${budgets[kind]} ms`);
    }
    const during = Object.values(result.out.import ?? {}).flat().sort((a, b) => a - b);
    const health = [...(result.out.import?.health ?? [])].sort((a, b) => a - b);
    console.log(`  readers during the import: p95 ${percentile(during, 95).toFixed(0)} ms (budget ≤ ${readsBudget}), max ${(during[during.length - 1] ?? NaN).toFixed(0)} ms${pgKind ? '' : ' (budget ≤ 1000)'}; /api/health p95 ${percentile(health, 95).toFixed(0)} ms (budget ≤ 50)`);
    console.log(`  reader errors: ${result.errors.length}${result.errors.length ? ` (${result.errors.slice(0, 5).join('; ')})` : ''}; ${load()} at the end`);

    if (pgKind && job.state === 'done') {
      // CSV export of the imported board (its root folder as its default table shows it).
      const t1 = performance.now();
      const exported = await fetch(`${base}/api/${importer.team.id}/boards/${boardId}/exports/csv?folder_id=${boardId}`, { headers });
      const text = await exported.text();
      const exportS = (performance.now() - t1) / 1000;
      const t2 = performance.now();
      const read = await sql<{ n: string }>`select count(*) as n from (select id, data from records where team_id = ${importer.team.id} and board_id = ${boardId} and collection in ('item', 'value') and deleted_at is null) r`.execute(handle.db);
      const readS = (performance.now() - t2) / 1000;
      console.log(`  CSV export of ${ROWS} × ${COLUMNS}: ${exported.status}, ${(text.length / 1024 / 1024).toFixed(1)} MB in ${exportS.toFixed(2)} s (budget ≤ 2 s); floor ${readS.toFixed(2)} s (reading its ${read.rows[0]?.n} records in the database); ${load()}`);
      await duplicateBench(handle.db, base, importer, headers, importUrl);
    }

    // The start answer alone for a large file, in both forms; each job is cancelled at once.
    if (START_MB > 0) {
      const large = makeLargeCsv(START_MB);
      for (const form of ['upload', 'json'] as const) {
        const started = await postImport(importUrl, importer.token, { board_id: boardId, folder_id: boardId, file_name: `large-${form}.csv`, csv: large.csv, delimiter: ',', header: true, columns: large.mapping.map((c, i) => (i === 1 ? { ...(c as object), name: `Notes ${form}` } : c)), rows: large.rows }, form);
        console.log(`  start of a ${(large.csv.length / 1024 / 1024).toFixed(1)} MB file (${large.rows} rows) as ${form}: 202 in ${started.ms.toFixed(0)} ms (budget ≤ 300 ms; ${load()})`);
        await fetch(`${base}/api/me/board-jobs/${started.id}/cancel`, { method: 'POST', headers });
      }
    }
  } finally {
    await ctx.jobs.stop();
    await app.close();
    await handle.close();
  }
}

/** HEAVY_PGLITE: `inline` (PGlite on the server's thread, the default of npm start), `thread` (its own thread) or `both`. */
const PGLITE_MODES = process.env.HEAVY_PGLITE === 'both' ? [false, true] : process.env.HEAVY_PGLITE === 'thread' ? [true] : [false];

async function main() {
  const only = process.env.HEAVY_DB; // 'pglite' or 'postgres': one database only
  if (only !== 'postgres') for (const thread of PGLITE_MODES) await benchOn(null, thread);
  if (process.env.DATABASE_URL && only !== 'pglite') await benchOn(process.env.DATABASE_URL);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
