import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * Issue #30 part 2 (the UI): the UX review's two-user scenario (H2). One user renames an item
 * offline; another renames it online; when the first comes back, their value is not lost: the
 * toast names the item and the field and opens the inbox, the row carries a mark, the sidebar and
 * the palette say "Conflicts (1)", the panel shows mine and theirs side by side, and Keep mine
 * saves mine on the server.
 */
describe('the conflict inbox', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let page: Page;
  let errors: string[];
  let owner: string;
  let other: string;
  let boardId: string;
  let itemId: string;
  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    owner = await apiLogin(world.server.url, USERS.owner);
    other = await apiLogin(world.server.url, USERS.admin);
    boardId = await createBoardByApi(world, owner, 'Office Move');
    itemId = await createItemByApi(world, owner, boardId, 'Cafe supplies');
    ({ page, errors } = await signedInPage(world, USERS.owner, proxy.url));
  });
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  const serverItem = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as { id: string; name: string; row_version: number }[]).find((i) => i.id === itemId)!;

  it('keeps the offline rename that lost, names it in the toast, marks the row, and Keep mine saves it', async () => {
    await page.evaluate((path) => {
      window.history.pushState(window.history.state, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, `/b/${boardId}`);
    await page.getByTestId('table-view').waitFor({ timeout: 30_000 });
    await rowByName(page, 'Cafe supplies').waitFor();
    // The owner's rights come from the server with the board's first open; until they are known the
    // board shows what a guest may do (no cell opens for editing). Cut only once they are (the
    // toolbar's New item shows then): cut before, the rename never started (clean-clone CI).
    await page.getByTestId('new-item').waitFor({ timeout: 30_000 });

    proxy.cut();
    await page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await rowByName(page, 'Cafe supplies').locator('.table-cell').nth(1).dblclick();
    const input = page.getByRole('textbox', { name: /^Edit / }).first();
    await input.fill('Cafe supplies (mine)');
    await input.press('Enter');
    await rowByName(page, 'Cafe supplies (mine)').waitFor();

    // The other user renames it online meanwhile.
    const before = await serverItem();
    await apiCall(world.server.url, other, 'PUT', `/api/${world.teamId}/items/${itemId}`, { id: itemId, board_id: boardId, folder_id: boardId, name: 'Cafe supplies (theirs)', row_version: before.row_version + 1 });

    proxy.restore();
    // The toast names the item and the field, and opens the inbox.
    const toast = page.locator('.ui-toaster').getByText(/Updates overlapped/).first();
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.textContent()).toMatch(/Cafe supplies/);
    // One conflict, once: no two identical toasts.
    expect(await page.locator('.ui-toaster').getByText(/Updates overlapped/).count()).toBe(1);

    // The row shows theirs, with the mark; the sidebar says Conflicts (1).
    await rowByName(page, 'Cafe supplies (theirs)').getByTestId('conflict-marker').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('conflicts-entry').textContent(), { timeout: 30_000 }).toContain('Conflicts (1)');

    // The palette offers it too.
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('Conflicts');
    await page.getByRole('option', { name: /Conflicts \(1\)/ }).first().waitFor();
    await page.keyboard.press('Escape');

    // The panel: mine and theirs side by side, who and when; Keep mine.
    await page.getByTestId('conflicts-entry').click();
    const item = page.getByTestId('conflict-item').first();
    await item.waitFor();
    expect(await item.getByTestId('conflict-mine').textContent()).toContain('Cafe supplies (mine)');
    expect(await item.getByTestId('conflict-theirs').textContent()).toContain('Cafe supplies (theirs)');
    expect(await item.getByTestId('conflict-side-by-side').count()).toBe(1);
    expect(await item.textContent()).toMatch(/changed by/);
    await item.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(async () => (await serverItem()).name, { timeout: 60_000 }).toBe('Cafe supplies (mine)');
    await expect.poll(() => page.getByTestId('conflict-item').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('conflicts-entry').count(), { timeout: 30_000 }).toBe(0);
    await page.keyboard.press('Escape');
    await rowByName(page, 'Cafe supplies (mine)').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('conflict-marker').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
