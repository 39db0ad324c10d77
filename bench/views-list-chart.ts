/**
 * The List and Chart views' benchmark (issue #12). Prints figures beside their budgets; never fails.
 *
 *   npx tsx bench/views-list-chart.ts [chartItems=100000] [boardItems=10000]
 *     BENCH_BROWSER=0    only the in-memory chart figures (no server, no Chromium)
 *     BENCH_CHART=0      only the browser figures
 *     BENCH_PROFILE=dir  the warm opens' CPU profiles written there (.cpuprofile)
 *     WEB_DIR=…          the built app (default dist); BENCH_DATA_DIR=… seeds the board once
 *
 * 1. Chart of 100,000 items (budget ≤ 500 ms, aggregation + render): the items and values of
 *    bench/board-10k.ts's seed (same attributes, same values per index) held in memory; the
 *    aggregation is the view's own (src/boards/chart/aggregate.ts), the render is ECharts drawing
 *    the view's own option (chart-option.ts) to SVG on the server (`ssr: true`): the library's
 *    layout and drawing, without the browser's paint.
 * 2. In Chromium against the real server and the built app, the demo owner signed in (the
 *    SharedWorker path), a 10,000-item board seeded by bench/seed-sql.ts (bench/views-board.ts):
 *    warm open of a List view to its first row (budget ≤ 300 ms), and of a Chart view to its
 *    first drawn bar (10,000 items aggregated and drawn in the tab).
 */
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { buildChart, type ChartRequest } from '../src/boards/chart/aggregate';
import { chartOption } from '../src/boards/chart/chart-option';
import { ATTRIBUTE_SPECS, login, valueFor } from './board-10k';
import { viewsBoard, waitForReplica } from './views-board';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent, SVGRenderer]);

const CHART_ITEMS = Number(process.argv[2] ?? 100_000);
const BOARD_ITEMS = Number(process.argv[3] ?? 10_000);
const EMAIL = 'demo@cairn.local';
const PASSWORD = 'demo-password';
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(52)} ${value.padStart(14)}   ${note}`);
/** One figure: `name: p50 … ms, p95 … ms (n runs; budget …)`. */
const figure = (name: string, xs: number[], budget: string, note = '') =>
  console.log(`${`${name}:`.padEnd(44)} p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms, p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms   (${xs.length} runs; budget ${budget})${note ? `  ${note}` : ''}`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

function inMemoryBoard(n: number) {
  const attributes = ATTRIBUTE_SPECS.map((a) => ({ id: a.key as string, kind: a.kind as string, name: a.name as string, settings: a.settings as Record<string, unknown> }));
  const items = Array.from({ length: n }, (_, i) => ({ id: `i${i}`, name: `Item ${i}`, position: i + 1 }));
  /**
   * The reader the view has: a map of the values of the attributes the chart reads (and only
   * those: store/live.ts useAttributeValues), keyed "{itemId}.{attributeId}" like value ids.
   */
  const readerFor = (keys: readonly string[]) => {
    const values = new Map<string, unknown>();
    for (const key of keys) for (let i = 0; i < n; i++) values.set(`i${i}.${key}`, valueFor(key, i));
    return (itemId: string, attributeId: string) => values.get(`${itemId}.${attributeId}`) ?? null;
  };
  return { attributes: new Map(attributes.map((a) => [a.id, a])), items, readerFor };
}

function chartFigures() {
  const { attributes, items, readerFor } = inMemoryBoard(CHART_ITEMS);
  const text = { measure: 'Points', label: (h: { label: string; kind: string }) => h.label || h.kind };
  const cases: { name: string; request: ChartRequest }[] = [
    { name: 'bar: status, count', request: { type: 'bar', attributes: [attributes.get('status')!], top20: false } },
    { name: 'bar: status + owner + due (3 panels), sum', request: { type: 'bar', attributes: ['status', 'owner', 'due'].map((k) => attributes.get(k)!), sumAttribute: attributes.get('points')!, top20: false } },
    { name: 'stacked bar: status × owner, Top 20', request: { type: 'stacked-bar', attributes: [attributes.get('status')!, attributes.get('owner')!], top20: true } },
    { name: 'pie: tag, count', request: { type: 'pie', attributes: [attributes.get('tag')!], top20: false } },
    { name: 'line: due by month, sum', request: { type: 'line', attributes: [attributes.get('due')!], sumAttribute: attributes.get('points')!, top20: false } },
  ];
  console.log(`chart of ${CHART_ITEMS.toLocaleString('en')} items (in memory; 5 runs each, after one warm-up). Wall time, and the process's CPU time`);
  console.log('beside it: on a shared machine the wall time includes waiting for a core, the CPU time does not.');
  for (const { name, request } of cases) {
    const get = readerFor([...request.attributes, ...(request.sumAttribute ? [request.sumAttribute] : [])].map((a) => a.id));
    const agg: number[] = [];
    const draw: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < 6; run++) {
      const cpu0 = process.cpuUsage();
      let t0 = performance.now();
      const result = buildChart(items, request, get);
      const aggMs = performance.now() - t0;
      if (!result.ok) throw new Error(`${name}: ${result.problem}`);
      t0 = performance.now();
      for (const panel of result.panels) {
        const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 900, height: 340 });
        chart.setOption(chartOption(panel, request.type, text, false));
        chart.renderToSVGString();
        chart.dispose();
      }
      const drawMs = performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      if (run > 0) (agg.push(aggMs), draw.push(drawMs), cpu.push((used.user + used.system) / 1000));
    }
    const total = agg.map((a, i) => a + draw[i]!);
    figure(`chart ${CHART_ITEMS / 1000}k ${name}`, total, '≤ 500 ms', `aggregation ${pct(agg, 50).toFixed(0)} + render ${pct(draw, 50).toFixed(0)} ms; CPU ${pct(cpu, 50).toFixed(0)} ms`);
  }
}

