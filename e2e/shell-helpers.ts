import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';

export const DEMO = { email: 'demo@cairn.local', password: 'demo-password' };
export const SCREENS_DIR = path.resolve('.cache/screens');

/** Logs in through the login screen and waits for home. */
export async function loginThroughUi(page: Page, baseUrl: string, creds: { email: string; password: string } = DEMO) {
  await page.goto(baseUrl + '/login');
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password').fill(creds.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/home$/);
}

/** The route name the screen announces (data-route on its section). */
export async function screenRoute(page: Page): Promise<string | null> {
  // RootLayout names the route on <main>; every screen, whoever built it, renders inside.
  const main = page.locator('main[data-route]').first();
  await main.waitFor({ timeout: 15_000 });
  return main.getAttribute('data-route');
}

/** An axe scan of the page; serious and critical violations fail the test. */
export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`),
    label,
  ).toEqual([]);
  return results.violations.length;
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, name);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A toast with this text appears. */
export async function expectToast(page: Page, text: string | RegExp) {
  await page.locator('.ui-toaster').getByText(text).first().waitFor({ timeout: 10_000 });
}

/** Waits until the screen of the named route is showing (client-side navigations swap screens lazily). */
export async function expectScreen(page: Page, name: string) {
  await expect.poll(() => page.locator('main[data-route] section.page[data-route]').first().getAttribute('data-route').catch(() => null), { timeout: 15_000 }).toBe(name);
}

/**
 * Requests in flight per page, leaving out the SharedWorker's script: Chromium reports that load
 * to the page and never finishes it, so Playwright's 'networkidle' never comes on a page that
 * connects the sync worker. Call trackNetwork before the page navigates.
 */
const inflight = new WeakMap<Page, Set<unknown>>();
export function trackNetwork(page: Page) {
  if (inflight.has(page)) return;
  const open = new Set<unknown>();
  inflight.set(page, open);
  page.on('request', (r) => {
    if (!/shared-worker/.test(r.url())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** Like waitForLoadState('networkidle'): nothing in flight for 500 ms (the worker's script aside). */
export async function networkSettled(page: Page, timeout = 30_000) {
  const open = inflight.get(page);
  if (!open) throw new Error('trackNetwork(page) first');
  await page.waitForLoadState('load');
  const end = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() < end) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 500) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`network not settled after ${timeout} ms`);
}
