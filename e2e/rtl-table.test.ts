/**
 * The table in both directions (issue #17 parts 2 and 5): in English (left to right) and Arabic
 * (right to left) the columns run from the inline start, the selection and name columns stay pinned
 * at the start edge while the table scrolls sideways, header and rows line up, ArrowRight / ArrowLeft
 * move as seen, and a resize handle widens its column when dragged outward. A screenshot of the
 * scrolled table per direction is compared with the one kept in e2e/screens/ (written when missing,
 * or again with UPDATE_SCREENSHOTS=1), so a layout that stops mirroring shows up as a difference.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, PASSWORD, startWorld, USERS, type BoardWorld } from './boards-helpers';

const SCREENS = path.resolve('e2e/screens');
let world: BoardWorld;
let boardId: string;
let token: string;
beforeAll(async () => {
  world = await startWorld();
  token = await apiLogin(world.server.url, USERS.owner);
  const folders = (await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/folders`)).data as { id: string; name: string; parent_id: string | null }[];
  boardId = folders.find((f) => f.parent_id === null && f.name === 'Product roadmap')!.id;
});
afterAll(async () => {
  await world?.close();
});

/** Share of pixels that differ clearly (any channel by more than 48 of 255) between two PNGs of one size. */
function difference(a: PNG, b: PNG): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) > 48 || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > 48 || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 48) differing++;
  }
  return differing / (a.width * a.height);
}

type Box = { x: number; y: number; width: number; height: number };
const box = async (page: Page, selector: string): Promise<Box> => (await page.locator(selector).first().boundingBox())!;

async function openBoard(locale: 'en' | 'ar', viewport = { width: 820, height: 700 }) {
  await apiCall(world.server.url, token, 'PUT', '/api/me', { locale });
  const context = await world.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(world.server.url + '/login');
  await page.locator('input[type=email]').fill(USERS.owner);
  await page.locator('input[type=password]').fill(PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/home$/);
  await page.goto(`${world.server.url}/b/${boardId}`);
  await page.locator('.table-row').nth(6).waitFor();
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
  return { context, page };
}

// The pictures first, in both directions, before the resize tests below change a column's width
// (widths are the view's, saved on the server).
for (const locale of ['en', 'ar'] as const) {
  const rtl = locale === 'ar';
  describe(`the table ${rtl ? 'right to left (Arabic)' : 'left to right (English)'}`, () => {
    it('runs from the inline start, keeps the name column pinned while scrolling, and lines headers up with rows', async () => {
      const { context, page } = await openBoard(locale);
      const scroll = await box(page, '.table-scroll');
      const heads = page.locator('.table-header > [role="columnheader"][data-attribute-id]');
      const count = await heads.count();
      expect(count).toBeGreaterThanOrEqual(3);
      // Columns follow the reading direction: each next one further from the start edge.
      const xs: number[] = [];
      for (let i = 0; i < count; i++) xs.push((await heads.nth(i).boundingBox())!.x);
      const sorted = [...xs].sort((a, b) => (rtl ? b - a : a - b));
      expect(xs).toEqual(sorted);
      // The table is wider than its pane here: scroll to the far end.
      const scrolled = await page.evaluate((isRtl) => {
        const el = document.querySelector<HTMLElement>('.table-scroll')!;
        const max = el.scrollWidth - el.clientWidth;
        el.scrollLeft = isRtl ? -max : max;
        return max;
      }, rtl);
      expect(scrolled).toBeGreaterThan(100);
      await page.mouse.move(1, 1); // no hover highlight in the picture
      await page.waitForTimeout(300);
      // The selection column and the name column are still at the start edge.
      const select = await box(page, '.table-header > .table-select');
      const name = await box(page, '.table-header > .is-pinned:not(.table-select)');
      const rowName = await box(page, '.table-row .table-cell.is-pinned:not(.table-select)');
      if (rtl) {
        expect(Math.abs(select.x + select.width - (scroll.x + scroll.width))).toBeLessThanOrEqual(2);
        expect(Math.abs(name.x + name.width - select.x)).toBeLessThanOrEqual(1);
      } else {
        expect(Math.abs(select.x - scroll.x)).toBeLessThanOrEqual(2);
        expect(Math.abs(name.x - (select.x + select.width))).toBeLessThanOrEqual(1);
      }
      expect(Math.abs(rowName.x - name.x)).toBeLessThanOrEqual(1);
      // Every column's cells sit under its header.
      for (let i = 0; i < count; i++) {
        const id = await heads.nth(i).getAttribute('data-attribute-id');
        const head = (await heads.nth(i).boundingBox())!;
        const cell = (await page.locator(`.table-row .table-cell[data-attribute-id="${id}"]`).first().boundingBox())!;
        expect(Math.abs(cell.x - head.x), `column ${id}`).toBeLessThanOrEqual(1);
        expect(Math.abs(cell.width - head.width), `column ${id}`).toBeLessThanOrEqual(1);
      }

      // The picture of the scrolled table, compared with the one kept for this direction.
      const shot = PNG.sync.read(await page.locator('.table-scroll').screenshot());
      const file = path.join(SCREENS, `table-scrolled-${rtl ? 'rtl' : 'ltr'}.png`);
      if (!fs.existsSync(file) || process.env.UPDATE_SCREENSHOTS === '1') {
        fs.mkdirSync(SCREENS, { recursive: true });
        fs.writeFileSync(file, PNG.sync.write(shot));
      } else {
        const kept = PNG.sync.read(fs.readFileSync(file));
        expect(difference(shot, kept), `${file} (UPDATE_SCREENSHOTS=1 writes it again)`).toBeLessThan(0.02);
      }
      // A mirrored table is not the same picture as the other direction's.
      const other = path.join(SCREENS, `table-scrolled-${rtl ? 'ltr' : 'rtl'}.png`);
      if (fs.existsSync(other)) expect(difference(shot, PNG.sync.read(fs.readFileSync(other)))).toBeGreaterThan(0.02);
      await context.close();
    });

  });
}

