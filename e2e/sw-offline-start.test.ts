import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiLogin, createBoardByApi, createItemByApi, PASSWORD, rowByName, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * The service worker (src/sw/, decision 0080) against the BUILT app and a real server reached
 * through a cuttable TCP proxy: the app shell starts with the network cut, the signed-in user
 * stays signed in on their local data, and a new build is offered with a Reload prompt.
 *
 * The server serves a private copy of the build (WEB_DIR), so the update test can rewrite its
 * sw.js without touching the dist/ other suites use.
 */
const DIST = path.resolve(process.env.WEB_DIR ?? 'dist');

async function swReady(page: Page) {
  // The worker of this build is active and controls the page; its precache is complete then.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

describe('service worker', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let context: BrowserContext;
  let webDir: string;
  let boardId: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-sw-web-'));
    fs.cpSync(DIST, webDir, { recursive: true });
    world = await startWorld({ WEB_DIR: webDir });
    proxy = await startProxy(world.server.port);
    const owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Offline start board');
    await createItemByApi(world, owner, boardId, 'Kept on this device');
    context = await world.browser.newContext();
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await proxy?.close();
    await world?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('serves /sw.js with no-cache and a precache list of this build', async () => {
    const res = await fetch(world.server.url + '/sw.js');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('service-worker-allowed')).toBe('/');
    const code = await res.text();
    const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
    for (const asset of html.match(/\/assets\/[^"]+\.(js|css)/g) ?? []) expect(code).toContain(asset);
  });

  it('a tab opened while the network is cut starts from the service worker, signed in, with the boards on this device', async () => {
    const first = await context.newPage();
    await first.goto(proxy.url + '/login');
    await first.getByLabel('Email').fill(USERS.owner);
    await first.getByLabel('Password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Log in' }).click();
    await first.waitForURL(/\/home$/);
    await swReady(first);
    await first.goto(`${proxy.url}/b/${boardId}`);
    await rowByName(first, 'Kept on this device').waitFor({ timeout: 20_000 });
    await first.close();

    proxy.cut();
    const offline = await context.newPage();
    const errors: string[] = [];
    offline.on('pageerror', (e) => errors.push(String(e)));
    // Without the service worker this is the browser's own error page (the proxy refuses).
    await offline.goto(proxy.url + '/home');
    const sidebar = offline.getByRole('navigation', { name: 'Main' });
    await sidebar.getByRole('link', { name: 'Offline start board' }).waitFor({ timeout: 20_000 });
    await offline.getByTestId('offline-banner').waitFor();
    expect(await offline.getByRole('link', { name: 'Log in' }).count()).toBe(0);

    await sidebar.getByRole('link', { name: 'Offline start board' }).click();
    await rowByName(offline, 'Kept on this device').waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);

    // The network returns: the session is confirmed with the server (still signed in, online).
    proxy.restore();
    await offline.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 30_000 });
    await offline.reload();
    await rowByName(offline, 'Kept on this device').waitFor({ timeout: 20_000 });
    expect(new URL(offline.url()).pathname).toBe(`/b/${boardId}`);
    await offline.close();
  }, 120_000);

  it('a new build id makes the running app offer a reload, and Reload brings the new worker in', async () => {
    const page = await context.newPage();
    await page.goto(proxy.url + '/home');
    await swReady(page);
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(before).toBe(proxy.url + '/sw.js');
    // Deploy: the same app, a new build id (what any rebuild with a changed file gives).
    const swPath = path.join(webDir, 'sw.js');
    const code = fs.readFileSync(swPath, 'utf8');
    const buildId = /buildId:\s*[`'"]([0-9a-f]{16})[`'"]/.exec(code)?.[1];
    expect(buildId).toBeTruthy();
    fs.writeFileSync(swPath, code.replace(buildId!, 'feedfacefeedface'));
    // The browser checks /sw.js on navigation; the new worker installs and waits for the user.
    await page.goto(proxy.url + '/home');
    await page.getByText('A new version of Cairn is available.').waitFor({ timeout: 30_000 });
    const waitingBuild = async () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return !!reg?.waiting;
      });
    expect(await waitingBuild()).toBe(true);
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.waitForEvent('load', { timeout: 20_000 });
    await swReady(page);
    const cacheNames = await page.evaluate(() => caches.keys());
    expect(cacheNames).toContain('cairn-shell-feedfacefeedface');
    expect(cacheNames).not.toContain(`cairn-shell-${buildId}`);
    expect(await page.getByText('A new version of Cairn is available.').count()).toBe(0);
    await page.close();
  }, 90_000);
});
