import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, PASSWORD, rowByName, startWorld, USERS, waitForServerCopy, type BoardWorld, renameRow } from './boards-helpers';
import { networkSettled, trackNetwork } from './shell-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * The BUILT app with its SharedWorker (DESIGN.md §1): two tabs of one signed-in user share the
 * worker, an edit in one shows in the other, and work done with the network really cut survives
 * closing every tab (the worker itself goes away) and a reopen while still cut (the service worker
 * serves the app shell, decision 0080), and reaches the server once when the network returns.
 *
 * The browser reaches the server only through a TCP proxy the test can cut: Playwright's setOffline
 * does not stop a SharedWorker's fetches (STACK.md), a cut proxy stops everything.
 */

/** Requests waiting in the worker's queue (the user's database, read-only from the tab). */
async function pendingRequests(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^cairn-\d+$/.test(n));
    let total = 0;
    for (const name of names) {
      total += await new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction('failedRequests').objectStore('failedRequests').count();
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

/** The service worker of this build is active and controls the page (its precache is complete). */
async function serviceWorkerInControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

/** Item names in the local replica (the user's database, read-only from the tab). */
async function localItemNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^cairn-\d+$/.test(n));
    const found: string[] = [];
    for (const name of names) {
      const rows = await new Promise<{ collection: string; name?: string }[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('records').objectStore('records').getAll();
          all.onsuccess = () => {
            resolve(all.result);
            db.close();
          };
        };
      });
      for (const row of rows) if (row.collection === 'item' && typeof row.name === 'string') found.push(row.name);
    }
    return found;
  });
}

describe('the app’s two tabs share the sync worker', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let owner: string;
  let boardId: string;
  let context: BrowserContext;
  const EDITS = 50;

  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Worker tabs');
    await createItemByApi(world, owner, boardId, 'Tab item');
    for (let i = 0; i < EDITS; i++) await createItemByApi(world, owner, boardId, `Row ${String(i).padStart(2, '0')}`);
    context = await world.browser.newContext();
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await proxy?.close();
    await world?.close();
  });

  const serverItems = async (): Promise<{ name: string; row_version: number }[]> => (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data;

  async function openBoardTab(): Promise<Page> {
    const page = await context.newPage();
    trackNetwork(page);
    await page.goto(`${proxy.url}/b/${boardId}`);
    await rowByName(page, 'Tab item').waitFor({ timeout: 20_000 });
    // The tab's own requests are over before a cut (the service worker precaches every chunk).
    await networkSettled(page);
    return page;
  }

  it('an edit in one tab shows in the other (one worker writes, both tabs read)', async () => {
    const login = await context.newPage();
    await login.goto(proxy.url + '/login');
    await login.getByLabel('Email').fill(USERS.owner);
    await login.getByLabel('Password').fill(PASSWORD);
    await login.getByRole('button', { name: 'Log in' }).click();
    await login.waitForURL(/\/home$/);
    await login.close();

    const a = await openBoardTab();
    const b = await openBoardTab();
    // Both tabs talk to one worker: Chromium lists exactly one shared worker for the two pages.
    const cdp = await world.browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.type === 'shared_worker')).toHaveLength(1);
    await renameRow(a, 'Tab item', 'Tab item, edited in A');
    await rowByName(b, 'Tab item, edited in A').waitFor({ timeout: 30_000 });
    await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Tab item, edited in A'));
    await a.close();
    await b.close();
  });

  it(`${EDITS} edits made with the network cut survive closing every tab and a reopen while still cut, and reach the server exactly once`, async () => {
    // Issue #3's order: cut, edit, close every tab, REOPEN while still cut, then the network returns.
    const a = await openBoardTab();
    await rowByName(a, 'Row 00').waitFor();
    await networkSettled(a);
    await serviceWorkerInControl(a);
    proxy.cut();
    // Wait until the app knows it is offline: a double-click on a cell while the banner first renders can land as a text selection, not an edit (clean-clone CI).
    await a.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    for (let i = 0; i < EDITS; i++) {
      const from = `Row ${String(i).padStart(2, '0')}`;
      await renameRow(a, from, `${from} offline`);
      await rowByName(a, `${from} offline`).waitFor();
    }
    // Kept by the worker, not sent: nothing of it is on the server.
    await expect.poll(() => pendingRequests(a), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect((await serverItems()).filter((i) => / offline$/.test(i.name))).toHaveLength(0);

    // Close every tab: the SharedWorker goes with them; the queue lives in IndexedDB.
    await a.close();
    const cdp = await world.browser.newBrowserCDPSession();
    await expect
      .poll(async () => ((await cdp.send('Target.getTargets')) as { targetInfos: { type: string }[] }).targetInfos.filter((t) => t.type === 'shared_worker').length, { timeout: 10_000 })
      .toBe(0);
    await cdp.detach();

    // Reopen with the network still cut: the service worker serves the app, the user stays signed
    // in, and the board shows every edit from the local replica while the queue still holds them.
    const again = await context.newPage();
    await again.goto(`${proxy.url}/b/${boardId}`);
    // The table draws the rows in view; the replica behind it holds all fifty edits.
    for (let i = 0; i < 10; i++) await rowByName(again, `Row ${String(i).padStart(2, '0')} offline`).waitFor({ timeout: 20_000 });
    expect(await localItemNames(again).then((names) => names.filter((n) => / offline$/.test(n)).length)).toBe(EDITS);
    await again.getByTestId('offline-banner').waitFor();
    expect(await pendingRequests(again)).toBeGreaterThanOrEqual(1);
    expect((await serverItems()).filter((i) => / offline$/.test(i.name))).toHaveLength(0);

    // The network returns: every edit reaches the server, each applied once (version 1 → 2).
    proxy.restore();
    await waitForServerCopy(world, owner, 'items', boardId, (items) => items.filter((i) => / offline$/.test(i.name)).length === EDITS, 60_000);
    await expect.poll(() => pendingRequests(again), { timeout: 20_000 }).toBe(0);
    const renamed = (await serverItems()).filter((i) => /^Row \d\d offline$/.test(i.name));
    expect(renamed).toHaveLength(EDITS);
    expect(renamed.every((i) => i.row_version === 2)).toBe(true);
    await again.close();
  }, 240_000);
});
