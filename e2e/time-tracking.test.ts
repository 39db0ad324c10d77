import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, newId, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * Issue #15, time tracking end to end in Chromium against the real server: with the network really
 * cut (a TCP proxy between the browser and the server), a timer is started on the item panel's
 * Time tab — it runs and ticks there and in the frame — and stopped; when the network comes back
 * the entry reaches the server exactly once, stopped, with its description. A second tab of the
 * same browser shows the running timer ticking in its frame, and its end, while offline.
 */
describe('time tracking', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let token: string;
  let boardId: string;
  let itemId: string;
  let attributeId: string;

  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    token = await apiLogin(world.server.url, USERS.full);
    boardId = await createBoardByApi(world, token, 'Hours board');
    itemId = await createItemByApi(world, token, boardId, 'Write the report');
    attributeId = newId('a');
    await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/attributes/${attributeId}`, {
      id: attributeId, board_id: boardId, folder_id: boardId, name: 'Time', kind: 'time-tracking', settings: { allowParallel: false, sharedEntries: true }, position: 1, row_version: 1,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await world?.close();
  });

  const serverEntries = async () => (await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/time-tracking/${boardId}`)).data as { description: string; ended_at: string | null; item_id: string }[];

  it('a timer started and stopped offline reaches the server once when the network is back', async () => {
    const { page, context } = await signedInPage(world, USERS.full, proxy.url);
    await page.goto(`${proxy.url}/b/${boardId}/${boardId}/${itemId}?t=time`);
    // The Time tab's own control: the tab is a chunk of its own, and it must have arrived before the
    // network goes (the table cell's control shows earlier, with the board's chunk).
    const start = page.getByTestId('time-entries').getByRole('button', { name: 'Start a timer on Write the report' });
    await start.waitFor({ timeout: 30_000 });
    // A second tab of the same browser, open on the board: the running timer shows there too.
    const other = await context.newPage();
    await other.goto(`${proxy.url}/b/${boardId}`);
    await other.getByTestId('table-view').waitFor({ timeout: 30_000 });
    // The frame's running-timers part is a chunk loaded when a timer runs: offline it comes from the
    // service worker's precache, so the cut waits for that worker to be in control (on a loaded
    // machine its install could still be caching when the network went).
    await other.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    });

    proxy.cut();
    await start.click();
    const dialog = page.getByRole('dialog', { name: 'Start a timer on Write the report' });
    await dialog.getByRole('button', { name: 'Start' }).click();
    await dialog.getByRole('alert').waitFor(); // a start needs a description
    await dialog.getByTestId('time-description').fill('Offline drafting');
    await dialog.getByRole('button', { name: 'Start' }).click();

    // Running at once from the replica: in the tab, and in the frame's running timers, ticking.
    const entry = page.getByTestId('time-entries').locator('.time-entry').filter({ hasText: 'Offline drafting' });
    await entry.waitFor();
    const frame = page.getByTestId('running-timers');
    await frame.getByText('Write the report').waitFor();
    const first = await frame.locator('.time-figure').textContent();
    await expect.poll(() => frame.locator('.time-figure').textContent(), { timeout: 30_000 }).not.toBe(first);
    const otherFrame = other.getByTestId('running-timers');
    await otherFrame.getByText('Write the report').waitFor({ timeout: 15_000 });
    const otherFirst = await otherFrame.locator('.time-figure').textContent();
    await expect.poll(() => otherFrame.locator('.time-figure').textContent(), { timeout: 30_000 }).not.toBe(otherFirst);

    await page.getByTestId('time-entries').getByRole('button', { name: 'Stop the timer on Write the report' }).click();
    await frame.waitFor({ state: 'detached' });
    await otherFrame.waitFor({ state: 'detached', timeout: 15_000 }); // stopped in the other tab too
    await page.getByTestId('time-entries').getByRole('button', { name: 'Start a timer on Write the report' }).waitFor();
    expect(await serverEntries()).toEqual([]); // nothing got through while cut

    proxy.restore();
    await expect.poll(async () => (await serverEntries()).filter((e) => e.description === 'Offline drafting').length, { timeout: 40_000 }).toBe(1);
    const [saved] = (await serverEntries()).filter((e) => e.description === 'Offline drafting');
    expect(saved!.item_id).toBe(itemId);
    await expect.poll(async () => (await serverEntries()).find((e) => e.description === 'Offline drafting')?.ended_at ?? null, { timeout: 20_000 }).not.toBeNull();
    // And still once after everything settled.
    await page.waitForTimeout(1000);
    expect((await serverEntries()).filter((e) => e.description === 'Offline drafting')).toHaveLength(1);
    await context.close();
  });

  it('"My time" shows this week’s totals from the server and downloads them as CSV', async () => {
    const now = Date.now();
    await apiCall(world.server.url, token, 'POST', `/api/${world.teamId}/time-tracking`, {
      id: newId('te'), board_id: boardId, item_id: itemId, attribute_id: attributeId, description: 'Reviewing, with "quotes"', started_at: new Date(now - 40 * 60_000).toISOString(), ended_at: new Date(now - 10 * 60_000).toISOString(), row_version: 1,
    });
    const { page, context } = await signedInPage(world, USERS.full);
    await page.goto(`${world.server.url}/profile/time`);
    const screen = page.getByTestId('my-time');
    await screen.waitFor({ timeout: 30_000 });
    await expect.poll(() => screen.getByTestId('my-time-week-total').textContent(), { timeout: 15_000 }).toMatch(/^0:3\d$/);
    await screen.getByText('Reviewing, with "quotes"').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('my-time-csv').click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain('"Reviewing, with ""quotes"""');
    expect(csv).toContain('0:30');
    expect(csv).toContain('Write the report');
    await context.close();
  });
});
