import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';
import { expectToast, loginThroughUi } from './shell-helpers';

/**
 * Issue #17 part 7, connectivity truth, in Chromium: the server not answering while the network is
 * up, and the network itself gone, each give one indicator with its own true words (never both),
 * a page that needs the server says so instead of loading for ever, and the return says Connected.
 * The server is "stopped" for the browser by cutting the TCP proxy every request goes through (the
 * browser still believes it is online); the network is cut with the context's offline mode on top.
 */
describe('connectivity truth (issue #17 part 7)', () => {
  let server: RunningServer;
  let proxy: CuttableProxy;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let teamId = 0;

  beforeAll(async () => {
    server = await startServer();
    proxy = await startProxy(server.port);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    await loginThroughUi(page, proxy.url);
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).first().click();
    await page.waitForURL(/\/team\/\d+\/members$/);
    teamId = Number(/\/team\/(\d+)\//.exec(page.url())![1]);
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.stop();
  });

  const banner = () => page.getByTestId('offline-banner');

  it('says the server cannot be reached (not “offline”) when the network is up and the server does not answer', async () => {
    expect(await banner().count()).toBe(0);
    proxy.cut();
    // Something asks the server: the members list again.
    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).first().click();
    await expect.poll(() => banner().count(), { timeout: 30_000 }).toBe(1);
    expect(await banner().getAttribute('data-reason')).toBe('server');
    expect(await banner().textContent()).toContain("Can't reach the Cairn server");
    expect(await page.getByText(/You're offline/).count()).toBe(0);
  });

  it('says “offline” (one message, not two) when the network itself is gone', async () => {
    await context.setOffline(true);
    await expect.poll(() => banner().getAttribute('data-reason'), { timeout: 15_000 }).toBe('network');
    expect(await banner().textContent()).toContain("You're offline");
    expect(await banner().count()).toBe(1);
    expect(await page.getByText(/Can't reach the Cairn server/).count()).toBe(0);
  });

  it('a page that needs the server says so offline instead of loading for ever', async () => {
    // Moved to inside the app (a reload needs the service worker, which a test build may not have yet).
    await page.evaluate((path) => {
      window.history.pushState(window.history.state, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, `/team/${teamId}/permissions`);
    await page.waitForURL(/\/permissions$/);
    // Either the screen's code was cached and its data is what is missing (its own note), or the
    // code itself cannot come (the shell's page with Try again): never a spinner for ever.
    const note = page.getByText('Permissions are kept on the server. They show here when you are back online.');
    const noCode = page.getByTestId('route-error').getByText('This feature is not available when offline');
    await expect.poll(async () => (await note.count()) + (await noCode.count()), { timeout: 30_000 }).toBe(1);
    expect(await page.getByText('Loading…').count()).toBe(0);
    expect(await page.locator('main [role=progressbar], main .ui-spinner').count()).toBe(0);
  });

  it('says Connected when both come back, and the page fills in', async () => {
    await context.setOffline(false);
    proxy.restore();
    await expectToast(page, 'Connected');
    await expect.poll(() => banner().count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('workspace-permissions').waitFor({ timeout: 30_000 });
  });
});
