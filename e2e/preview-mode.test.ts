import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { anonymousPage, apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld, renameRow } from './boards-helpers';

/**
 * Preview (pretend) mode in the BUILT app (decision 0280): a `?pretend` tab runs its own engine
 * over its own database, so its edits show at once there, never reach the server and never reach
 * the user's other tabs, which keep saving through the shared worker. Every permission is open in
 * preview (an anonymous visitor of a public board may edit there too), and a badge leads out.
 */

/** Every request of the page that could change something on the server (session upkeep and error reports aside). */
function watchWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' || !url.pathname.startsWith('/api/')) return;
    if (url.pathname === '/api/auth/refresh' || url.pathname === '/api/log') return;
    writes.push(`${request.method()} ${url.pathname}`);
  });
  return writes;
}

describe('preview mode', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let context: BrowserContext;
  let normal: Page;

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Preview board');
    await createItemByApi(world, owner, boardId, 'Shared item');
    await createItemByApi(world, owner, boardId, 'Real item');
    ({ context, page: normal } = await signedInPage(world, USERS.owner));
  }, 120_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await world?.close();
  });

  const serverNames = async (): Promise<string[]> => (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data.map((i: { name: string }) => i.name).sort();

  it('a preview tab keeps its edits to itself while a normal tab of the same browser saves', async () => {
    await normal.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(normal, 'Shared item').waitFor({ timeout: 20_000 });
    expect(await normal.getByTestId('preview-badge').count()).toBe(0);

    // A preview database left by a crashed preview tab (nobody holds its lock).
    await normal.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('cairn-preview-leftover01');
          open.onsuccess = () => (open.result.close(), resolve());
          open.onerror = () => reject(open.error);
        }),
    );

    const preview = await context.newPage();
    const writes = watchWrites(preview);
    await preview.goto(`${world.server.url}/b/${boardId}?pretend`);
    await preview.getByTestId('preview-badge').waitFor();
    await rowByName(preview, 'Shared item').waitFor({ timeout: 20_000 });
    // The badge passes axe (serious and critical), light and dark.
    for (const theme of ['light', 'dark']) {
      await preview.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      const { violations } = await new AxeBuilder({ page: preview }).include('[data-testid="preview-badge"]').analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme}: ${v.id}`)).toEqual([]);
    }
    // The tab has its own preview database, and the abandoned one is gone.
    const previewDbs = async () => (await preview.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''))).filter((n) => n.startsWith('cairn-preview-'));
    await expect.poll(previewDbs).toHaveLength(1);
    expect((await previewDbs())[0]).toMatch(/^cairn-preview-(?!leftover01)[A-Za-z0-9_-]{10}$/);

    // Edited in preview: shown there at once, sent nowhere.
    await renameRow(preview, 'Shared item', 'Shared item, preview only');
    await rowByName(preview, 'Shared item, preview only').waitFor({ timeout: 30_000 });

    // Edited in the normal tab: reaches the server through the shared worker as always.
    await renameRow(normal, 'Real item', 'Real item, saved');
    await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Real item, saved'));
    // The normal tab's edit went out after the preview's: had the preview's been sent, it would be there too.
    expect(await serverNames()).toEqual(['Real item, saved', 'Shared item']);
    await rowByName(normal, 'Shared item').waitFor();
    expect(await rowByName(normal, 'Shared item, preview only').count()).toBe(0);
    expect(writes).toEqual([]);
    // The preview tab has no realtime: it catches up with the server when it comes back into view,
    // and keeps its own edit.
    await preview.evaluate(() => window.dispatchEvent(new Event('focus')));
    await rowByName(preview, 'Real item, saved').waitFor({ timeout: 10_000 });
    await rowByName(preview, 'Shared item, preview only').waitFor();
    expect(writes).toEqual([]);

    // Leaving preview: the same address without `pretend`, the server's data, no badge.
    await preview.getByTestId('preview-exit').click();
    await preview.waitForURL((url) => !url.search.includes('pretend'));
    await rowByName(preview, 'Shared item').waitFor({ timeout: 20_000 });
    expect(await preview.getByTestId('preview-badge').count()).toBe(0);
    expect(await rowByName(preview, 'Shared item, preview only').count()).toBe(0);
    // The preview tab's own database went with the page.
    await expect.poll(async () => (await preview.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''))).filter((n) => n.startsWith('cairn-preview-'))).toEqual([]);
    await preview.close();
  }, 120_000);

  it('opens every permission: an anonymous visitor of a public board may edit in preview, and nothing is saved', async () => {
    const board = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: { id: string }) => f.id === boardId);
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: board.row_version + 1 });
    const guest = await anonymousPage(world);
    try {
      // Without preview a visitor only reads.
      await guest.page.goto(`${world.server.url}/b/${boardId}?team=${world.teamId}`);
      await guest.page.getByTestId('board-readonly').waitFor({ timeout: 20_000 });
      // With preview everything is allowed, and stays in the tab.
      const writes = watchWrites(guest.page);
      await guest.page.goto(`${world.server.url}/b/${boardId}?team=${world.teamId}&pretend`);
      await guest.page.getByTestId('preview-badge').waitFor();
      await rowByName(guest.page, 'Shared item').waitFor({ timeout: 20_000 });
      expect(await guest.page.getByTestId('board-readonly').count()).toBe(0);
      await renameRow(guest.page, 'Shared item', 'Shared item, by a visitor');
      await rowByName(guest.page, 'Shared item, by a visitor').waitFor({ timeout: 30_000 });
      expect(writes).toEqual([]);
      expect(await serverNames()).toEqual(['Real item, saved', 'Shared item']);
    } finally {
      await guest.context.close();
    }
  }, 90_000);
});
