import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, expectText, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

/**
 * Issue #17 in the browser against the real server: the workspace overview and not-found page,
 * the demo board with its names, the name column pinned while the table scrolls (LTR and RTL),
 * the inline new-item row, and the command palette (jump and action) with the shortcut sheet.
 */
describe('shell: first minutes (issue #17)', () => {
  let world: BoardWorld;
  let owner: string;
  let roadmapId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    const folders = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders`)).data as { id: string; name: string; parent_id: string | null }[];
    roadmapId = folders.find((f) => f.name === 'Product roadmap' && f.parent_id === null)!.id;
  });
  afterAll(async () => world?.close());

  it('opens the workspace overview (boards, members, activity), a not-found page for a foreign id, and no placeholder', async () => {
    const { page, context, errors } = await signedInPage(world, USERS.owner);
    await page.getByRole('link', { name: 'Demo workspace' }).first().click();
    await page.getByTestId('workspace-overview').waitFor();
    const boards = page.getByTestId('overview-boards');
    await expectText(boards, 'Product roadmap');
    await expectText(boards, 'Bug tracker');
    await expectText(page.getByTestId('overview-members'), 'Ada Admin');
    // The demo was saved through the sync path, so its log has entries.
    await expect.poll(() => page.getByTestId('overview-activity').locator('li').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    await page.goto(`${world.server.url}/team/999999`);
    await page.getByTestId('not-found').waitFor();
    // Every route of the spec is built now: the last one that said "comes later" shows its screen.
    await page.goto(`${world.server.url}/subscription/upgrade`);
    await page.getByRole('heading', { name: 'Change your plan', level: 1 }).waitFor();
    expect(await page.getByText('Nothing here yet.').count()).toBe(0);
    await page.goto(`${world.server.url}/team/${world.teamId}/permissions`);
    await page.getByTestId('workspace-permissions').waitFor();
    await expectText(page.getByTestId('workspace-permissions'), 'Create items');
    expect(errors).toEqual([]);
    await context.close();
  });

  /** The name cell's edge on the pinned side and the grid's, after scrolling the table sideways. */
  async function pinnedGap(page: Page, name: string, rtl: boolean) {
    const scroller = page.locator('.table-scroll');
    await scroller.evaluate((el, dir) => el.scrollBy({ left: dir * 400 }), rtl ? -1 : 1);
    await expect.poll(() => scroller.evaluate((el) => Math.abs(el.scrollLeft))).toBeGreaterThan(100);
    const cell = rowByName(page, name).locator('.table-cell.is-pinned:not(.table-select)');
    const [box, grid] = [await cell.boundingBox(), await scroller.boundingBox()];
    // The selection column (44 px) sits between the grid's edge and the name cell.
    return rtl ? grid!.x + grid!.width - (box!.x + box!.width) : box!.x - grid!.x;
  }

  it('shows the demo names pinned while scrolling (ltr and rtl) and adds items from the inline row', async () => {
    const { page, context, errors } = await signedInPage(world, USERS.owner);
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(`${world.server.url}/b/${roadmapId}`);
    await rowByName(page, 'Offline editing').waitFor();
    // Wide columns so the table scrolls sideways.
    for (const name of ['Notes A', 'Notes B', 'Notes C']) {
      await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/attributes/${roadmapId}-${name.replace(' ', '')}`, { id: `${roadmapId}-${name.replace(' ', '')}`, board_id: roadmapId, folder_id: roadmapId, name, kind: 'text', position: 10, row_version: 1 });
    }
    await expect.poll(() => page.locator('.table-scroll').evaluate((el) => el.scrollWidth - el.clientWidth), { timeout: 15_000 }).toBeGreaterThan(300);
    const gap = await pinnedGap(page, 'Offline editing', false);
    expect(Math.abs(gap - 44)).toBeLessThan(3);

    // Inline new item: type, Enter, and the row is ready for the next one. `c` on the board starts
    // it too; inside the grid a letter now types into the active cell, as in a spreadsheet (issue
    // #30 part 6), so the key is pressed with the focus on the page, not in the table.
    await page.locator('.table-scroll').focus();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('new-item-input');
    await page.keyboard.type('Book venue');
    await page.keyboard.press('Enter');
    await rowByName(page, 'Book venue').waitFor();
    await page.keyboard.type('Send invites');
    await page.keyboard.press('Enter');
    await rowByName(page, 'Send invites').waitFor();
    await waitForServerCopy(world, owner, 'items', roadmapId, (items) => items.some((i) => i.name === 'Book venue') && items.some((i) => i.name === 'Send invites'));
    expect(errors).toEqual([]);
    await context.close();

    // Arabic: the pinned column is on the right.
    const full = await apiLogin(world.server.url, USERS.full);
    await apiCall(world.server.url, full, 'PUT', '/api/me', { locale: 'ar' });
    const rtl = await signedInPage(world, USERS.full);
    await rtl.page.setViewportSize({ width: 900, height: 800 });
    await rtl.page.goto(`${world.server.url}/b/${roadmapId}`);
    await rowByName(rtl.page, 'Offline editing').waitFor();
    await expect.poll(() => rtl.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const rtlGap = await pinnedGap(rtl.page, 'Offline editing', true);
    expect(Math.abs(rtlGap - 44)).toBeLessThan(3);
    await rtl.context.close();
    await apiCall(world.server.url, full, 'PUT', '/api/me', { locale: 'en' });
  });

  it('jumps with the command palette, runs an action, and shows the shortcut sheet on ?', async () => {
    const { page, context, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${roadmapId}`);
    await rowByName(page, 'Offline editing').waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByTestId('command-palette');
    await palette.waitFor();
    console.log(`palette opened in ${await palette.getAttribute('data-open-ms')} ms (key press to first effect, first opening includes the chunk)`);
    // A board not opened on this device yet (from the server's list), then an item found in the replica.
    await page.getByTestId('palette-input').fill('bug track');
    await page.getByRole('option', { name: /Bug tracker/ }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await expectText(page.locator('.folder-title'), 'Bug tracker');
    await rowByName(page, 'Export to CSV drops the last row').waitFor();
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('csv import');
    await page.getByRole('option', { name: /CSV import/ }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/\/b\/[^/]+\/[^/]+\/[^/?]+/);
    await expectText(page.locator('.folder-title'), 'Product roadmap');

    // An action: the dark theme.
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('dark theme');
    await page.getByRole('option', { name: 'Switch to the dark theme' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(async () => (await apiCall(world.server.url, owner, 'GET', '/api/me')).theme ?? (await apiCall(world.server.url, owner, 'GET', '/api/me')).data?.theme).toBe(1);
    await apiCall(world.server.url, owner, 'PUT', '/api/me', { theme: 2 });

    // Recent picks come first on the next opening; Escape closes.
    await page.keyboard.press('Control+k');
    await expectText(palette, 'CSV import');
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });

    await page.locator('body').press('?');
    await page.getByTestId('shortcut-sheet').waitFor();
    await page.keyboard.press('Escape');
    // Never while typing: ? in the search field is just text.
    await page.getByLabel('Search items').fill('');
    await page.getByLabel('Search items').press('?');
    expect(await page.getByTestId('shortcut-sheet').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
