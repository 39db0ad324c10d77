import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, expectText, createBoardInUi, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

describe('boards: create, items, attributes, table editing', () => {
  let world: BoardWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => world?.close());

  it('creates a board (name required), adds and renames items inline, and syncs them', async () => {
    const { page, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/create`);
    await page.getByRole('button', { name: 'Create board' }).click();
    await expectText(page.getByRole('alert'), 'enter the board name');
    const boardId = await createBoardInUi(page, world, 'Roadmap');
    await expectText(page.locator('.folder-title'), 'Roadmap');

    await page.getByTestId('new-item').click();
    await page.waitForURL(/\/b\/.+\/.+\/.+/);
    await page.getByTestId('item-panel').waitFor();
    const row = rowByName(page, 'New item');
    await row.locator('.table-cell').nth(1).dblclick();
    const input = page.getByLabel('Edit Item');
    await input.fill('Write the plan');
    await input.press('Enter');
    await rowByName(page, 'Write the plan').waitFor();

    const token = await apiLogin(world.server.url, USERS.owner);
    await waitForServerCopy(world, token, 'items', boardId, (items) => items.some((i) => i.name === 'Write the plan'));
    expect(errors).toEqual([]);
  });
});