async function browserFigures() {
  const { launchBrowser, startServer } = await import('../e2e/helpers');
  // Seeded straight into the data directory before the server starts (bench/views-board.ts).
  const { dataDir, seeded } = await viewsBoard(BOARD_ITEMS);
  // BILLING=off: the top plan's limits, so the Pro-only views (Gantt, Chart: decision 0260) can be saved.
  const server = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', DATA_DIR: dataDir, BILLING: 'off' });
  const browser = await launchBrowser();
  try {
    const token = await login(server.url, EMAIL, PASSWORD);
    const mine = await (await fetch(server.url + '/api/me/workspaces', { headers: { authorization: `Bearer ${token}` } })).json();
    const teamId = (mine.data ?? mine)[0].id;
    const b = seeded.boardId;
    const view = async (id: string, kind: string, settings: Record<string, unknown>) => {
      await fetch(`${server.url}/api/${teamId}/folder-views/${id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, board_id: b, folder_id: b, name: kind, kind, visibility: 'shared', position: kind === 'list' ? 1 : 2, settings, row_version: 1 }),
      }).then(async (r) => r.ok || r.status === 409 || Promise.reject(new Error(`${kind} view: ${r.status} ${await r.text()}`)));
    };
    const listId = `${b}vlist`;
    const chartId = `${b}vchart`;
    await view(listId, 'list', {});
    await view(chartId, 'chart', { chart_type: 'bar', attribute_ids: [`${b}status`, `${b}owner`, `${b}due`], aggregate: 'sum', sum_attribute_id: `${b}points` });

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript('window.__name = (f) => f');
    await page.goto(server.url + '/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);

    // Cold open once (index load), then let the replica settle so warm figures do not share the CPU with it.
    let t0 = Date.now();
    await page.goto(`${server.url}/b/${b}?view=${listId}`);
    await page.locator('.list-row').first().waitFor({ timeout: 600_000 });
    line('\ncold open of the list (index load into IndexedDB)', `${Date.now() - t0} ms`, 'first visit on this device');
    const streamed = await waitForReplica(page, seeded.records);
    line('  …then the rest of the index stored', `${streamed} ms`, `${seeded.records} records; warm figures start after it`);
    await page.waitForTimeout(3000);

    for (const [label, viewId, selector, budget, whole] of [
      [`list warm open ${BOARD_ITEMS / 1000}k (to first row)`, listId, '.list-row', '≤ 300 ms', null],
      // A Chart draws each panel as its columns arrive (decision 0335): the first bar, and every panel.
      [`chart warm open ${BOARD_ITEMS / 1000}k (3 panels, to first bar)`, chartId, '.chart-canvas svg path', '≤ 300 ms (view open)', 3],
    ] as const) {
      const times: number[] = [];
      const wholeTimes: number[] = [];
      // BENCH_PROFILE=dir: each open's CPU profile as a .cpuprofile file (DevTools opens them).
      const profileDir = process.env.BENCH_PROFILE;
      const cdp = profileDir ? await page.context().newCDPSession(page) : null;
      if (cdp) await cdp.send('Profiler.enable');
      for (let run = 0; run < 5; run++) {
        await page.evaluate(() => {
          history.pushState({}, '', '/home');
          dispatchEvent(new PopStateEvent('popstate'));
        });
        await page.locator('[data-testid="board-page"]').waitFor({ state: 'detached' });
        await page.waitForTimeout(300);
        if (cdp) await cdp.send('Profiler.start');
        const [first, all] = await page.evaluate(
          ({ href, selector, whole }) =>
            new Promise<[number, number]>((resolve) => {
              const start = performance.now();
              let firstAt: number | null = null;
              const drawn = () => document.querySelectorAll('.chart-panel:not(.is-reading) .chart-canvas svg path').length > 0 && document.querySelectorAll('.chart-panel:not(.is-reading) .chart-canvas svg').length >= (whole ?? 0);
              const observer = new MutationObserver(() => {
                if (firstAt === null && document.querySelector(selector)) firstAt = performance.now() - start;
                if (firstAt !== null && (whole === null || drawn())) {
                  observer.disconnect();
                  resolve([firstAt, performance.now() - start]);
                }
              });
              observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
              history.pushState({}, '', href);
              dispatchEvent(new PopStateEvent('popstate'));
            }),
          { href: `/b/${b}?view=${viewId}`, selector, whole },
        );
        times.push(first);
        wholeTimes.push(all);
        if (cdp && profileDir) {
          const { profile } = await cdp.send('Profiler.stop');
          const { writeFileSync, mkdirSync } = await import('node:fs');
          mkdirSync(profileDir, { recursive: true });
          writeFileSync(`${profileDir}/${viewId === chartId ? 'chart' : 'list'}-open-${run + 1}.cpuprofile`, JSON.stringify(profile));
        }
      }
      figure(label, times, budget, 'in-app navigation, replica whole');
      // Each open in order: the first open of a view in the page reads its values, the later ones do not.
      console.log(`  runs in order: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
      if (whole !== null) {
        figure(`  …to every panel drawn (${whole})`, wholeTimes, 'none of its own', 'the rest of the columns read after the first panel');
        console.log(`  runs in order: ${wholeTimes.map((t) => t.toFixed(1)).join(', ')} ms`);
      }
    }

    // The keyboard: j held down through the list, frame times while the cursor moves (rAF deltas).
    await page.evaluate((href) => (history.pushState({}, '', href), dispatchEvent(new PopStateEvent('popstate'))), `/b/${b}?view=${listId}`);
    await page.locator('.list-row').first().waitFor();
    await page.getByTestId('list-view').focus();
    const frames = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const list = document.querySelector('[data-testid="list-view"]')!;
          const deltas: number[] = [];
          let last = performance.now();
          const tick = (now: number) => {
            deltas.push(now - last);
            last = now;
            for (let i = 0; i < 3; i++) list.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
            if (deltas.length < 200) requestAnimationFrame(tick);
            else resolve(deltas.slice(1));
          };
          requestAnimationFrame(tick);
        }),
    );
    line('list: j pressed 3× per frame, frame time', `${pct(frames, 50).toFixed(1)} ms p50`, `p95 ${pct(frames, 95).toFixed(1)} ms (60 fps = 16.7 ms)`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

console.log(`load average at start: ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)\n`);
if (process.env.BENCH_CHART !== '0') chartFigures();
if (process.env.BENCH_BROWSER !== '0') await browserFigures();
