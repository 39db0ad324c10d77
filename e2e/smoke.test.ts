import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';

describe('the built app served by the real server', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the app shell at / and the API beside it', async () => {
    const page = await browser.newPage();
    const response = await page.goto(server.url + '/');
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.locator('#root').innerHTML()).not.toBe('');
    const vars = await page.evaluate(async () => (await fetch('/api/app-vars')).json());
    expect(vars['app.version']).toBe('34.3.6');
    await page.close();
  });
});
