/**
 * Issue #27, smaller shell rows in Chromium against the real server: `create-board?start=template`
 * opens the template gallery first (S2.17), and on a phone, pulling the page down past half of
 * 250 px and letting go reloads it (S4.24).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { PASSWORD, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

let world: BoardWorld;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  world = await startWorld();
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
});
afterAll(async () => {
  await world?.close();
});

async function pageAs(email: string): Promise<Page> {
  const { context, page } = await signedInPage(world, email);
  contexts.push(context);
  return page;
}

describe('spec words and shell rules (issue #27)', () => {
  it('create-board?start=template opens the template gallery first', async () => {
    const page = await pageAs(USERS.owner);
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/create?start=template`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/templates');
    expect(new URL(page.url()).searchParams.get('teamId')).toBe(String(world.teamId));
    // Without it the page itself opens.
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/create`);
    await page.getByTestId('create-board-form').waitFor();
  });

  it('reloads the page on a phone when pulled down past half of 250 px and let go', async () => {
    const context = await world.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(world.server.url + '/login');
    await page.getByLabel('Email').fill(USERS.owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/, { timeout: 60_000 });
    await page.locator('.shell-ptr').waitFor();
    await page.evaluate(() => ((window as unknown as { beforePull: boolean }).beforePull = true));

    const cdp = await context.newCDPSession(page);
    const at = (y: number) => [{ x: 195, y, id: 1 }];
    const pull = async (to: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(200) });
      for (let y = 200; y <= to; y += 20) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(y) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    // A short pull (under half of 250 px) springs back: no reload.
    await pull(300);
    await expect.poll(() => page.locator('.shell-ptr').getAttribute('data-pull-phase')).toBe('idle');
    expect(await page.evaluate(() => (window as unknown as { beforePull?: boolean }).beforePull)).toBe(true);
    // A long one reloads the page (the marker set on this document is gone).
    await pull(560);
    await expect.poll(() => page.evaluate(() => (window as unknown as { beforePull?: boolean }).beforePull ?? false).catch(() => true), { timeout: 30_000 }).toBe(false);
    await cdp.detach().catch(() => undefined);
  });
});
