/**
 * CSV import and export (issue #16, decisions 0160 and 0161), end to end against a real server:
 *
 *   npx tsx bench/csv.ts [rows=100000] [columns=10]
 *
 * Import: a CSV of `rows` × `columns` (a name, numbers, dates, labels, emails, links, text) posted
 * to POST /imports/csv with its mapping; timed until the job is done (parsing, attributes, every
 * batch of items and values with their change log and domain events). Export: the imported board's
 * view as CSV through GET /exports/csv, timed to the last byte. Budgets: import of 100,000 rows ×
 * 10 columns ≤ 60 s, export of a 100,000-item board ≤ 10 s. PGlite by default; PostgreSQL when
 * DATABASE_URL names a scratch database. Prints figures beside the budgets; never fails.
 */
import os from 'node:os';
import { putBoardWithView, putRecord, seedWorkspace, startBenchServer } from './seed';

const ROWS = Number(process.argv[2] ?? 100_000);
const COLUMNS = Math.max(2, Number(process.argv[3] ?? 10));
const IMPORT_BUDGET_S = 60;
const EXPORT_BUDGET_S = 10;

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

async function main() {
  const { handle, ctx, app, base } = await startBenchServer({ databaseUrl: process.env.DATABASE_URL ?? null });
  await ctx.jobs.prepare();
  ctx.jobs.start();

  const { team, token } = await seedWorkspace(ctx);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const put = putRecord(base, team.id, token);
  const { boardId, viewId } = await putBoardWithView(put);

  const { csv, mapping } = makeCsv(ROWS, COLUMNS);
  console.log(`CSV import/export bench on ${handle.kind}: ${ROWS} rows × ${COLUMNS} columns, ${(csv.length / 1024 / 1024).toFixed(1)} MB; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const t0 = performance.now();
  const started = await fetch(`${base}/api/${team.id}/boards/${boardId}/imports/csv`, { method: 'POST', headers, body: JSON.stringify({ board_id: boardId, folder_id: boardId, file_name: 'bench.csv', csv, delimiter: ',', header: true, columns: mapping }) });
  if (started.status !== 202) throw new Error(`import: ${started.status} ${await started.text()}`);
  const jobId = ((await started.json()) as { data: { id: string } }).data.id;
  const accepted = performance.now();
  let job: { state: string; done: number; total: number; error: string | null; error_count: number } = { state: 'queued', done: 0, total: ROWS, error: null, error_count: 0 };
  let lastPrint = 0;
  while (!['done', 'failed', 'cancelled'].includes(job.state)) {
    await new Promise((r) => setTimeout(r, 250));
    const res = await fetch(`${base}/api/me/board-jobs/${jobId}`, { headers });
    job = ((await res.json()) as { data: typeof job }).data;
    if (performance.now() - lastPrint > 5000) {
      lastPrint = performance.now();
      console.log(`  … ${job.state} ${job.done}/${job.total} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  const importS = (performance.now() - t0) / 1000;
  const row = await ctx.db.selectFrom('board_jobs').select(['created_at', 'finished_at']).where('id', '=', jobId).executeTakeFirstOrThrow();
  console.log(`  the job itself (created → finished, server clock): ${((new Date(row.finished_at!).getTime() - new Date(row.created_at).getTime()) / 1000).toFixed(1)} s`);
  console.log(`import: ${job.state}${job.error ? ` (${job.error})` : ''}, ${job.done}/${job.total} rows, ${job.error_count} problems; request ${((accepted - t0) / 1000).toFixed(2)} s, total ${importS.toFixed(1)} s (budget ≤ ${IMPORT_BUDGET_S} s) → ${importS <= IMPORT_BUDGET_S ? 'within' : 'OVER'} budget; ${(ROWS / importS).toFixed(0)} rows/s, ${((ROWS * COLUMNS) / importS).toFixed(0)} records/s`);

  const t1 = performance.now();
  const exported = await fetch(`${base}/api/${team.id}/boards/${boardId}/exports/csv?view_id=${viewId}`, { headers });
  const text = await exported.text();
  const exportS = (performance.now() - t1) / 1000;
  const lines = text.split('\r\n').filter(Boolean).length - 1;
  console.log(`export: ${exported.status}, ${lines} rows, ${(text.length / 1024 / 1024).toFixed(1)} MB in ${exportS.toFixed(1)} s (budget ≤ ${EXPORT_BUDGET_S} s) → ${exportS <= EXPORT_BUDGET_S ? 'within' : 'OVER'} budget`);

  await ctx.jobs.stop();
  await app.close();
  await handle.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
