/**
 * Where the time of a board open goes, as a user meets it (issue #33 part 0), in Chromium against
 * the real server and the built app:
 *
 *   WEB_DIR=/tmp/dist npx tsx bench/board-trace.ts [items=10000] [attributes=5] [mixed|numbers] [--pg]
 *
 * Seeds a board like bench/board-stream.ts (BENCH_DATA_DIR reuses it), starts the server with its
 * request log on, signs in, then for (1) the board's address opened cold (full navigation, the
 * board never on this device) and (2) a reload of the tab on /home, the sidebar's link, then a
 * click on it, prints a timeline in the page's clock (ms from the navigation's start): every API
 * call the page or the SharedWorker made (when the server got it and how long it answered in),
 * the moments the page saw (DOM content loaded, the sidebar's link, the first table row), and the
 * gaps the browser spent between them. BENCH_PROFILE=<dir> also writes CPU profiles of the page
 * over each open and of the SharedWorker over the cold open (.cpuprofile, open in DevTools).
 * Prints; never fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchBrowser, startServer } from '../e2e/helpers';
import { benchDatabase, FIRST_ROW_SCRIPT, loadAverage, positional } from './board-bench';
import { seedBoardsSql, type BoardShape, type SeededBoard } from './seed-sql';

const ARGS = positional();
const ITEMS = Number(ARGS[0] ?? 10_000);
const ATTRIBUTES = Number(ARGS[1] ?? 5);
const SHAPE: BoardShape = ARGS[2] === 'numbers' ? 'numbers' : 'mixed';
const EMAIL = 'demo@cairn.local';
const PASSWORD = 'demo-password';

/** The moments the page marks: its init script (FIRST_ROW_SCRIPT) plus the sidebar's link. */
const MOMENTS_SCRIPT = `(() => {
  window.__moments = {};
  const seen = (name) => { if (!(name in window.__moments)) window.__moments[name] = performance.now(); };
  const observer = new MutationObserver(() => {
    if (document.querySelector('[data-testid^="boards-nav-"] a')) seen('sidebar');
    if (document.querySelector('[data-testid="board-page"]')) seen('board page');
    if (document.querySelector('.table-row')) { seen('first row'); }
  });
  observer.observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', () => seen('DOMContentLoaded'));
})();`;

interface LoggedRequest {
  at: number;
  ms: number;
  method: string;
  url: string;
  status: number;
}

/** The server's request log (pino lines: "incoming request" then "request completed"). */
function requestLog(stream: NodeJS.ReadableStream): { since(epochMs: number): LoggedRequest[] } {
  const open = new Map<string, { method: string; url: string }>();
  const done: LoggedRequest[] = [];
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { reqId?: string; time?: number; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number };
        if (!entry.reqId) continue;
        if (entry.req) open.set(entry.reqId, entry.req);
        else if (entry.res && entry.responseTime !== undefined && entry.time !== undefined) {
          const req = open.get(entry.reqId);
          open.delete(entry.reqId);
          if (req) done.push({ at: entry.time - entry.responseTime, ms: entry.responseTime, method: req.method, url: req.url, status: entry.res.statusCode });
        }
      } catch {
        // not a log line
      }
    }
  });
  return { since: (epochMs) => done.filter((r) => r.at >= epochMs - 50) };
}

/**
 * The SharedWorker's CPU profile, through the browser's CDP session (Playwright has no handle on
 * shared workers): attached without flattening, commands go in Target.sendMessageToTarget.
 */
async function workerProfiler(browser: Browser): Promise<{ stop(file: string): Promise<void> } | null> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
  const worker = targetInfos.find((t) => t.type === 'shared_worker');
  if (!worker) return null;
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false })) as { sessionId: string };
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget' as never, ((event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  }) as never);
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget' as never, { sessionId, message: JSON.stringify({ id, method, params }) } as never);
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 500 });
  await send('Profiler.start');
  return {
    async stop(file) {
      // A worker that ended meanwhile never answers: give up after 30 s.
      const result = (await Promise.race([send('Profiler.stop'), new Promise((resolve) => setTimeout(() => resolve(null), 30_000))])) as { profile: unknown } | null;
      if (result) fs.writeFileSync(file, JSON.stringify(result.profile));
      await cdp.detach();
    },
  };
}

async function profileStart(session: CDPSession): Promise<void> {
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 500 });
  await session.send('Profiler.start');
}

async function profileStop(session: CDPSession, file: string): Promise<void> {
  const { profile } = (await session.send('Profiler.stop')) as { profile: { nodes: unknown[] } };
  fs.writeFileSync(file, JSON.stringify(profile));
}

async function moments(page: Page): Promise<{ origin: number; at: Record<string, number> }> {
  return page.evaluate(() => ({ origin: performance.timeOrigin, at: (window as unknown as { __moments: Record<string, number> }).__moments }));
}

