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
 * budgets of issue #31. Prints; never fails.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { nanoid } from 'nanoid';
import { putBoardWithView, putRecord, seedWorkspace, startBenchServer } from './seed';

const ROWS = Number(process.env.HEAVY_ROWS ?? 100_000);
const COLUMNS = Math.max(2, Number(process.env.HEAVY_COLUMNS ?? 10));
const KINDS = ['number', 'date', 'label', 'email', 'link', 'text', 'number', 'label', 'date'] as const;

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

function printReaders(label: string, figures: Record<string, number[]> | undefined): void {
  for (const kind of ['health', 'me', 'items', 'save']) {
    const sorted = [...(figures?.[kind] ?? [])].sort((a, b) => a - b);
    const f = (p: number) => percentile(sorted, p).toFixed(0).padStart(6);
    console.log(`  ${label.padEnd(7)} ${kind.padEnd(7)} n=${String(sorted.length).padStart(4)}  p50 ${f(50)} ms  p95 ${f(95)} ms  max ${sorted.length ? sorted[sorted.length - 1]!.toFixed(0).padStart(6) : '     -'} ms`);
  }
}

async function benchOn(databaseUrl: string | null): Promise<void> {
  const { handle, ctx, app, base } = await startBenchServer({ databaseUrl });
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
    console.log(`\n${handle.kind}: import of ${ROWS} × ${COLUMNS} (${(csv.length / 1024 / 1024).toFixed(1)} MB) beside a second user; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);

    const worker = new Worker(READER, { eval: true, workerData: { base, token: reader.token, teamId: reader.team.id, boardId: readerBoard, itemIds: itemIds.slice(0, 20) } });
    const done = new Promise<ReaderResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 3000));
    worker.postMessage('import');

    const headers = { authorization: `Bearer ${importer.token}`, 'content-type': 'application/json' };
    const t0 = performance.now();
    const started = await fetch(`${base}/api/${importer.team.id}/boards/${boardId}/imports/csv`, { method: 'POST', headers, body: JSON.stringify({ board_id: boardId, folder_id: boardId, file_name: 'heavy.csv', csv, delimiter: ',', header: true, columns: mapping }) });
    const answered = performance.now() - t0;
    if (started.status !== 202) throw new Error(`import: ${started.status} ${await started.text()}`);
    const jobId = ((await started.json()) as { data: { id: string } }).data.id;
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
    console.log(`  POST answered 202 in ${answered.toFixed(0)} ms (budget ≤ 300 ms)`);
    console.log(`  import ${job.state}${job.error ? ` (${job.error})` : ''} ${job.done}/${job.total} in ${importS.toFixed(1)} s (budget ≤ ${budgetS} s at 100,000 × 10), ${(ROWS / importS).toFixed(0)} rows/s`);
    printReaders('floor', result.out.floor);
    printReaders('import', result.out.import);
    const during = Object.values(result.out.import ?? {}).flat().sort((a, b) => a - b);
    const health = [...(result.out.import?.health ?? [])].sort((a, b) => a - b);
    const readsBudget = handle.kind === 'postgres' ? 50 : 150;
    console.log(`  readers during the import: p95 ${percentile(during, 95).toFixed(0)} ms (budget ≤ ${readsBudget}), max ${(during[during.length - 1] ?? NaN).toFixed(0)} ms${handle.kind === 'pglite' ? ' (budget ≤ 1000)' : ''}; /api/health p95 ${percentile(health, 95).toFixed(0)} ms (budget ≤ 50)`);
    console.log(`  reader errors: ${result.errors.length}${result.errors.length ? ` (${result.errors.slice(0, 5).join('; ')})` : ''}`);
  } finally {
    await ctx.jobs.stop();
    await app.close();
    await handle.close();
  }
}

async function main() {
  await benchOn(null);
  if (process.env.DATABASE_URL) await benchOn(process.env.DATABASE_URL);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
