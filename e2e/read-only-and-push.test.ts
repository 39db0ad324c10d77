/**
 * Issue #27 in Chromium against the real server:
 * - W4.3 (decision 0360): once the workspace's trial has expired, its front page and its boards say
 *   so in the spec's words ("Your trial has expired. Buy a plan to continue."), the owner is led to
 *   the plans, a member is told to ask the owner, and nothing offers an edit; the server refuses one.
 * - S8.10: switching push on when the browser denies notifications says "User denied permissions!".
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startServer } from './helpers';
import { openDatabase } from '../server/db/index';

let world: BoardWorld;
let boardId: string;
const contexts: BrowserContext[] = [];
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  world = await startWorld();
  const owner = await apiLogin(world.server.url, USERS.owner);
  boardId = await createBoardByApi(world, owner, 'Plan ended board');
  await createItemByApi(world, owner, boardId, 'Kept item');
  // The trial ended yesterday: the server is stopped, the subscription's dates moved, the server started again.
  const { port, dataDir } = world.server;
  await world.server.stop();
  const handle = await openDatabase({ databaseUrl: null, dataDir: path.resolve(dataDir) });
  try {
    const team = await handle.db.selectFrom('teams').select('subscription_id').where('id', '=', world.teamId).executeTakeFirstOrThrow();
    const ended = new Date(Date.now() - DAY);
    await handle.db.updateTable('subscriptions').set({ deal: 'pro', trial_ends_at: ended, ends_at: ended }).where('id', '=', team.subscription_id!).execute();
  } finally {
    await handle.close();
  }
  const restarted = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', DATA_DIR: dataDir, PORT: String(port) });
  world.server = { ...restarted, url: `http://127.0.0.1:${port}`, port };
}, 600_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
});
afterAll(async () => {
  await world?.close();
});

async function pageAs(email: string): Promise<{ page: Page; errors: string[]; context: BrowserContext }> {
  const signed = await signedInPage(world, email);
  contexts.push(signed.context);
  return signed;
}

describe('a workspace whose trial expired (W4.3)', () => {
  it('shows the owner the spec’s words and the plans, offers no edit, and the server refuses one', async () => {
    const { page, errors } = await pageAs(USERS.owner);
    await page.goto(`${world.server.url}/team/${world.teamId}`);
    const banner = page.getByTestId('read-only-banner');
    await banner.getByText('Your trial has expired. Buy a plan to continue.').waitFor();
    await banner.getByText('You can still open and export everything, but nothing can be changed.').waitFor();
    expect(await banner.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe('/profile/billing');
    expect(await page.getByTestId('overview-new-board').count()).toBe(0);

    // The board opens with its item, and no way to add one.
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('read-only-banner').getByText('Your trial has expired. Buy a plan to continue.').waitFor();
    await page.getByText('Kept item').first().waitFor();
    expect(await page.getByTestId('new-item').count()).toBe(0);

    // The server decides: a save from this user is refused with the same words.
    const token = await apiLogin(world.server.url, USERS.owner);
    const refused = await fetch(`${world.server.url}/api/${world.teamId}/items/e2eRefused1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'e2eRefused1', board_id: boardId, folder_id: boardId, name: 'Nope', row_version: 1 }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: 'workspace_read_only', message: 'Your trial has expired. Buy a plan to continue.' });
    expect(errors).toEqual([]);
  });

  it('tells a member to ask the owner', async () => {
    const { page } = await pageAs(USERS.full);
    await page.goto(`${world.server.url}/b/${boardId}`);
    const banner = page.getByTestId('read-only-banner');
    await banner.getByText('Ask the workspace owner to buy a plan.', { exact: false }).waitFor();
    expect(await banner.getByRole('link', { name: 'See the plans' }).count()).toBe(0);
    const team = await apiCall(world.server.url, await apiLogin(world.server.url, USERS.full), 'GET', `/api/teams/${world.teamId}`);
    expect((team.data ?? team).read_only).toBe('trial_expired');
  });
});

describe('push permission denied (S8.10)', () => {
  it('says "User denied permissions!" when the browser refuses notifications', async () => {
    const { page, context } = await pageAs(USERS.admin);
    // The browser's own answer: notifications denied for this site (as a user who clicked Block).
    const pageCdp = await context.newCDPSession(page);
    const { targetInfo } = await pageCdp.send('Target.getTargetInfo');
    const browserCdp = await world.browser.newBrowserCDPSession();
    await browserCdp.send('Browser.setPermission', { permission: { name: 'notifications' }, setting: 'denied', origin: world.server.url, browserContextId: targetInfo.browserContextId });
    await browserCdp.detach();
    await pageCdp.detach();
    // Push needs the service worker: wait until it controls the origin, then open the settings.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.goto(`${world.server.url}/profile/notifications`);
    await page.getByRole('button', { name: 'Turn on for this device' }).click();
    await page.getByText('User denied permissions!').waitFor();
    // Nothing was registered: the switch still offers to turn push on.
    await page.getByRole('button', { name: 'Turn on for this device' }).waitFor();
  });
});
