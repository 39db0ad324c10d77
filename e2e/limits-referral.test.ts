import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startServer } from './helpers';

/**
 * Issue #18 (decision 0260) in Chromium against the real server: on the free plan a Chart view
 * made earlier (with billing off) shows the upgrade message with a link to the plans, the add-view
 * menu marks Gantt and Chart "Pro" and offers the plans; /profile/referral shows the link, takes a
 * chosen code, refuses an unreadable address list, mails invitations, and a sign-up through the
 * link is counted.
 */
describe('plan limits and referral in the browser', () => {
  let world: BoardWorld;
  let boardId: string;
  let chartId: string;

  beforeAll(async () => {
    // A Chart view is made while billing is off; then the server runs with billing on (free plan).
    world = await startWorld({ BILLING: 'off' });
    const owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Plan board');
    chartId = `${boardId}c`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${chartId}`, { id: chartId, board_id: boardId, folder_id: boardId, name: 'Numbers', kind: 'chart', settings: {}, row_version: 1 });
    const { port, dataDir } = world.server;
    await world.server.stop();
    const restarted = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', DATA_DIR: dataDir, PORT: String(port) });
    world.server = { ...restarted, url: `http://127.0.0.1:${port}`, port };
  }, 600_000);
  afterAll(async () => world?.close());

  it('gates Pro views on the free plan, and runs the referral screen end to end', async () => {
    const { context, page, errors } = await signedInPage(world, USERS.owner);

    // An existing Chart view: the upgrade message and a link to the plans, not a blank pane.
    await page.goto(`${world.server.url}/b/${boardId}?view=${chartId}`);
    await page.getByRole('heading', { name: 'This view is part of the Pro plan.' }).waitFor();
    const upgrade = page.getByRole('link', { name: 'See plans and upgrade' });
    expect(await upgrade.getAttribute('href')).toBe('/profile/billing');

    // The add-view menu offers Gantt with a Pro badge and leads to the plans instead of a refused view.
    await page.getByRole('button', { name: 'Add view' }).click();
    const gantt = page.getByRole('menuitem', { name: /Gantt/ });
    expect(await gantt.locator('.ui-menu__badge').textContent()).toBe('Pro');
    expect(await page.getByRole('menuitem', { name: /Calendar/ }).locator('.ui-menu__badge').count()).toBe(0);
    await gantt.click();
    await page.getByRole('dialog').getByText('Gantt is part of the Pro plan').waitFor();
    await page.getByRole('button', { name: 'See plans' }).click();
    await page.waitForURL(/\/profile\/billing$/);

    // Referral: the link, a refused address list, invitations sent.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.server.url });
    await page.getByRole('link', { name: 'Referral' }).click();
    await page.waitForURL(/\/profile\/referral$/);
    expect(await page.getByLabel('Your referral link').inputValue()).toMatch(/\/register\?ref=[a-z0-9-]+$/);
    // A code of one's own choosing; a malformed one is refused in place.
    await page.getByLabel('Choose your code').fill('-x');
    await page.getByRole('button', { name: 'Save code' }).click();
    await page.getByRole('alert').getByText('Use 4 to 32 letters, digits or dashes (not at either end).').waitFor();
    await page.getByLabel('Choose your code').fill('Demo-Team');
    await page.getByRole('button', { name: 'Save code' }).click();
    await expect.poll(() => page.getByLabel('Your referral link').inputValue()).toMatch(/\/register\?ref=demo-team$/);
    const link = await page.getByLabel('Your referral link').inputValue();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const emails = page.getByLabel('Emails');
    await emails.fill('first@example.test, not an address');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByRole('alert').getByText('Enter emails separated by commas, spaces or new lines.').waitFor();
    await emails.fill('first@example.test second@example.test\nthird@example.test');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: 'third@example.test' }).waitFor();

    // A new person signs up through the link (their own browser), and is counted.
    const visitor = await world.browser.newContext();
    const signup = await visitor.newPage();
    await signup.goto(link.replace(/^https?:\/\/[^/]+/, world.server.url));
    await signup.getByLabel('Name').fill('Refd Person');
    await signup.getByLabel('Email').fill('third@example.test');
    await signup.getByLabel('Password').fill('a-long-password-1');
    await signup.getByRole('button', { name: 'Create account' }).click();
    await signup.waitForURL((url) => !url.pathname.startsWith('/register'), { timeout: 60_000 });
    await visitor.close();

    await page.reload();
    await page.getByText('People who signed up through your link: 1').waitFor();
    await page.getByRole('table', { name: 'Invitations' }).getByRole('row', { name: /third@example\.test.*Signed up/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
