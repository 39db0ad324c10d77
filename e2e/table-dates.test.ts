import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #30 part 6 (review M3), in Chromium against the real server: a date is typed as the cells
 * show it (2026-12-04) or in the locale's format (12/05/2026 in English), one click opens a
 * calendar whose day saves at once, and in a range Tab goes from the start to the end date.
 */
describe('table: dates typed as shown, a calendar on one click', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let itemId: string;
  const contexts: BrowserContext[] = [];
  const attr = (suffix: string) => `${boardId}${suffix}`;

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Dates');
    const t = world.teamId;
    for (const [suffix, name, kind, position] of [['d', 'Due', 'date', 2], ['w', 'When', 'date-range', 3]] as const) {
      await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${attr(suffix)}`, { id: attr(suffix), board_id: boardId, folder_id: boardId, name, kind, position, settings: {}, row_version: 1 });
    }
    itemId = await createItemByApi(world, owner, boardId, 'Launch');
  }, 300_000);
  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close().catch(() => undefined);
  });
  afterAll(async () => world?.close());

  const open = async (): Promise<Page> => {
    const { context, page } = await signedInPage(world, USERS.owner);
    contexts.push(context);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(page, 'Launch').waitFor();
    // The owner's rights come with the board's first open; until then the board shows what a guest
    // may do and a click on a cell only selects it (no editor, so no calendar). They are known
    // once the toolbar's New item shows (the cause found for conflict-inbox, 08b961f).
    await page.getByTestId('new-item').waitFor({ timeout: 60_000 });
    return page;
  };
  const cellOf = (page: Page, attributeId: string) => page.locator(`.table-row[data-item-id="${itemId}"] .table-cell[data-attribute-id="${attributeId}"]`);
  const serverValue = async (attributeId: string) => {
    const values = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/values?board_id=${boardId}`)).data as { item_id: string; attribute_id: string; value: unknown; deleted_at?: string | null }[];
    return values.find((v) => v.item_id === itemId && v.attribute_id === attributeId && !v.deleted_at)?.value ?? null;
  };

  it('takes the shown format and the locale’s, opens a calendar on one click, and saves a picked day', async () => {
    const page = await open();
    const due = cellOf(page, attr('d'));
    // One click: the field and the calendar.
    await due.click();
    await page.getByTestId('date-calendar').waitFor();
    const field = page.getByRole('textbox', { name: 'Edit Due' });
    await field.fill('2026-12-04');
    await field.press('Enter');
    await expect.poll(() => due.textContent()).toBe('2026-12-04');
    await expect.poll(() => serverValue(attr('d')), { timeout: 30_000 }).toBe('2026-12-04');

    // The locale's format (English: month/day/year).
    await due.click();
    await page.getByRole('textbox', { name: 'Edit Due' }).fill('12/05/2026');
    await page.getByRole('textbox', { name: 'Edit Due' }).press('Enter');
    await expect.poll(() => due.textContent()).toBe('2026-12-05');

    // Not a date: the text stays with the message.
    await due.click();
    await page.getByRole('textbox', { name: 'Edit Due' }).fill('soon');
    await page.getByRole('textbox', { name: 'Edit Due' }).press('Enter');
    await page.getByTestId('value-error').waitFor();
    expect(await page.getByRole('textbox', { name: 'Edit Due' }).inputValue()).toBe('soon');

    // A day picked in the calendar (it shows the typed month) saves at once.
    await page.getByRole('textbox', { name: 'Edit Due' }).fill('2026-12-05');
    await page.getByTestId('date-calendar').getByRole('button', { name: /December 15, 2026/ }).click();
    await expect.poll(() => due.textContent()).toBe('2026-12-15');
    await expect.poll(() => serverValue(attr('d')), { timeout: 30_000 }).toBe('2026-12-15');
  }, 600_000); // an outer limit on a loaded machine, never a speed check (issue 32)

  it('moves from the start to the end date with Tab in a range', async () => {
    const page = await open();
    const when = cellOf(page, attr('w'));
    await when.click();
    const start = page.getByRole('textbox', { name: 'Start date' });
    await expect.poll(() => start.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('2026-05-10');
    await page.keyboard.press('Tab');
    const end = page.getByRole('textbox', { name: 'End date' });
    await expect.poll(() => end.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('05/20/2026');
    await page.keyboard.press('Enter');
    await expect.poll(() => when.textContent()).toBe('2026-05-10 – 2026-05-20');
    await expect.poll(() => serverValue(attr('w')), { timeout: 30_000 }).toEqual({ start: '2026-05-10', end: '2026-05-20' });
  }, 600_000);
});
