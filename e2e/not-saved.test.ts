import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startProxy, type CuttableProxy } from './shell-proxy';
import { screenshot } from './shell-helpers';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, newId, rowByName, signedInPage, startWorld, USERS, type BoardWorld, renameRow } from './boards-helpers';

/**
 * Decision 0094 in the browser: an edit the server refuses (its folder went to the trash while the
 * user was offline) is not lost: it shows in "Not saved" on the connectivity indicator with its
 * content, can be copied, and Retry after the folder is restored saves it.
 */

describe('not saved: refused edits are kept and can be retried', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let owner: string;
  let boardId: string;
  let folderId: string;
  let itemId: string;

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Launch');
    folderId = newId('f');
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${folderId}`, { id: folderId, board_id: boardId, parent_id: boardId, name: 'Week 1', row_version: 1 });
    itemId = await createItemByApi(world, owner, boardId, 'Draft the brief', folderId);
    // The member reaches the server through a proxy the test can cut (the engine runs in a
    // SharedWorker, whose fetches and socket Playwright's setOffline does not stop).
    proxy = await startProxy(world.server.port);
  });
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  const serverItem = async () =>
    ((await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as any[]).find((i) => i.id === itemId);

  it('shows the refused edit with its content and the server message; Retry after the folder is restored saves it', async () => {
    const b = await signedInPage(world, USERS.full, proxy.url);
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: proxy.url });
    await b.page.goto(`${proxy.url}/b/${boardId}/${folderId}`);
    await rowByName(b.page, 'Draft the brief').waitFor({ timeout: 15_000 });
    expect(await b.page.getByTestId('not-saved-indicator').count()).toBe(0);

    // Offline, the member renames the item; meanwhile the owner trashes its folder.
    proxy.cut();
    // Wait until the app knows it is offline: a double-click on a cell while the banner first renders can land as a text selection, not an edit (clean-clone CI).
    await b.page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await renameRow(b.page, 'Draft the brief', 'Brief, rewritten offline');
    await rowByName(b.page, 'Brief, rewritten offline').waitFor();
    await apiCall(world.server.url, owner, 'DELETE', `/api/${world.teamId}/folders/${folderId}`);
    proxy.restore();

    // Back online, the server refuses the edit: it is kept and the indicator says so.
    const indicator = b.page.getByTestId('not-saved-indicator');
    await indicator.waitFor({ timeout: 30_000 });
    expect(await indicator.innerText()).toContain('1 change was not saved');
    expect((await serverItem())?.name ?? null).not.toBe('Brief, rewritten offline');
    await indicator.getByRole('button', { name: 'Review' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Not saved' });
    const row = dialog.getByTestId('not-saved-row');
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('Brief, rewritten offline');
    expect(text).toMatch(/folder/i); // the server's message names the missing folder

    // Copy puts the whole edit on the clipboard as JSON.
    await row.getByRole('button', { name: 'Copy' }).click();
    const copied = JSON.parse(await b.page.evaluate(() => navigator.clipboard.readText()));
    expect(copied).toMatchObject({ collection: 'item', id: itemId, method: 'put', record: { name: 'Brief, rewritten offline', folder_id: folderId } });

    // The owner restores the folder; Retry now saves the edit.
    await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(async () => (await serverItem())?.name, { timeout: 20_000 }).toBe('Brief, rewritten offline');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await b.page.keyboard.press('Escape');
    await expect.poll(() => indicator.count(), { timeout: 10_000 }).toBe(0);
    await b.context.close();
  });

  it('Discard removes a refused edit for good; the list follows in a second tab', async () => {
    const b = await signedInPage(world, USERS.full, proxy.url);
    await b.page.goto(`${proxy.url}/b/${boardId}/${folderId}`);
    await rowByName(b.page, 'Brief, rewritten offline').waitFor({ timeout: 15_000 });
    const second = await b.context.newPage();
    await second.goto(`${proxy.url}/b/${boardId}/${folderId}`);
    await rowByName(second, 'Brief, rewritten offline').waitFor({ timeout: 15_000 });

    proxy.cut();
    // Wait until the app knows it is offline: a double-click on a cell while the banner first renders can land as a text selection, not an edit (clean-clone CI).
    await b.page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await b.page.bringToFront();
    await renameRow(b.page, 'Brief, rewritten offline', 'Never to be');
    await rowByName(b.page, 'Never to be').waitFor();
    await apiCall(world.server.url, owner, 'DELETE', `/api/${world.teamId}/folders/${folderId}`);
    proxy.restore();

    // Both tabs show it (the worker's event reaches every tab).
    await b.page.getByTestId('not-saved-indicator').waitFor({ timeout: 30_000 });
    await second.bringToFront();
    await second.getByTestId('not-saved-indicator').waitFor({ timeout: 10_000 });
    await second.getByTestId('not-saved-indicator').getByRole('button', { name: 'Review' }).click();
    const row = second.getByRole('dialog', { name: 'Not saved' }).getByTestId('not-saved-row');
    await row.getByRole('button', { name: 'Discard' }).click();
    await second.getByRole('dialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => b.page.getByTestId('not-saved-indicator').count(), { timeout: 10_000 }).toBe(0);
    expect((await serverItem())?.name ?? null).not.toBe('Never to be');
    await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`);
    await b.context.close();
  });

  it('reads right to left in Arabic and fits a 390 px phone', async () => {
    const b = await signedInPage(world, USERS.full, proxy.url);
    await b.page.goto(`${proxy.url}/b/${boardId}/${folderId}`);
    await rowByName(b.page, 'Brief, rewritten offline').waitFor({ timeout: 15_000 });
    proxy.cut();
    // Wait until the app knows it is offline: a double-click on a cell while the banner first renders can land as a text selection, not an edit (clean-clone CI).
    await b.page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await renameRow(b.page, 'Brief, rewritten offline', 'مسودة الموجز');
    await rowByName(b.page, 'مسودة الموجز').waitFor();
    await apiCall(world.server.url, owner, 'DELETE', `/api/${world.teamId}/folders/${folderId}`);
    proxy.restore();
    await b.page.getByTestId('not-saved-indicator').waitFor({ timeout: 30_000 });

    await b.page.goto(`${proxy.url}/profile/settings`);
    await b.page.getByLabel('Language').selectOption('ar');
    await b.page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => b.page.evaluate(() => [document.documentElement.lang, document.documentElement.dir].join(' '))).toBe('ar rtl');
    await b.page.setViewportSize({ width: 390, height: 800 });
    const indicator = b.page.getByTestId('not-saved-indicator');
    await expect.poll(() => indicator.innerText(), { timeout: 10_000 }).toContain('لم يُحفظ تغيير واحد');
    await indicator.getByRole('button', { name: 'مراجعة' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'لم يُحفظ' });
    await dialog.getByTestId('not-saved-row').waitFor();
    expect(await dialog.innerText()).toContain('مسودة الموجز');
    for (const name of ['إعادة المحاولة', 'نسخ', 'تجاهل']) expect(await dialog.getByRole('button', { name }).count()).toBe(1);
    // Nothing sticks out of a phone's width, and the dialog is laid out right to left.
    const layout = await b.page.evaluate(() => {
      const panel = document.querySelector('.not-saved-dialog')!.getBoundingClientRect();
      const row = document.querySelector('.not-saved-row')!;
      return { left: panel.left, right: panel.right, width: window.innerWidth, scroll: document.documentElement.scrollWidth, direction: getComputedStyle(row).direction };
    });
    expect(layout.left).toBeGreaterThanOrEqual(0);
    expect(layout.right).toBeLessThanOrEqual(layout.width);
    expect(layout.scroll).toBeLessThanOrEqual(layout.width);
    expect(layout.direction).toBe('rtl');
    await screenshot(b.page, 'not-saved-ar-390.png');
    await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/folders/${folderId}/restore`);
    await b.context.close();
  });

  it('"Log out and remove this device\'s copy" asks, then deletes the user\'s database', async () => {
    const a = await signedInPage(world, USERS.admin, proxy.url);
    const userDbs = () => a.page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^cairn-\d+$/.test(n)));
    await a.page.goto(`${proxy.url}/b/${boardId}`);
    await expect.poll(userDbs, { timeout: 15_000 }).toHaveLength(1);
    await a.page.getByRole('button', { name: "Log out and remove this device's copy" }).click();
    const ask = a.page.getByRole('dialog', { name: "Log out and remove this device's copy?" });
    await ask.getByRole('button', { name: 'Log out and remove' }).click();
    await a.page.waitForURL(/\/login$/);
    await expect.poll(userDbs, { timeout: 15_000 }).toEqual([]);
    await a.context.close();
  });
});
