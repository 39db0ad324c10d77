import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #30 part 6 (review M5): the Table edits as a spreadsheet does, in Chromium against the
 * real server: a checkbox flips with one click or Space, typing on a cell starts editing it with
 * that character, Enter commits and moves down, Escape cancels, and the people picker stays open
 * for several picks, with avatars and search. Every edit is checked in the server's copy.
 */
describe('table: editing feel', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let ids: Record<string, string>;
  const contexts: BrowserContext[] = [];
  const attr = (suffix: string) => `${boardId}${suffix}`;

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Feel');
    const t = world.teamId;
    const put = (suffix: string, name: string, kind: string, position: number, settings: object = {}) =>
      apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${attr(suffix)}`, { id: attr(suffix), board_id: boardId, folder_id: boardId, name, kind, position, settings, row_version: 1 });
    await put('c', 'Approved', 'checkbox', 2);
    await put('n', 'Notes', 'text', 3);
    await put('m', 'People', 'members', 4);
    ids = {};
    for (const name of ['Alpha', 'Bravo', 'Charlie']) ids[name] = await createItemByApi(world, owner, boardId, name);
  }, 300_000);
  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close().catch(() => undefined);
  });
  afterAll(async () => world?.close());

  const open = async (): Promise<Page> => {
    const { context, page } = await signedInPage(world, USERS.owner);
    contexts.push(context);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(page, 'Charlie').waitFor();
    return page;
  };
  const cellOf = (page: Page, item: string, attributeId: string) => page.locator(`.table-row[data-item-id="${ids[item]}"] .table-cell[data-attribute-id="${attributeId}"]`);
  const serverValue = async (item: string, attributeId: string) => {
    const values = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/values?board_id=${boardId}`)).data as { item_id: string; attribute_id: string; value: unknown; deleted_at?: string | null }[];
    return values.find((v) => v.item_id === ids[item] && v.attribute_id === attributeId && !v.deleted_at)?.value ?? null;
  };
  const serverName = async (item: string) => {
    const items = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as { id: string; name: string }[];
    return items.find((i) => i.id === ids[item])?.name;
  };

  it('toggles a checkbox with one click and with Space, with no editor', async () => {
    const page = await open();
    const box = (item: string) => cellOf(page, item, attr('c')).getByRole('checkbox');
    // An unchecked cell shows an empty box, not a blank.
    await expect.poll(() => box('Alpha').isVisible()).toBe(true);
    expect(await box('Alpha').isChecked()).toBe(false);

    await cellOf(page, 'Alpha', attr('c')).click();
    await expect.poll(() => box('Alpha').isChecked()).toBe(true);
    expect(await page.locator('.table-cell.is-editing').count()).toBe(0);
    await expect.poll(() => serverValue('Alpha', attr('c')), { timeout: 30_000 }).toBe(true);

    // Space on the active checkbox cell flips it back; ArrowDown then Space checks the next row.
    await page.keyboard.press('Space');
    await expect.poll(() => box('Alpha').isChecked()).toBe(false);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => box('Bravo').isChecked()).toBe(true);
    await expect.poll(() => serverValue('Alpha', attr('c')), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => serverValue('Bravo', attr('c')), { timeout: 30_000 }).toBe(true);
  });

  it('starts editing on a typed character, Enter commits and moves down, Escape cancels', async () => {
    const page = await open();
    await cellOf(page, 'Alpha', attr('n')).click();
    // The first key is the editor's first character (x and e included: they type here).
    await page.keyboard.type('xenon one');
    const editor = page.getByRole('textbox', { name: 'Edit Notes' });
    await expect.poll(() => editor.inputValue()).toBe('xenon one');
    await page.keyboard.press('Enter');
    await expect.poll(() => cellOf(page, 'Alpha', attr('n')).textContent()).toBe('xenon one');
    // The active cell moved down to Bravo's Notes: typing there edits Bravo.
    await expect.poll(() => page.locator('.table-cell.is-active').getAttribute('id')).toBe('cell-1-3');
    await page.keyboard.type('second');
    await page.keyboard.press('Enter');
    await expect.poll(() => cellOf(page, 'Bravo', attr('n')).textContent()).toBe('second');

    // Escape drops what was typed: Charlie's Notes stay empty and nothing is saved.
    await page.keyboard.type('scrap');
    await expect.poll(() => page.getByRole('textbox', { name: 'Edit Notes' }).inputValue()).toBe('scrap');
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Edit Notes' }).waitFor({ state: 'detached' });
    expect(await cellOf(page, 'Charlie', attr('n')).textContent()).toBe('');

    // The name column too: typing replaces the name.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('Alpine');
    await page.keyboard.press('Enter');
    await expect.poll(() => serverName('Alpha'), { timeout: 30_000 }).toBe('Alpine');
    await expect.poll(() => serverValue('Alpha', attr('n')), { timeout: 30_000 }).toBe('xenon one');
    await expect.poll(() => serverValue('Bravo', attr('n')), { timeout: 30_000 }).toBe('second');
    expect(await serverValue('Charlie', attr('n'))).toBe(null);
  });

  it('picks several people in one opening of the picker, with avatars and search', async () => {
    const page = await open();
    await cellOf(page, 'Charlie', attr('m')).dblclick();
    const picker = page.getByTestId('people-picker');
    await picker.waitFor();
    const list = picker.getByRole('listbox', { name: 'Choose People' });
    // Every member with an avatar.
    await expect.poll(() => list.getByRole('option').count()).toBeGreaterThanOrEqual(4);
    expect(await list.getByRole('option', { name: /Ada Admin/ }).getByRole('img', { name: 'Ada Admin' }).count()).toBe(1);

    await list.getByRole('option', { name: /Ada Admin/ }).click();
    // Still open after a pick; search narrows the list, Enter picks the first match.
    await picker.getByRole('combobox', { name: 'Search people' }).fill('fin');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('Finn Full')]);
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('option', { name: /Finn Full/ }).getAttribute('aria-selected')).toBe('true');
    await picker.getByRole('button', { name: 'Done' }).click();
    await picker.waitFor({ state: 'detached' });

    const cell = cellOf(page, 'Charlie', attr('m'));
    await expect.poll(() => cell.textContent()).toContain('Ada Admin, Finn Full');
    expect(await cell.getByRole('img').count()).toBe(2);
    await expect.poll(async () => ((await serverValue('Charlie', attr('m'))) as number[] | null)?.length ?? 0, { timeout: 30_000 }).toBe(2);
  });
});
