import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';
import { expectToast, loginThroughUi, screenshot } from './shell-helpers';

/** Connectivity UX with the network really cut between browser and server (a TCP proxy). */
describe('offline', () => {
  let server: RunningServer;
  let proxy: CuttableProxy;
  let browser: Browser;
  let page: Page;
  let teamId = 0;

  beforeAll(async () => {
    server = await startServer();
    proxy = await startProxy(server.port);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
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

  it('greys features, keeps what was typed and says why when the network is cut', async () => {
    const emails = page.getByLabel('Emails');
    await emails.fill('later@example.test');
    expect(await page.getByTestId('offline-disabled').count()).toBe(0);

    proxy.cut();
    // The sync worker's realtime socket drops with the cut, so its connection state machine can
    // take the app offline before the click lands (the button is then greyed). Either way, an
    // action tried at the cut fails at once and the user is told for 10 s.
    const invite = page.getByRole('button', { name: 'Invite' });
    const clicked = await invite.click({ timeout: 1500 }).then(() => true, () => false);
    if (clicked) await expectToast(page, 'This action is not available when you are offline.');
    await page.getByTestId('offline-banner').waitFor();
    await expect.poll(() => page.getByTestId('offline-disabled').count()).toBeGreaterThan(0);
    expect(await page.getByText('This feature is not available when offline').first().isVisible()).toBe(true);
    expect(await page.locator('[data-testid=offline-disabled] [inert]').first().count()).toBe(1);
    // Nothing typed is lost.
    expect(await page.locator('#invite-emails, textarea[name=emails]').first().inputValue()).toBe('later@example.test');
    await screenshot(page, 'members-offline.png');
  });

  it('says Connected when the network returns and lets the user finish', async () => {
    proxy.restore();
    await expectToast(page, 'Connected');
    await expect.poll(() => page.getByTestId('offline-disabled').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByLabel('Emails').inputValue()).toBe('later@example.test');
    expect(new URL(page.url()).pathname).toBe(`/team/${teamId}/members`);
  });

  it('stays in the app when a screen never opened before is opened offline (its code from the service worker, its data not yet), and fills it in on return', async () => {
    proxy.cut();
    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).first().click();
    await expect.poll(() => page.getByTestId('offline-banner').count(), { timeout: 10_000 }).toBe(1);
    expect(page.url().startsWith(proxy.url)).toBe(true);
    proxy.restore();
    await expectToast(page, 'Connected');
    await page.getByLabel('Workspace name').waitFor({ timeout: 15_000 });
  });
});
