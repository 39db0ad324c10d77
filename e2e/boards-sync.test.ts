import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startServer } from './helpers';
import { startProxy } from './shell-proxy';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld, renameRow } from './boards-helpers';

const SAME_AS_SERVER = 'Updates overlapped, causing a hiccup. Please verify the latest data is correct.';

/** Counts the 409 conflicts the engine kept in this page's IndexedDB (database cairn-{userId}). */
async function keptConflicts(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^cairn-\d+$/.test(n));
    let total = 0;
    for (const name of names) {
      total += await new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction('conflicts').objectStore('conflicts').count();
          count.onsuccess = () => {
            resolve(count.result);
            db.close();
          };
        };
      });
    }
    return total;
  });
}

describe('boards: live edits between two people, conflicts, offline work', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Together');
    await createItemByApi(world, owner, boardId, 'Shared item');
  });
  afterAll(async () => world?.close());

  it('shows one person’s edit to another live', async () => {
    const a = await signedInPage(world, USERS.owner);
    const b = await signedInPage(world, USERS.full);
    await a.page.goto(`${world.server.url}/b/${boardId}`);
    await b.page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(a.page, 'Shared item').waitFor();
    await rowByName(b.page, 'Shared item').waitFor();
    await b.page.waitForTimeout(2500); // the realtime subscription is authorised in 2 s batches
    await renameRow(a.page, 'Shared item', 'Shared item, edited by A');
    await rowByName(b.page, 'Shared item, edited by A').waitFor({ timeout: 15_000 });
    await a.context.close();
    await b.context.close();
  });

  it('resolves two edits of the same value: a 409 toast, both end on the server’s version, the conflict kept', async () => {
    // Its own item, named per attempt: a retry (decision 0378) starts again from an untouched one.
    const contested = `Contested item ${Date.now()}`;
    await createItemByApi(world, owner, boardId, contested);
    // B reaches the server through a proxy the test can cut: the engine runs in B's SharedWorker,
    // whose fetches and socket Playwright's setOffline does not stop (STACK.md).
    const proxy = await startProxy(world.server.port);
    const a = await signedInPage(world, USERS.owner);
    const b = await signedInPage(world, USERS.full, proxy.url);
    try {
      await a.page.goto(`${world.server.url}/b/${boardId}`);
      await b.page.goto(`${proxy.url}/b/${boardId}`);
      await rowByName(a.page, contested).waitFor();
      await rowByName(b.page, contested).waitFor();

      proxy.cut();
      // Wait until the app knows it is offline: a double-click on a cell while the banner first renders can land as a text selection, not an edit (clean-clone CI).
      await b.page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
      await renameRow(a.page, contested, 'Name from A');
      await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Name from A'));
      await renameRow(b.page, contested, 'Name from B');
      await rowByName(b.page, 'Name from B').waitFor();
      proxy.restore();

      await expectText(b.page.locator('.ui-toaster'), SAME_AS_SERVER, 20_000);
      await rowByName(b.page, 'Name from A').waitFor({ timeout: 15_000 });
      await rowByName(a.page, 'Name from A').waitFor();
      const server = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data;
      expect(server.some((i: any) => i.name === 'Name from A')).toBe(true);
      expect(server.some((i: any) => i.name === 'Name from B')).toBe(false);
      expect(await keptConflicts(b.page)).toBeGreaterThanOrEqual(1);
    } finally {
      await a.context.close();
      await b.context.close();
      await proxy.close();
    }
  });

  it('lets a member edit when the workspace’s own details never came: the role comes from the workspace list', async () => {
    // The tab asks the workspace, its permissions and members when a board opens; the network can go
    // before they answer, or the server can be shutting down (it answers 503 on open connections).
    // Here the workspace answers 503 and the other two get no answer at all (aborted).
    const b = await signedInPage(world, USERS.full);
    try {
      await createItemByApi(world, owner, boardId, 'Edited without details');
      await b.page.route(new RegExp(`/api/teams/${world.teamId}(\\?|$)`), (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service Unavailable' }) }));
      await b.page.route(new RegExp(`/api/(${world.teamId}/permissions|teams/${world.teamId}/members)(\\?|$)`), (route) => route.abort('internetdisconnected'));
      await b.page.goto(`${world.server.url}/b/${boardId}`);
      await renameRow(b.page, 'Edited without details', 'Edited by a member');
      await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Edited by a member'));
    } finally {
      await b.context.close();
    }
  });

  it('keeps working with the server stopped and syncs everything when it is back', async () => {
    const a = await signedInPage(world, USERS.owner);
    await a.page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(a.page, 'Name from A').waitFor();

    const { port, dataDir } = world.server;
    await world.server.stop(); // the network is really gone: nothing answers on that port
    await renameRow(a.page, 'Name from A', 'Renamed offline');
    await a.page.getByTestId('new-item-input').fill('Created offline');
    await a.page.getByTestId('new-item-input').press('Enter');
    await rowByName(a.page, 'Created offline').waitFor();
    await rowByName(a.page, 'Renamed offline').waitFor();

    const restarted = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', DATA_DIR: dataDir, PORT: String(port) });
    world.server = { ...restarted, url: `http://127.0.0.1:${port}`, port };
    await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Renamed offline') && items.some((i) => i.name === 'Created offline'), 60_000);
    await a.context.close();
  });
});