function printTimeline(title: string, origin: number, at: Record<string, number>, requests: LoggedRequest[], until: number) {
  console.log(`\n${title} (ms from the navigation's start; load ${loadAverage()})`);
  const rows: { t: number; text: string }[] = [];
  for (const [name, t] of Object.entries(at)) rows.push({ t, text: `page: ${name}` });
  for (const r of requests) {
    const t = r.at - origin;
    if (t > until + 100) continue;
    const url = r.url.replace(/[?&](token|access_token)=[^&]*/g, '');
    rows.push({ t, text: `${r.method} ${url.length > 90 ? url.slice(0, 90) + '…' : url} → ${r.status} in ${r.ms.toFixed(0)} ms (ends ${(t + r.ms).toFixed(0)})` });
  }
  rows.sort((a, b) => a.t - b.t);
  for (const row of rows) console.log(`${row.t.toFixed(0).padStart(8)}  ${row.text}`);
}

async function main() {
  const database = await benchDatabase();
  const keep = database.databaseUrl ? undefined : process.env.BENCH_DATA_DIR;
  const dataDir = keep ? path.join(keep, `stream-${ITEMS}x${ATTRIBUTES}-${SHAPE}`) : fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-trace-'));
  const marker = path.join(dataDir, 'bench-boards.json');
  let big: SeededBoard;
  if (fs.existsSync(marker)) big = JSON.parse(fs.readFileSync(marker, 'utf8')).big;
  else {
    fs.mkdirSync(dataDir, { recursive: true });
    const { boards } = await seedBoardsSql({ dataDir, databaseUrl: database.databaseUrl }, [
      { name: `Bench ${ITEMS}`, items: ITEMS, attributes: ATTRIBUTES, shape: SHAPE },
      { name: 'Bench empty', items: 0, attributes: 1 },
    ]);
    big = boards[0]!;
    fs.writeFileSync(marker, JSON.stringify({ big, empty: boards[1] }));
  }
  const server = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...database.serverEnv });
  const log = requestLog(server.process.stdout!);
  const browser = await launchBrowser();
  const profileDir = process.env.BENCH_PROFILE;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  try {
    console.log(`board of ${ITEMS} items (${big.records} records) on ${database.label}; ${os.cpus().length} cores, load average ${loadAverage()}`);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(FIRST_ROW_SCRIPT);
    await page.addInitScript(MOMENTS_SCRIPT);
    await page.goto(server.url + '/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);
    await page.waitForTimeout(1_500);

    const run = async (name: string, url: string, waitFor: string, then?: () => Promise<void>) => {
      const pageCdp = profileDir ? await context.newCDPSession(page) : null;
      if (pageCdp) await profileStart(pageCdp);
      // The worker lives on through a board's open only with the keeper tab (below); a reload
      // ends it, so no worker profile is taken then.
      const workerCdp = profileDir && !name.startsWith('reload') ? await workerProfiler(browser).catch(() => null) : null;
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction((key) => key in ((window as unknown as { __moments?: Record<string, number> }).__moments ?? {}), waitFor, { timeout: 300_000, polling: 50 });
      if (then) await then();
      const seen = await moments(page);
      if (pageCdp) await profileStop(pageCdp, path.join(profileDir!, `${name.replace(/[^a-z0-9]+/gi, "-")}-page.cpuprofile`));
      if (workerCdp) await workerCdp.stop(path.join(profileDir!, `${name.replace(/[^a-z0-9]+/gi, '-')}-worker.cpuprofile`));
      await page.waitForTimeout(300);
      const until = Math.max(...Object.values(seen.at));
      printTimeline(name, seen.origin, seen.at, log.since(seen.origin), until);
    };

    // Profiling: a second tab on /home keeps the SharedWorker alive through the navigation, so
    // the profile is of the worker that opens the board (the figures then are of a user with the
    // app open in another tab).
    const keeper = profileDir ? await context.newPage() : null;
    if (keeper) {
      await keeper.goto(server.url + '/home');
      await keeper.waitForTimeout(1_000);
      await page.bringToFront();
    }
    await run('cold open of the board address', server.url + `/b/${big.boardId}`, 'first row');
    await keeper?.close();
    // Let the replica fill (the stream behind the first rows) before the reload.
    await page.waitForTimeout(Number(process.env.BENCH_FILL_MS ?? 60_000));
    await run('reload on /home, then a click on the board in the sidebar', server.url + '/home', 'sidebar', async () => {
      const link = page.getByRole('link', { name: big.name, exact: true });
      await link.waitFor();
      await link.evaluate((el) => {
        (window as unknown as { __moments: Record<string, number> }).__moments['click'] = performance.now();
        (el as HTMLElement).click();
      });
      await page.waitForFunction(() => 'first row' in (window as unknown as { __moments: Record<string, number> }).__moments, null, { timeout: 300_000, polling: 50 });
    });
    await context.close();
  } catch (error) {
    console.log(`bench stopped early: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    await server.stop();
    await database.close();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
