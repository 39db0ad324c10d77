import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #30 part 4: quick-add never drops a key. Names typed as fast as the browser allows, Enter
 * between them, all land intact and in order, in the page and on the server (table, a kanban
 * column and the list use the same field, parts/QuickAdd.tsx).
 */
const NAMES = Array.from({ length: 20 }, (_, i) => `Quick ${String.fromCharCode(65 + i)}${i} name`);

/** The board's items on the server, in position order. */
async function serverNames(world: BoardWorld, token: string, boardId: string): Promise<string[]> {
  const items = (await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as { name: string; position: number }[];
  return items.sort((a, b) => a.position - b.position).map((i) => i.name);
}

async function typeFast(page: Page, names: string[]) {
  for (const name of names) {
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
  }
}

describe('quick-add at full speed', () => {
  let world: BoardWorld;
  let token: string;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    world = await startWorld();
    token = await apiLogin(world.server.url, USERS.owner);
    ({ page, errors } = await signedInPage(world, USERS.owner));
  });
  afterAll(async () => world?.close());

  it('the table: 20 names typed with no delay all land intact and in order', async () => {
    const boardId = await createBoardByApi(world, token, 'Quick table');
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor();
    const field = page.getByTestId('new-item-input');
    await field.click();
    await typeFast(page, NAMES);
    // The field is empty as soon as the last Enter is handled (not when the server answers).
    expect(await field.inputValue()).toBe('');
    await expect.poll(() => serverNames(world, token, boardId), { timeout: 60_000 }).toEqual(NAMES);
    await expect
      // The name cell also holds the row's open button (⤢).
      .poll(async () => (await page.locator('.table-row .table-cell').filter({ hasText: /^Quick / }).allTextContents()).map((s) => s.replace('⤢', '').trim()), { timeout: 30_000 })
      .toEqual(NAMES);
    expect(errors).toEqual([]);
  });

  it('a kanban column and the list use the same field: every name lands, in its column', async () => {
    const boardId = await createBoardByApi(world, token, 'Quick columns');
    const statusId = `${boardId}s`;
    await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/attributes/${statusId}`, {
      id: statusId,
      board_id: boardId,
      folder_id: boardId,
      name: 'Stage',
      kind: 'status',
      row_version: 1,
      settings: { options: [{ id: 'todo', name: 'To do', color: '#DDDDDD' }, { id: 'doing', name: 'Doing', color: '#FFE08A' }] },
    });
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor();
    await page.getByRole('button', { name: 'Add view' }).click();
    await page.getByRole('menuitem', { name: 'Columns' }).click();
    await page.getByTestId('column-view').waitFor();
    const doing = page.locator('.kanban-column', { has: page.locator('.kanban-column-head', { hasText: 'Doing' }) });
    await doing.getByTestId('kanban-add').click();
    await doing.getByTestId('kanban-add-input').waitFor();
    const cards = NAMES.slice(0, 10);
    await typeFast(page, cards);
    expect(await doing.getByTestId('kanban-add-input').inputValue()).toBe('');
    await expect.poll(() => doing.locator('[data-card-id]').evaluateAll((els) => els.map((e) => e.querySelector('.kanban-card-name, strong, span')?.textContent ?? e.textContent)), { timeout: 30_000 }).toHaveLength(10);
    await expect.poll(() => serverNames(world, token, boardId), { timeout: 60_000 }).toEqual(cards);
    // Each card's Stage is Doing on the server.
    const values = (await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/values?board_id=${boardId}`)).data as { attribute_id: string; value: unknown }[];
    expect(values.filter((v) => v.attribute_id === statusId).map((v) => v.value)).toEqual(Array(10).fill('doing'));
    for (const name of cards) await doing.locator('[data-card-id]', { hasText: name }).waitFor();

    // The list view.
    await page.getByRole('button', { name: 'Add view' }).click();
    await page.getByRole('menuitem', { name: 'List' }).click();
    await page.getByTestId('list-view').waitFor();
    await page.getByTestId('add-row').click();
    await page.getByTestId('list-add-input').waitFor();
    const more = NAMES.slice(10);
    await typeFast(page, more);
    await expect.poll(() => serverNames(world, token, boardId), { timeout: 60_000 }).toEqual([...cards, ...more]);
    expect(errors).toEqual([]);
  });
});
