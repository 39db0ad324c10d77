import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startProxy, type CuttableProxy } from './shell-proxy';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, newId, rowByName, signedInPage, startWorld, USERS, type BoardWorld, renameRow } from './boards-helpers';

/**
 * Issue #30 part 3 in the browser: an edit the server refuses is listed in the conflict inbox with
 * its reason in plain words and the value kept, and the inbox's row itself offers Retry (saves it
 * once the cause is gone) and Discard (asks first; the server's copy stays).
 */

describe('refused edits in the conflict inbox', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let owner: string;
  let boardId: string;
  let folderId: string;
  let itemId: string;

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Inbox refusals');
    folderId = newId('f');
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${folderId}`, { id: folderId, board_id: boardId, parent_id: boardId, name: 'Week 1', row_version: 1 });
    itemId = await createItemByApi(world, owner, boardId, 'Order chairs', folderId);
    proxy = await startProxy(world.server.port);
  });
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  const serverItem = async () =>
    ((await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as any[]).find((i) => i.id === itemId);

  /** Renames the item offline while the owner trashes its folder; back online the server refuses it. */
  async function refusedRename(page: Page, from: string, to: string) {
    proxy.cut();
    await page.getByTestId('offline-banner').waitFor({ timeout: 60_000 });
    await renameRow(page, from, to);
    await rowByName(page, to).waitFor();
    await apiCall(world.server.url, owner, 'DELETE', `/api/${world.teamId}/folders/${folderId}`);
    proxy.restore();
    await page.getByTestId('conflicts-entry').waitFor({ timeout: 60_000 });
    await page.getByTestId('conflicts-entry').click();
    const row = page.getByRole('dialog', { name: 'Conflicts' }).getByTestId('refused-item');
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    return row;
  }

  /** A fresh device of the member on the item's folder (its socket up from the start, so a cut shows). */
  async function device(name: string) {
    proxy.restore();
    // A retry starts from the folder in place.
    await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`).catch(() => undefined);
    const b = await signedInPage(world, USERS.full, proxy.url);
    await b.page.goto(`${proxy.url}/b/${boardId}/${folderId}`);
    await rowByName(b.page, name).waitFor({ timeout: 30_000 });
    await b.page.getByTestId('new-item').waitFor({ timeout: 60_000 });
    return b;
  }

  it('Retry on the inbox row saves the kept value once the cause is gone', async () => {
    const b = await device('Order chairs');
    try {
      const row = await refusedRename(b.page, 'Order chairs', 'Order twelve chairs');
      expect(await row.getByTestId('refused-kept').innerText()).toContain('Order twelve chairs');
      expect(await row.locator('.conflict-reason').innerText()).not.toBe('');
      expect((await serverItem())?.name).toBe('Order chairs');
      await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`);
      await row.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(async () => (await serverItem())?.name, { timeout: 30_000 }).toBe('Order twelve chairs');
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
      await b.page.keyboard.press('Escape');
      await expect.poll(() => b.page.getByTestId('conflicts-entry').count(), { timeout: 30_000 }).toBe(0);
    } finally {
      proxy.restore();
      await b.context.close();
    }
  }, 420_000);

  it('Discard on the inbox row asks first, and the server keeps its copy', async () => {
    const b = await device('Order twelve chairs');
    const page = b.page;
    try {
      const row = await refusedRename(page, 'Order twelve chairs', 'Never ordered');
      await row.getByRole('button', { name: 'Discard' }).click();
      const ask = page.getByRole('dialog', { name: 'Discard this change?' });
      await ask.waitFor({ timeout: 10_000 });
      // Cancel keeps it.
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached', timeout: 10_000 });
      expect(await row.count()).toBe(1);
      await row.getByRole('button', { name: 'Discard' }).click();
      await page.getByRole('dialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('conflicts-entry').count(), { timeout: 30_000 }).toBe(0);
      expect((await serverItem())?.name).toBe('Order twelve chairs');
    } finally {
      proxy.restore();
      await b.context.close();
    }
  }, 420_000);
});
