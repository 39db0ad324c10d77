/**
 * Accessibility sweep (issue #17 part 9): axe finds no serious or critical violation on any screen
 * of the route table, signed in and signed out, light and dark, left-to-right and right-to-left.
 *
 * Kept fast for CI: one server, one browser, and screens reached by moving inside the running app
 * (as a link does) rather than by reloading. Two variants, light in English (LTR) and dark in
 * Arabic (RTL), share the route table between them: every other route in each (decision 0380), so
 * every screen is swept once and each theme and direction is seen on half of the screens, drawn
 * from one palette and one set of logical (start/end) styles. The demo board's screens (table,
 * kanban, item panel, a popover, create-board) are swept in both. Signed out the same holds for
 * the routes a visitor can see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { pathFor, routes, routesByName } from '../schema/routes';
import { DEMO, loginThroughUi, screenRoute } from './shell-helpers';

/** Params that fill every route's pattern; teamId and the board are the demo's once known. */
const SAMPLE: Record<string, string | number> = {
  token: 'tok', email: 'someone@example.test', code: 'LTD1', templateId: 'tpl1', boardId: 'b1', folderId: 'f1', trelloBoardId: 'tb1',
  hookId: 'h1', tagId: 'marketing', subscriptionId: 2, rootId: 'r1', itemId: 'i1', formId: 'form1', workspaceId: 3, viewId: 'v1', itemSlug: 'slug',
};

/** Pages the server draws itself (the public form, published documents): a full load away from the app. */
const SERVER_PAGES = new Set(['form', 'published-document', 'published-file', 'shared-document-item']);