for (const locale of ['en', 'ar'] as const) {
  const rtl = locale === 'ar';
  describe(`the table's keys and resize ${rtl ? 'right to left (Arabic)' : 'left to right (English)'}`, () => {
    it('moves with the arrow key toward the next column as seen, and widens a column dragged outward by its edge', async () => {
      // A desktop-wide window: at 820 px the unpinned part of the pane is narrower than dnd-kit's
      // edge zone, so any drag there scrolled the pane and the column grew with the scroll.
      const { context, page } = await openBoard(locale, { width: 1400, height: 860 });
      const heads = page.locator('.table-header > [role="columnheader"][data-attribute-id]');
      const second = await heads.nth(1).getAttribute('data-attribute-id');
      // The name cell of the first row, then the arrow pointing away from the start edge.
      await page.locator('.table-row').first().locator('.table-cell.is-pinned:not(.table-select)').click();
      await page.keyboard.press('Escape'); // a click may open an editor on some kinds; the cell stays active
      await page.keyboard.press(rtl ? 'ArrowLeft' : 'ArrowRight');
      await expect.poll(() => page.locator('.table-row').first().locator('.table-cell.is-active').getAttribute('data-attribute-id')).toBe(second);

      // The resize handle sits on the column's end edge; dragging it outward (right in LTR, left in RTL) widens it.
      // Its edge brought to the middle of the pane: clear of the pinned columns at the start and of
      // the edge zone that scrolls the pane during a drag.
      await heads.nth(1).locator('.col-resize').evaluate((handle) => {
        const el = document.querySelector<HTMLElement>('.table-scroll')!;
        const pane = el.getBoundingClientRect();
        const at = handle.getBoundingClientRect();
        el.scrollLeft += at.x - (pane.x + pane.width * 0.6);
      });
      await page.waitForTimeout(200);
      const handle = (await heads.nth(1).locator('.col-resize').boundingBox())!;
      const before = (await heads.nth(1).boundingBox())!.width;
      // Pressed on its half inside the column (the next header covers the other half).
      const x = rtl ? handle.x + handle.width - 1.5 : handle.x + 1.5;
      const y = handle.y + handle.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(x + (rtl ? -5 : 5) * i, y);
      await page.mouse.up();
      await expect.poll(async () => (await heads.nth(1).boundingBox())!.width).toBeGreaterThan(before + 30);
      await context.close();
    });
  });
}
