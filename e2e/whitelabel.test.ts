import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type RunningServer } from './helpers';
import { startDns } from './dns-server';
import { PASSWORD, USERS, apiCall, apiLogin } from './boards-helpers';
import { expectAccessible, screenshot } from './shell-helpers';

/**
 * White label in Chromium against the real server (issue #18, decision 0265): the owner sets the
 * name and main colour on the white-label screen (live preview), saves a domain and verifies it
 * (the server asks a small DNS server on loopback, WHITELABEL_DNS_SERVERS, for the TXT record);
 * then a browser that reaches the server under that host name (--host-resolver-rules) gets the
 * workspace's name and colour on its first paint, and the common host stays Cairn.
 * BILLING=off gives the demo workspace the top plan, which includes white label.
 */

const DOMAIN = 'wl.cairn.test';

describe('white label', () => {
  let server: RunningServer;
  let browser: Browser;
  let dns: Awaited<ReturnType<typeof startDns>>;
  const records = new Map<string, string>();

  beforeAll(async () => {
    dns = await startDns(records);
    server = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', BILLING: 'off', WHITELABEL_DNS_SERVERS: `127.0.0.1:${dns.port}` });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        // The white-labelled host name reaches this server; the Host header carries the name.
        `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`,
        `--unsafely-treat-insecure-origin-as-secure=http://${DOMAIN}:${server.port}`,
      ],
    });
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    dns?.close();
  });

  it('the owner brands the workspace and verifies its domain; that host paints with its name and colour', async () => {
    const token = await apiLogin(server.url, USERS.owner);
    const teamId = ((await apiCall(server.url, token, 'GET', '/api/me/workspaces')).data as { id: number }[])[0]!.id;

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(USERS.owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/, { timeout: 60_000 });

    await page.goto(`${server.url}/team/${teamId}/whitelabel`);
    await page.getByRole('heading', { name: 'White label', level: 1 }).waitFor();
    await page.getByLabel('App name').fill('Acme Work');
    await page.getByLabel('Main colour (CSS value)', { exact: true }).fill('#c2185b');
    // The preview follows the form before anything is saved.
    const preview = page.getByTestId('whitelabel-preview');
    await expect.poll(() => preview.locator('.whitelabel-preview__button').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(194, 24, 91)');
    expect(await preview.locator('.whitelabel-preview__bar').textContent()).toContain('Acme Work');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('White label saved.').waitFor();

    await page.getByLabel('Domain', { exact: true }).fill(DOMAIN);
    await page.getByRole('button', { name: 'Save domain' }).click();
    const box = page.getByTestId('whitelabel-domain');
    await box.getByText('Not verified yet.').waitFor();
    // Without the record the check says what it found.
    await box.getByRole('button', { name: 'Verify' }).click();
    await box.getByText(/No TXT record _cairn-verification\.wl\.cairn\.test was found/).waitFor();
    const value = (await box.locator('code').nth(1).textContent())!;
    records.set(`_cairn-verification.${DOMAIN}`, value);
    await box.getByRole('button', { name: 'Verify' }).click();
    await box.getByText(`Verified: the app is served at ${DOMAIN}.`).waitFor();
    // The filled screen has no serious accessibility problem; a picture for people to look at.
    await expectAccessible(page, 'team.whitelabel');
    await screenshot(page, 'whitelabel-settings.png');

    // The white-labelled host: name and colour on the first paint (title and stylesheet in the served page).
    const tenant = await browser.newContext();
    const visitor = await tenant.newPage();
    const tenantErrors: string[] = [];
    visitor.on('pageerror', (e) => tenantErrors.push(String(e)));
    const response = await visitor.goto(`http://${DOMAIN}:${server.port}/login`);
    expect(await response!.text()).toContain('<title>Acme Work</title>');
    expect(await visitor.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim())).toBe('#c2185b');
    await visitor.locator('.auth-brand').getByText('Acme Work').waitFor();
    const button = visitor.getByRole('button', { name: 'Log in' });
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(194, 24, 91)');
    await expect.poll(() => visitor.title()).toMatch(/Acme Work/);
    await screenshot(visitor, 'whitelabel-tenant-login.png');
    // The app's own call from that origin (the browser resolves the name; Node's request context would not).
    const vars = await visitor.evaluate(() => fetch('/api/app-vars').then((r) => r.json()));
    expect(vars.appConfig).toMatchObject({ whitelabel: true, workspaceId: teamId, name: 'Acme Work' });

    // The common host is still Cairn.
    const common = await (await browser.newContext()).newPage();
    await common.goto(`${server.url}/login`);
    await common.locator('.auth-brand').getByText('Cairn').waitFor();
    expect(await common.title()).not.toContain('Acme Work');
    expect(errors).toEqual([]);
    expect(tenantErrors).toEqual([]);
  });
});
