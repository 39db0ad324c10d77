/**
 * Board jobs of decisions 0225 and 0226, end to end against a real server:
 *
 *   npx tsx bench/pdf.ts [items=1000] [duplicateItems=2000]
 *
 * PDF: a board of `items` items × 8 columns (names in Latin, Cyrillic, Arabic, Chinese and Korean,
 * numbers, dates, labels, emails, links, text) seeded through the CSV import; its view exported as
 * PDF (POST /exports/pdf, the job drawn to its end, the file downloaded), timed. Budget: a
 * 1,000-item view ≤ 15 s. Duplicate: a board of `duplicateItems` items × 8 columns duplicated with
 * items and values (POST /duplicate until the job is done), timed. PGlite by default; PostgreSQL
 * when DATABASE_URL names a scratch database. Prints figures with the machine's load; never fails.
 */
import os from 'node:os';
import { nanoid } from 'nanoid';
import { putBoardWithView, putRecord, seedWorkspace, startBenchServer } from './seed';

const ITEMS = Number(process.argv[2] ?? 1000);
const DUPLICATE_ITEMS = Number(process.argv[3] ?? 2000);
const PDF_BUDGET_S = 15;
const NAMES = ['Write the launch brief', 'مراجعة الخطة مع الفريق', '准备发布会材料', '출시 일정 확인', 'Ђорђе – ćčšž łódź ğış', 'Prüfung der Änderungen'];
const KINDS = ['number', 'date', 'label', 'email', 'link', 'text', 'number'] as const;

function makeCsv(rows: number): { csv: string; mapping: unknown[] } {
  const header = ['Name', ...KINDS.map((k, i) => `${k} ${i + 1}`)];
  const lines = [header.join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [`${NAMES[r % NAMES.length]} ${r + 1}`];
    for (const [i, kind] of KINDS.entries()) {
      if (kind === 'number') cells.push(String((r * (i + 3)) % 9973));
      else if (kind === 'date') cells.push(`2025-${String((r % 12) + 1).padStart(2, '0')}-${String((r % 28) + 1).padStart(2, '0')}`);
      else if (kind === 'label') cells.push(['Todo', 'Doing', 'Done', 'مكتمل'][(r + i) % 4]!);
      else if (kind === 'email') cells.push(`person${r}@example.com`);
      else if (kind === 'link') cells.push(`https://example.com/items/${r}`);
      else cells.push(`Note ${r}: 中文 한국어 عربي`);
    }
    lines.push(cells.join(','));
  }
  return { csv: lines.join('\n'), mapping: [{ to: 'name' }, ...KINDS.map((kind, i) => ({ to: 'new', name: header[i + 1], kind }))] };
}

async function main() {
  const { handle, ctx, app, base } = await startBenchServer({ databaseUrl: process.env.DATABASE_URL ?? null });
  await ctx.jobs.prepare();
  ctx.jobs.start();

  const { team, token } = await seedWorkspace(ctx);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const put = putRecord(base, team.id, token);
  const { boardId, viewId } = await putBoardWithView(put);

  type Job = { state: string; done: number; total: number; error: string | null; result: Record<string, unknown> | null };
  const until = async (jobId: string): Promise<Job> => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const job = ((await (await fetch(`${base}/api/me/board-jobs/${jobId}`, { headers })).json()) as { data: Job }).data;
      if (['done', 'failed', 'cancelled'].includes(job.state)) return job;
    }
  };
  const seed = async (rows: number, name: string) => {
    const id = nanoid();
    const view = nanoid();
    await put('folders', { id, board_id: id, parent_id: null, name, row_version: 1 });
    await put('folder-views', { id: view, board_id: id, folder_id: id, name: 'All', kind: 'table', row_version: 1, settings: {} });
    const { csv, mapping } = makeCsv(rows);
    const res = await fetch(`${base}/api/${team.id}/boards/${id}/imports/csv`, { method: 'POST', headers, body: JSON.stringify({ board_id: id, folder_id: id, file_name: 'seed.csv', csv, delimiter: ',', header: true, columns: mapping }) });
    if (res.status !== 202) throw new Error(`seed: ${res.status} ${await res.text()}`);
    const job = await until(((await res.json()) as { data: { id: string } }).data.id);
    if (job.state !== 'done') throw new Error(`seed: ${job.state} ${job.error}`);
    return { id, view };
  };
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

  if (ITEMS > 0) {
    const board = await seed(ITEMS, 'PDF bench');
    console.log(`PDF bench on ${handle.kind}: ${ITEMS} items × ${KINDS.length + 1} columns; load average ${load()}`);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/${team.id}/boards/${board.id}/exports/pdf`, { method: 'POST', headers, body: JSON.stringify({ view_id: board.view }) });
    if (res.status !== 202) throw new Error(`pdf: ${res.status} ${await res.text()}`);
    const jobId = ((await res.json()) as { data: { id: string } }).data.id;
    const job = await until(jobId);
    const file = await fetch(`${base}/api/me/board-jobs/${jobId}/file`, { headers });
    const bytes = Buffer.from(await file.arrayBuffer());
    const s = (performance.now() - t0) / 1000;
    const pages = (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
    console.log(`pdf: ${job.state}${job.error ? ` (${job.error})` : ''}, ${job.done}/${job.total} items, ${pages} pages, ${(bytes.length / 1024).toFixed(0)} kB in ${s.toFixed(1)} s (budget ≤ ${PDF_BUDGET_S} s) → ${s <= PDF_BUDGET_S ? 'within' : 'OVER'} budget; load average after ${load()}`);
  }

  if (DUPLICATE_ITEMS > 0) {
    const board = await seed(DUPLICATE_ITEMS, 'Duplicate bench');
    console.log(`Duplicate bench on ${handle.kind}: ${DUPLICATE_ITEMS} items × ${KINDS.length + 1} columns with values; load average ${load()}`);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/${team.id}/boards/${board.id}/duplicate`, { method: 'POST', headers, body: JSON.stringify({ name: 'Copy' }) });
    if (res.status !== 202) throw new Error(`duplicate: ${res.status} ${await res.text()}`);
    const job = await until(((await res.json()) as { data: { job: { id: string } } }).data.job.id);
    const s = (performance.now() - t0) / 1000;
    console.log(`duplicate: ${job.state}${job.error ? ` (${job.error})` : ''}, ${job.done}/${job.total} items in ${s.toFixed(1)} s (${(DUPLICATE_ITEMS / s).toFixed(0)} items/s); load average after ${load()}`);
  }

  await ctx.jobs.stop();
  await app.close();
  await handle.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
