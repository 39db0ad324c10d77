import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * The board toolbar at narrow widths (issue #17, decision 0276), in Chromium against the real
 * server: from 390 to 1024 px, in English, German (long labels) and Arabic (RTL), the toolbar and the
 * board header's links are each one row that neither overflows nor leaves the screen, and the secondary actions sit in a "More" menu
 * that works from the keyboard (arrows, Escape back to the button, Enter runs the entry).
 */
describe('board toolbar at narrow widths', () => {
  let world: BoardWorld;
  let roadmapId: string;
  beforeAll(async () => {
    world = await startWorld();
    const owner = await apiLogin(world.server.url, USERS.owner);
    const folders = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders`)).data as { id: string; name: string; parent_id: string | null }[];
    roadmapId = folders.find((f) => f.name === 'Product roadmap' && f.parent_id === null)!.id;
  });
  afterAll(async () => world?.close());

  /** What the toolbar looks like: overflow, rows (distinct tops of its controls) and whether it stays on screen. */
  async function toolbarShape(page: Page, selector = '.folder-toolbar') {
    return page.locator(selector).evaluate((bar) => {
      const controls = [...bar.querySelectorAll('input, button, a')].filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().width > 1);
      // Rows: controls whose vertical centres lie within 10 px of each other share one.
      const centres = controls.map((el) => el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2).sort((x, y) => x - y);
      const rows = centres.filter((c, i) => i === 0 || c - centres[i - 1]! > 10).length;
      const rect = bar.getBoundingClientRect();
      const offScreen = controls.filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < -1 || r.right > window.innerWidth + 1 || r.right > rect.right + 1 || r.left < rect.left - 1;
      }).length;
      return { overflow: bar.scrollWidth - bar.clientWidth, rows, offScreen, fit: bar.getAttribute('data-fit') };
    });
  }

  for (const locale of ['en', 'de', 'ar']) {
    it(`keeps the toolbar on one row from 390 to 1024 px (${locale})`, async () => {
      const user = locale === 'en' ? USERS.owner : USERS.full;
      const token = await apiLogin(world.server.url, user);
      await apiCall(world.server.url, token, 'PUT', '/api/me', { locale });
      const { page, context, errors } = await signedInPage(world, user);
      try {
        await page.setViewportSize({ width: 1024, height: 800 });
        await page.goto(`${world.server.url}/b/${roadmapId}`);
        await page.getByTestId('view-more-button').waitFor({ timeout: 30_000 });
        if (locale === 'ar') await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        for (const width of [1024, 900, 768, 600, 480, 390]) {
          await page.setViewportSize({ width, height: 800 });
          await expect.poll(() => toolbarShape(page), { timeout: 30_000 }).toMatchObject({ overflow: 0, rows: 1, offScreen: 0 });
          // The board header's links (settings, activity, automations, trash) fold to icons the same way.
          await expect.poll(() => toolbarShape(page, '.folder-header-actions'), { timeout: 30_000 }).toMatchObject({ overflow: 0, rows: 1, offScreen: 0 });
        }
        // Wider again: the labels come back.
        await page.setViewportSize({ width: 1400, height: 800 });
        await expect.poll(() => toolbarShape(page)).toMatchObject({ fit: '0', rows: 1 });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        if (locale !== 'en') await apiCall(world.server.url, token, 'PUT', '/api/me', { locale: 'en' });
      }
    });
  }

  it('opens the More menu from the keyboard, with the secondary actions, and runs one with Enter', async () => {
    const { page, context, errors } = await signedInPage(world, USERS.owner);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${world.server.url}/b/${roadmapId}`);
    const more = page.getByTestId('view-more-button');
    await more.waitFor({ timeout: 30_000 });
    // Folded to an icon at 390 px, the button keeps its name.
    await expect.poll(() => page.getByRole('button', { name: 'More' }).count()).toBe(1);
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const names = await menu.getByRole('menuitem').allTextContents();
    for (const name of ['Import CSV', 'Import from Trello', 'Import from Gitlab', 'Export CSV', 'Export PDF', 'Save as template…', 'Duplicate board…']) expect(names).toContain(name);
    // Each entry has its icon.
    expect(await menu.locator('.ui-menu__icon svg').count()).toBe(names.length);
    // The menu fits the phone's screen.
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Import CSV');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Import from Trello');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('view-more-button');
    // Enter on the first entry opens the CSV import.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('csv-import-file').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