async function moveInApp(page: Page, to: string) {
  await page.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

type Variant = { theme: 'light' | 'dark'; locale: 'en' | 'ar' };
const VARIANTS: Variant[] = [
  { theme: 'light', locale: 'en' },
  { theme: 'dark', locale: 'ar' },
];

/** The routes a variant sweeps: every other one of the list, so the variants together sweep each once. */
function shareOf<T>(list: T[], variant: Variant): T[] {
  const at = VARIANTS.indexOf(variant);
  return list.filter((_, i) => i % VARIANTS.length === at);
}

/** Serious and critical violations of one scan (the WCAG 2.1 A and AA rules), as readable lines. */
async function violations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** The page shows the variant: data-theme on <html>, and the direction of its language. */
async function expectVariant(page: Page, v: Variant) {
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(v.theme);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe(v.locale === 'ar' ? 'rtl' : 'ltr');
}

/** Requests in flight per page (the SharedWorker's script aside: Chromium never finishes it). */
const inflight = new WeakMap<Page, Set<unknown>>();
function track(page: Page) {
  const open = new Set<unknown>();
  inflight.set(page, open);
  page.on('request', (r) => !/shared-worker/.test(r.url()) && open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** After an in-app move: the screen is named on <main>, has a heading or its board, and the network has been quiet for 200 ms. */
async function settle(page: Page, path: string) {
  await page.waitForFunction(() => !!document.querySelector('main[data-route]') && !!document.querySelector('main h1, main [data-testid="folder-pane"], main [data-testid="board-problem"], main [data-testid="not-found"]'), null, { timeout: 15_000 }).catch(() => {
    throw new Error(`${path}: the screen did not show`);
  });
  const open = inflight.get(page)!;
  let quietSince = Date.now();
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 200) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('axe sweep, signed in', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const variant of VARIANTS) {
    it(`every route, ${variant.theme} ${variant.locale === 'ar' ? 'rtl' : 'ltr'}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: variant.theme });
      const page = await context.newPage();
      track(page);
      await loginThroughUi(page, server.url);
      // The demo user's language, as a person sets it (profile), then one load to start in it.
      const login = (await (await page.request.post(server.url + '/api/auth/login', { data: DEMO })).json()) as { access_token?: string; data?: { access_token?: string } };
      const token = login.access_token ?? login.data?.access_token;
      const status = (await page.request.put(server.url + '/api/me', { data: { locale: variant.locale }, headers: { Authorization: `Bearer ${token}` } })).status();
      expect(status).toBe(200);
      await page.goto(server.url + '/home');
      await expectVariant(page, variant);
      const href = await page.getByRole('navigation').locator('a[href^="/team/"]').first().getAttribute('href');
      SAMPLE.teamId = Number(/\/team\/(\d+)/.exec(href ?? '')![1]);
      const boardHref = await page.locator('[data-testid^="boards-nav-"] a[href^="/b/"]').first().getAttribute('href');

      const found: string[] = [];
      const seen = new Set<string>();
      for (const route of shareOf(routes.filter((r) => !SERVER_PAGES.has(r.name)), variant)) {
        const path = pathFor(route.name, SAMPLE);
        await moveInApp(page, path);
        await settle(page, path);
        // A route that redirects (by design or because the user is signed in) was swept under its target.
        const shown = await screenRoute(page);
        if (shown && shown !== route.name && seen.has(shown)) continue;
        seen.add(shown ?? route.name);
        found.push(...(await violations(page, `${route.name} ${variant.theme}/${variant.locale}`)));
      }

      // The board's own screens with the demo board: table, kanban, item panel, a popover, create-board.
      // One load here: the sweep left the workspace-limit dialog of create-workspace open.
      await page.goto(server.url + boardHref!);
      await page.getByTestId('folder-pane').waitFor();
      await page.locator('[role="row"]').nth(2).waitFor();
      found.push(...(await violations(page, `board table ${variant.theme}/${variant.locale}`)));
      await page.getByTestId('filter-button').click();
      await page.locator('.ui-popover, .ui-modal').first().waitFor();
      found.push(...(await violations(page, `filter popover ${variant.theme}/${variant.locale}`)));
      await page.keyboard.press('Escape');
      const kanban = page.locator('[role="tab"][data-view-kind="column"]');
      if (await kanban.count()) {
        await kanban.first().click();
        await page.locator('.kanban-card').first().waitFor();
        found.push(...(await violations(page, `board kanban ${variant.theme}/${variant.locale}`)));
        await page.locator('.kanban-card').first().click();
        await page.getByTestId('item-panel').waitFor();
        await settle(page, 'item panel');
        found.push(...(await violations(page, `item panel ${variant.theme}/${variant.locale}`)));
      }
      await moveInApp(page, pathFor('create-board', { teamId: SAMPLE.teamId }));
      await page.getByTestId('create-board-form').waitFor();
      await settle(page, 'create-board');
      found.push(...(await violations(page, `create-board ${variant.theme}/${variant.locale}`)));

      expect(found).toEqual([]);
      await context.close();
    }, 300_000); // ~35 screens with an axe scan each, on a loaded 2-core machine
  }
});

describe('axe sweep, signed out', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const variant of VARIANTS) {
    it(`the screens a visitor sees, ${variant.theme} ${variant.locale === 'ar' ? 'rtl' : 'ltr'}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: variant.theme, locale: variant.locale === 'ar' ? 'ar' : 'en-US' });
      const page = await context.newPage();
      track(page);
      await page.goto(server.url + '/login');
      await expectVariant(page, variant);
      const found: string[] = [];
      const seen = new Set<string>();
      const visible = routes.filter((r) => (!r.shell || r.public) && !SERVER_PAGES.has(r.name) && !routesByName.get(r.name)?.redirectTo);
      for (const route of shareOf(visible, variant)) {
        const path = pathFor(route.name, SAMPLE);
        await moveInApp(page, path);
        await settle(page, path);
        const shown = (await screenRoute(page)) ?? route.name;
        if (seen.has(shown)) continue;
        seen.add(shown);
        found.push(...(await violations(page, `${route.name} (signed out) ${variant.theme}/${variant.locale}`)));
      }
      expect(seen.size).toBeGreaterThan(3);
      expect(found).toEqual([]);
      await context.close();
    }, 240_000);
  }
});
