import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * Issue #30 part 5: offline tells the truth. The network is cut between the browser and the server
 * (a TCP proxy: the SharedWorker ignores the browser's offline switch). One connectivity state is
 * shown, once; the pending-changes count opens the list of what waits; the members and single
 * sign-on screens say they need the server instead of "Loading…" for ever; everything lands and
 * those screens fill in when the network returns.
 */
describe('offline tells the truth', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let page: Page;
  let errors: string[];
  let token: string;
  let boardId: string;
  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    token = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, token, 'Offline truth');
    ({ page, errors } = await signedInPage(world, USERS.owner, proxy.url));
  });
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  const banner = () => page.getByTestId('offline-banner');
  /** In-app navigation, as a link does (no reload: the screens' code stays in the page). */
  const moveInApp = (path: string) =>
    page.evaluate((to) => {
      window.history.pushState(window.history.state, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, path);
  /** The screen says in plain words that it needs the server, and no "Loading…". */
  const needsServer = async (screen: string) => {
    await page
      .getByTestId('needs-server')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: Error) => {
        throw new Error(`${screen} did not say it needs the server (data-testid needs-server): ${error.message.split('\n')[0]}\nThe page showed: ${await page.locator('main').textContent()}`);
      });
    expect(await page.getByText('Loading…').count(), `${screen} shows Loading…`).toBe(0);
  };
  const serverNames = async () => ((await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as { name: string }[]).map((i) => i.name).sort();

  it('one state shown once, a count of what waits that lists it, and the members and single sign-on screens say they need the server', async () => {
    // Visit the members and single sign-on screens online first, so their code is in the page when
    // we come back offline.
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).first().click();
    await page.getByTestId('members').waitFor({ timeout: 30_000 });
    await moveInApp(`/team/${world.teamId}/sso`);
    await page.getByTestId('sso-redirect-uri').waitFor({ timeout: 30_000 });
    // In-app navigation (no reload), so those screens' code stays loaded.
    await moveInApp(`/b/${boardId}`);
    await page.getByTestId('table-view').waitFor({ timeout: 30_000 });
    // The owner's rights come from the server with the board's first open (useWorkspaceInfo): until
    // they are known the board shows what a guest may do, without the new-item row. Cut only once
    // they are (cut before, the row never came: the cause of this test's old failure).
    await page.getByTestId('new-item-input').waitFor({ timeout: 30_000 });

    proxy.cut();
    await banner().waitFor({ timeout: 30_000 });
    const field = page.getByTestId('new-item-input');
    await field.click();
    for (const name of ['Offline one', 'Offline two', 'Offline three']) {
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
    }
    for (const name of ['Offline one', 'Offline two', 'Offline three']) await page.locator('.table-row', { hasText: name }).first().waitFor();

    // The count of what waits, in the banner.
    const pending = page.getByTestId('pending-sync');
    await expect.poll(async () => Number(/(\d+)/.exec((await pending.textContent().catch(() => '')) ?? '')?.[1] ?? 0), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    expect(await pending.textContent()).toMatch(/changes waiting to sync/);
    // One state, once: one banner, and no "Connected" toast beside it.
    expect(await banner().count()).toBe(1);
    expect(await page.locator('.ui-toaster').getByText('Connected', { exact: true }).count()).toBe(0);
    expect(await page.getByText(/You're offline|Can't reach the Cairn server/).count()).toBe(1);
    // The page is not pushed down: the banner floats over it.
    expect(await banner().evaluate((el) => getComputedStyle(el).position)).toBe('fixed');

    // The count opens the list, naming the items.
    await pending.click();
    const list = page.getByTestId('pending-sync-list');
    await list.waitFor();
    for (const name of ['Offline one', 'Offline two', 'Offline three']) await list.getByText(name).first().waitFor();
    await page.keyboard.press('Escape');

    // The members screen needs the server: it says so in plain words.
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).first().click();
    await page.waitForURL(/\/members$/);
    await needsServer('the members screen');
    expect(await page.getByTestId('needs-server').textContent()).toContain('needs a connection to the Cairn server');
    expect(await page.getByText('Loading…').count()).toBe(0);
    expect(await banner().count()).toBe(1);

    // So does the single sign-on screen (it said "Loading…" for ever).
    await moveInApp(`/team/${world.teamId}/sso`);
    await needsServer('the single sign-on screen');
    expect(await page.getByTestId('sso-redirect-uri').count()).toBe(0);
  });

  it('when the network returns: the changes land, the count goes, the screens that needed the server fill in', async () => {
    proxy.restore();
    await expect.poll(() => banner().count(), { timeout: 60_000 }).toBe(0);
    // The single sign-on screen, left open offline, loads by itself; then the members list.
    await page.getByTestId('sso-redirect-uri').waitFor({ timeout: 60_000 });
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).first().click();
    await page.getByTestId('members').waitFor({ timeout: 60_000 });
    await expect.poll(serverNames, { timeout: 60_000 }).toEqual(['Offline one', 'Offline three', 'Offline two']);
    await expect.poll(() => page.getByTestId('pending-sync').count(), { timeout: 30_000 }).toBe(0);
    expect(errors).toEqual([]);
  });
});
