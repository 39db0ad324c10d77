/**
 * What the board benches share: the database they run on and the opens as a user meets them.
 *
 * - Database: PGlite in the server's data directory (the embedded default of `npm start`), or
 *   PostgreSQL with `--pg` (a private cluster started for the run, scripts/setup-lib.mjs) or
 *   BENCH_PG_SERVER_URL (a server of yours; the bench makes a scratch database on it and drops it).
 * - Opens: a full page navigation of a signed-in tab to the board's address (a user pasting the
 *   URL), timed from the navigation's start to the first table row in the page's own clock; and a
 *   click on the board in the sidebar, timed from the click to the first row.
 */
import os from 'node:os';
import type { Locator, Page } from 'playwright-core';
import { startPostgres } from '../scripts/setup-lib.mjs';
import { createDatabase } from '../scripts/scale/cluster';

export interface BenchDatabase {
  label: string;
  /** null: PGlite in the server's data directory. */
  databaseUrl: string | null;
  /** What the server started on it needs in its environment (on PostgreSQL the demo accounts too, as on PGlite). */
  serverEnv: Record<string, string>;
  close(): Promise<void>;
}

export const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

/** The arguments that are not flags (`--pg`, `--opens`): the bench's positional parameters. */
export const positional = (argv = process.argv.slice(2)) => argv.filter((a) => !a.startsWith('--'));

export async function benchDatabase(argv = process.argv): Promise<BenchDatabase> {
  const serverUrl = process.env.BENCH_PG_SERVER_URL;
  if (!argv.includes('--pg') && !serverUrl) return { label: 'PGlite (the embedded default)', databaseUrl: null, serverEnv: {}, close: async () => {} };
  const own = serverUrl ? null : startPostgres(0, 'bench-board');
  const url = serverUrl ?? own?.url;
  if (!url) throw new Error('--pg: PostgreSQL could not be started here (set BENCH_PG_SERVER_URL to a server)');
  const scratch = await createDatabase(url);
  return {
    label: own ? 'PostgreSQL (a private cluster for this run)' : 'PostgreSQL (BENCH_PG_SERVER_URL, a scratch database)',
    databaseUrl: scratch.url,
    serverEnv: { DATABASE_URL: scratch.url, SEED_DEMO: 'true' },
    async close() {
      await scratch.drop().catch(() => {});
      own?.stop();
    },
  };
}

/**
 * The page's init script: tsx's __name helper, and the moments (performance.now(), from the
 * navigation's start) the first table row entered this document (window.__firstRowAt) and the
 * sidebar first listed a board (window.__sidebarAt).
 */
export const FIRST_ROW_SCRIPT = `window.__name = (f) => f;
(() => {
  const observer = new MutationObserver(() => {
    if (window.__sidebarAt === undefined && document.querySelector('[data-testid^="boards-nav-"] a[href^="/b/"]')) window.__sidebarAt = performance.now();
    if (window.__firstRowAt === undefined && document.querySelector('.table-row')) window.__firstRowAt = performance.now();
    if (window.__sidebarAt !== undefined && window.__firstRowAt !== undefined) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

/** This document's moments (ms from its navigation's start): the app's document parsed and run, the sidebar's first board. */
export function pageMoments(page: Page): Promise<{ domContentLoaded: number; sidebar: number | null }> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { domContentLoaded: nav?.domContentLoadedEventEnd ?? NaN, sidebar: (window as unknown as { __sidebarAt?: number }).__sidebarAt ?? null };
  });
}

/** A full navigation of the tab to `url` (as a pasted address) until its first table row: ms from the navigation's start. */
export async function openByAddress(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt !== undefined, null, { timeout: 300_000, polling: 100 });
  return page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
}

/** A click on `link` until a table row is in the DOM: ms. */
export function clickUntilRow(link: Locator): Promise<number> {
  return link.evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (document.querySelector('.table-row')) {
            observer.disconnect();
            resolve(performance.now() - start);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        (el as HTMLElement).click();
      }),
  );
}

/**
 * Reload the tab on `homeUrl` (a full navigation: a new document, and a new worker when this was
 * its only tab), wait for the board's link in the sidebar and a moment more, then click it: ms to
 * the first row, `runs` times.
 */
export async function sidebarAfterReload(page: Page, homeUrl: string, link: () => Locator, runs: number, moments?: { sidebar: number[]; domContentLoaded: number[] }): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(homeUrl);
    await link().waitFor({ timeout: 120_000 });
    // Reload → the sidebar lists the board, beside the moment the app's document had run.
    const seen = await pageMoments(page);
    if (moments && seen.sidebar !== null) {
      moments.sidebar.push(seen.sidebar);
      moments.domContentLoaded.push(seen.domContentLoaded);
    }
    await page.waitForTimeout(700);
    times.push(await clickUntilRow(link()));
  }
  return times;
}

/**
 * The tab's main-thread CPU over `run` (Chromium's Performance metrics: ThreadTime and its parts),
 * in ms: what the work costs the tab itself, which a loaded machine stretches less than wall time.
 */
export async function mainThreadCpu<T>(page: Page, run: () => Promise<T>): Promise<{ result: T; thread: number; script: number; layout: number; style: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries(((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const result = await run();
  const after = await metrics();
  await cdp.detach();
  const ms = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  return { result, thread: ms('ThreadTime'), script: ms('ScriptDuration'), layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration') };
}
