/**
 * The sync engine's IndexedDB figures in Debian's Chromium (the Node bench uses fake-indexeddb):
 *
 *   npx tsx bench/sync-chromium.ts [bootstrap=50000] [edits=200] [rounds=3]
 *
 * Bundles bench/sync-chromium-entry.ts with esbuild, serves it from a throwaway local page (an
 * origin with IndexedDB) and reports, each beside raw Dexie in the same page:
 * - bootstrap: engine replaceIndex and the streaming writer of a cold open (stream.ts) vs raw
 *   bulkPut of the same records (a board's items and values, 1 item : 4 values, as a 10k × 5
 *   board), records/s (budgets ≥ 20,000/s; the streaming open ≥ 30,000/s, issue #10);
 * - local edit → visible to a liveQuery in the same page: engine.save vs raw put, p50/p95
 *   (budget p95 ≤ 16 ms). Prints; never fails.
 * The bootstrap lines run `rounds` times, each round every writer in turn, and print the median of
 * each: on a shared machine a load that comes and goes then hits the floor and the writers alike.
 */
import http from 'node:http';
import { build } from 'esbuild';
import { launchBrowser } from '../e2e/helpers';

const BOOTSTRAP = Number(process.argv[2] ?? 50_000);
const EDITS = Number(process.argv[3] ?? 200);
const ROUNDS = Math.max(1, Number(process.argv[4] ?? 3));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(52)} ${value.padStart(18)}   ${note}`);

async function main() {
  const bundle = await build({ entryPoints: ['bench/sync-chromium-entry.ts'], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'silent' });
  const js = bundle.outputFiles[0]!.text;
  const server = http.createServer((req, res) => {
    if (req.url === '/bench.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(js);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => 'cairnBench' in window);
    console.log(`sync engine in Chromium: ${BOOTSTRAP} bootstrap rows, ${EDITS} edits\n`);
    const rounds: Record<string, number>[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await page.evaluate((n) => (window as any).cairnBench.bootstrap(n), BOOTSTRAP));
    const boot = Object.fromEntries(Object.keys(rounds[0]!).map((k) => [k, median(rounds.map((x) => x[k]!))])) as Record<string, number>;
    console.log(`bootstrap: median of ${ROUNDS} rounds; streaming open per round: ${rounds.map((x) => `${x.streamPerSecond!.toFixed(0)} (floor ${x.rawPerSecond!.toFixed(0)})`).join(', ')} rec/s`);
    line('bootstrap: raw Dexie bulkPut (floor)', `${boot.rawPerSecond!.toFixed(0)} rec/s`, 'the same records, one transaction');
    line('bootstrap: raw bulkPut, previous schema version', `${boot.previousPerSecond!.toFixed(0)} rec/s`, 'what the last index change bought');
    line('bootstrap: raw bulkPut, key + board index only', `${boot.barePerSecond!.toFixed(0)} rec/s`, 'what the other indexes cost');
    line('bootstrap: engine replaceIndex (one transaction)', `${boot.enginePerSecond!.toFixed(0)} rec/s`, boot.enginePerSecond! >= 20_000 ? 'within budget (≥ 20000/s)' : 'OVER budget (≥ 20000/s)');
    line('bootstrap: streaming open (stream.ts batches)', `${boot.streamPerSecond!.toFixed(0)} rec/s`, `${boot.streamPerSecond! >= 30_000 ? 'within' : 'OVER'} budget (≥ 30000/s, issue #10); ${((100 * boot.streamPerSecond!) / boot.rawPerSecond!).toFixed(0)} % of raw bulkPut`);
    line('  the same, every record compared first', `${boot.streamComparedPerSecond!.toFixed(0)} rec/s`, `a refresh of a board held; ${((100 * boot.streamComparedPerSecond!) / boot.rawPerSecond!).toFixed(0)} % of raw bulkPut`);
    const edit = await page.evaluate((n) => (window as any).cairnBench.edits(n), EDITS);
    line('edit → liveQuery: raw Dexie put p50 / p95 (floor)', `${edit.raw.p50.toFixed(2)} / ${edit.raw.p95.toFixed(2)} ms`);
    line('edit → liveQuery: engine.save p50 / p95', `${edit.engine.p50.toFixed(2)} / ${edit.engine.p95.toFixed(2)} ms`, edit.engine.p95 <= 16 ? 'within budget (p95 ≤ 16 ms)' : 'OVER budget (p95 ≤ 16 ms)');
  } catch (error) {
    console.log(`bench stopped early: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

void main().then(() => process.exit(0));
