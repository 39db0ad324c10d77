/**
 * Value edit → visible in the same tab, in Debian's Chromium (decision 0100):
 *
 *   npx tsx bench/edit-visible.ts [items=10000] [edits=100]
 *
 * The engine runs in a dedicated worker reached over Comlink (as the app's SharedWorker); the page
 * reads the replica with Dexie liveQuery, as the board's hooks do. One `apply('setValues')` per
 * edit, on a board of `items` items each with a value. Reports p50/p95 beside an idle frame and a
 * bare strict put in the same worker (the floor), for a query of the one value and for a query
 * of the whole column (what a sort or filter reads). Budget: p95 ≤ 16 ms. Prints; never fails.
 */
import http from 'node:http';
import { build } from 'esbuild';
import { launchBrowser } from '../e2e/helpers';

const ITEMS = Number(process.argv[2] ?? 10_000);
const EDITS = Number(process.argv[3] ?? 100);
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(58)} ${value.padStart(26)}   ${note}`);
const show = (f: { p50: number; p95: number; max: number }) => `${f.p50.toFixed(2)} / ${f.p95.toFixed(2)} / ${f.max.toFixed(1)} ms`;

async function main() {
  const bundle = async (entry: string) =>
    (await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'silent' })).outputFiles[0]!.text;
  const page = await bundle('bench/edit-visible-entry.ts');
  const worker = await bundle('bench/edit-visible-worker.ts');
  const server = http.createServer((req, res) => {
    if (req.url === '/bench.js' || req.url === '/worker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(req.url === '/bench.js' ? page : worker);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const browser = await launchBrowser();
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(() => 'editBench' in window);
    console.log(`value edit → visible in the same tab: ${ITEMS} items with a value each, ${EDITS} edits (p50 / p95 / max)\n`);
    const r = await tab.evaluate(([items, edits]) => (window as any).editBench.run(items, edits), [ITEMS, EDITS] as const);
    line('idle frame (requestAnimationFrame)', show(r.frame));
    line('floor: bare strict put in the worker → liveQuery of the value', show(r.raw));
    line('apply(setValues) over Comlink → liveQuery of the value', show(r.apply), r.apply.p95 <= 16 ? 'within budget (p95 ≤ 16 ms)' : 'OVER budget (p95 ≤ 16 ms)');
    line('apply(setValues) over Comlink → liveQuery of the column', show(r.column), r.column.p95 <= 16 ? 'within budget (p95 ≤ 16 ms)' : 'OVER budget (p95 ≤ 16 ms)');
  } catch (error) {
    console.log(`bench stopped early: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

void main().then(() => process.exit(0));
