import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/** Drags with real pointer events (mouse down, several moves, up), as a person would. */
async function drag(page: Page, from: Locator, to: Locator, offsetY = 0) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  const startX = a.x + 80;
  await page.mouse.move(startX, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(startX, a.y + a.height / 2 + ((b.y + b.height / 2 + offsetY - (a.y + a.height / 2)) * i) / 8);
  await page.mouse.up();
}

/** The table's groups in screen order, each with its rows' names (read from the DOM by position). */
function groupsOnScreen(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('.table-group-row, .table-row')].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    const out: Record<string, string[]> = {};
    let current = '';
    for (const row of rows) {
      if (row.dataset.groupKey) out[(current = row.dataset.groupKey)] = [];
      else out[current]?.push(row.querySelector('.value-text')?.textContent ?? '');
    }
    return out;
  });
}

describe('boards: dragging rows between the groups of a table', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let statusId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Grouped table');
    statusId = `${boardId}s`;
    const options = [{ id: 'todo', name: 'To do', color: '#DDDDDD' }, { id: 'doing', name: 'Doing', color: '#FFE08A' }, { id: 'done', name: 'Done', color: '#A8E6A1' }];
    const stage = { id: statusId, board_id: boardId, folder_id: boardId, name: 'Stage', kind: 'status' };
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/attributes/${statusId}`, { ...stage, row_version: 1, settings: { options: [...options, { id: 'retired', name: 'Retired', color: '#999999' }] } });
    for (const [name, stage] of [['Row one', 'todo'], ['Row two', 'todo'], ['Row three', 'todo'], ['Legacy row', 'retired']] as const) {
      const id = (ids[name] = await createItemByApi(world, owner, boardId, name));
      await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/values/${id}.${statusId}`, { id: `${id}.${statusId}`, board_id: boardId, item_id: id, attribute_id: statusId, value: stage, row_version: 1 });
    }
    // "Retired" is taken away: its group still shows the old items but takes no new ones.
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/attributes/${statusId}`, { ...stage, row_version: 2, settings: { options } });
  });
  afterAll(async () => world?.close());

  const serverStage = async (name: string) =>
    (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/values?board_id=${boardId}`)).data.find((v: any) => v.item_id === ids[name] && v.attribute_id === statusId)?.value;

  it('drags rows into another group and within a group, moves them with Alt+arrows, and applies the group rules', async () => {
    const { page, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor();
    await page.getByTestId('group-button').click();
    await page.getByTestId('group-by').selectOption({ label: 'Stage' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await groupsOnScreen(page)).todo).toEqual(['Row one', 'Row two', 'Row three']);
    const row = (name: string) => page.locator(`.table-row[data-item-id="${ids[name]}"]`);
    const header = (key: string) => page.locator(`.table-group-row[data-group-key="${key}"]`);

    // Into another group: dropped on the Done header, the row shows there at once and reaches the server.
    await drag(page, row('Row two'), header('done'));
    await expect.poll(async () => (await groupsOnScreen(page)).done).toEqual(['Row two']);
    await expect.poll(async () => (await groupsOnScreen(page)).todo).toEqual(['Row one', 'Row three']);
    await expect.poll(() => serverStage('Row two'), { timeout: 15_000 }).toBe('done');

    // Within a group: Row three above Row one (upper half of Row one's row).
    await drag(page, row('Row three'), row('Row one'), -10);
    await expect.poll(async () => (await groupsOnScreen(page)).todo).toEqual(['Row three', 'Row one']);

    // A press without moving stays a click: the cell becomes active, nothing moves.
    await row('Row one').locator('.table-cell').nth(1).click();
    await expect.poll(() => row('Row one').locator('.table-cell.is-active').count()).toBe(1);
    expect((await groupsOnScreen(page)).todo).toEqual(['Row three', 'Row one']);

    // From the keyboard: Alt+ArrowDown moves the active row to the next group (Doing).
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(async () => (await groupsOnScreen(page)).doing).toEqual(['Row one']);
    await expect.poll(() => serverStage('Row one'), { timeout: 15_000 }).toBe('doing');

    // The group of an option that no longer exists takes no items (workspace.md §5).
    await drag(page, row('Row three'), header('retired'));
    await expectText(page.locator('.ui-toaster'), 'Items cannot be created or moved into this group.');
    expect((await groupsOnScreen(page)).retired).toEqual(['Legacy row']);
    expect(await serverStage('Row three')).toBe('todo');

    // Undo takes back the last move as one step.
    await page.getByTestId('table-view').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await groupsOnScreen(page)).todo).toContain('Row one');
    expect(errors).toEqual([]);
  });
});
