/**
 * The shared components in real Chromium: a Vite dev server serves src/ui/harness, playwright-core
 * drives Debian's chromium. Covers what pure tests cannot: Escape, outside clicks, focus trapping
 * and restoring, keyboard menus, URL-kept open state, toasts, confirm(), search, validation.
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import react from '@vitejs/plugin-react';
import { AxeBuilder } from '@axe-core/playwright';

let server: ViteDevServer;
let browser: Browser;
let page: Page;
let baseUrl: string;

beforeAll(async () => {
  server = await createServer({
    configFile: false,
    root: path.resolve('src/ui/harness'),
    cacheDir: path.join(os.tmpdir(), 'cairn-ui-harness-vite'),
    logLevel: 'error',
    plugins: [react({ exclude: [/node_modules/, /\/deps\//], babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } })],
    server: { port: 0, host: '127.0.0.1', hmr: false, fs: { allow: [path.resolve('.')] } },
  });
  await server.listen();
  baseUrl = server.resolvedUrls!.local[0];
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // The dev server compiles the harness on its first request: pay for that here, under the hook's
  // long timeout, not inside the first test's (a loaded CI machine took over 30 s).
  await openHarness('?test_mode=1', 170_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openHarness(query = '?test_mode=1', timeout = 60_000): Promise<Page> {
  await page?.context().close();
  page = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(baseUrl + query, { timeout });
  await page.waitForSelector('#open-modal', { timeout });
  expect(errors).toEqual([]);
  return page;
}

const harnessLog = () => page.evaluate(() => window.harness.log);
const focusedId = () => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName);

describe('shared UI in Chromium', () => {
  it('modal: labelled dialog, focus trapped and restored, Escape / close button / backdrop close it', async () => {
    await openHarness();
    await page.click('#open-modal');
    const dialog = page.getByRole('dialog', { name: 'Harness modal' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    // Focus starts inside and Tab cycles within the dialog.
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedId()).toBe('open-modal');

    await page.click('#open-modal');
    await page.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.click('#open-modal');
    await page.mouse.click(5, 5); // the backdrop
    await dialog.waitFor({ state: 'detached' });
  });

  it('modal: Escape in a menu inside the modal closes only the menu', async () => {
    await openHarness();
    await page.click('#open-modal');
    await page.click('#nested-trigger');
    await page.getByRole('menuitem', { name: 'Inner' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem', { name: 'Inner' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(1);
    expect(await focusedId()).toBe('nested-trigger');
  });

  it('modal: a menu and a select opened inside the modal show above it and take the click', async () => {
    await openHarness();
    await page.click('#open-modal');
    // Portalled to <body> with --z-popup (below --z-modal), they went under the modal, whose
    // backdrop took the click (issue #30 part 7): a click checks what is on top at its point.
    await page.click('#nested-trigger');
    await page.getByRole('menuitem', { name: 'Inner' }).click({ timeout: 10_000 });
    await page.click('#modal-select');
    await page.getByRole('option', { name: 'Large' }).click({ timeout: 10_000 });
    expect(await harnessLog()).toEqual(expect.arrayContaining(['inner', 'modal-select:l']));
    expect(await page.getByRole('dialog').count()).toBe(1);
  });

  it('popup menu: keyboard navigation skips disabled items, Enter chooses, focus returns', async () => {
    await openHarness();
    await page.focus('#menu-trigger');
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await page.getAttribute('#menu-trigger', 'aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Alpha');
    await page.keyboard.press('ArrowDown'); // Beta is disabled
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Gamma');
    await page.keyboard.press('Home');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Alpha');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual(['gamma']);
    expect(await focusedId()).toBe('menu-trigger');
  });

  it('popup menu: aligns to the trigger end edge, mirrored in right-to-left pages', async () => {
    await openHarness();
    const edges = async () => {
      await page.click('#menu-trigger');
      await page.getByRole('menu').waitFor();
      await page.waitForFunction(() => getComputedStyle(document.querySelector('[role=menu]')!).opacity === '1');
      const trigger = (await page.locator('#menu-trigger').boundingBox())!;
      const menu = (await page.getByRole('menu').boundingBox())!;
      await page.keyboard.press('Escape');
      return { triggerLeft: trigger.x, triggerRight: trigger.x + trigger.width, menuLeft: menu.x, menuRight: menu.x + menu.width };
    };
    await page.evaluate(() => document.querySelector('main')!.style.setProperty('padding-inline', '400px'));
    const ltr = await edges();
    expect(Math.abs(ltr.menuRight - ltr.triggerRight)).toBeLessThan(1.5);
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    const rtl = await edges();
    expect(Math.abs(rtl.menuLeft - rtl.triggerLeft)).toBeLessThan(1.5);
  });

  it('popup menu: closes on outside click and on route change', async () => {
    await openHarness();
    await page.click('#menu-trigger');
    await page.getByRole('menu').waitFor();
    await page.mouse.click(900, 700);
    await page.getByRole('menu').waitFor({ state: 'detached' });

    await page.click('#menu-trigger');
    await page.getByRole('menu').waitFor();
    await page.evaluate(() => window.dispatchEvent(new Event('cairn:navigate')));
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual([]);
  });

  it('context menu: open state lives in ?ctx=on; Back closes it, a reload reopens it', async () => {
    await openHarness();
    await page.click('#context-area', { button: 'right' });
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor();
    expect(new URL(page.url()).searchParams.get('ctx')).toBe('on');
    await page.goBack();
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('ctx')).toBeNull();

    await openHarness('?test_mode=1&ctx=on');
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual(['rename']);
    expect(new URL(page.url()).searchParams.get('ctx')).toBeNull();
  });

  it('context menu on a phone: a touch press opens a bottom sheet, a tap outside closes it', async () => {
    await page?.context().close();
    const context = await browser.newContext({ viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true });
    page = await context.newPage();
    await page.goto(baseUrl + '?test_mode=1');
    await page.waitForSelector('#context-area', { timeout: 60_000 });
    const box = (await page.locator('#context-area').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const point = { x: box.x + 20, y: box.y + 10 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(400);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.locator('.ui-sheet [role=menuitem]').waitFor();
    expect(new URL(page.url()).searchParams.get('ctx')).toBe('on');
    await page.touchscreen.tap(180, 40); // the backdrop above the sheet
    await page.locator('.ui-sheet').waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual([]);
  });

  it('pull to refresh: a touch pull past 125 px reloads on release, a shorter one or a scrolled page does not', async () => {
    await page?.context().close();
    const context = await browser.newContext({ viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true });
    page = await context.newPage();
    await page.goto(baseUrl + '?test_mode=1');
    await page.waitForSelector('#open-modal', { timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    const pull = async (from: number, to: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 200, y: from }] });
      for (let y = from; y <= to; y += 20) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 200, y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 200, y: to }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await page.waitForTimeout(100);
      return page.evaluate(() => window.harness.refreshes);
    };
    expect(await pull(100, 200)).toBe(0); // 100 px: not ready
    expect(await pull(100, 300)).toBe(1); // 200 px: ready, released
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForFunction(() => window.scrollY > 0);
    expect(await pull(100, 400)).toBe(1); // page scrolled: that pull scrolls, no refresh
  });

  it('toast: shown in a polite live region and gone by itself, not before 0.2 × 3 s (+ 300 ms leave) in test mode', async () => {
    await openHarness();
    expect(await page.locator('[aria-live=polite]').count()).toBe(1);
    // Timed inside the page, so the test's own round trips do not count. The clock starts at the
    // click: the store's timer starts when the toast is shown, and React may paint it later on a
    // loaded machine, so timing from the first paint would shorten the measured lifetime.
    const lifetime = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let clickedAt = 0;
          let shown = false;
          // Window capture runs before any of React's listeners.
          window.addEventListener('click', () => (clickedAt ||= performance.now()), { capture: true });
          new MutationObserver(() => {
            const present = !!document.querySelector('[aria-live=polite] .ui-toast');
            if (present) shown = true;
            if (!present && shown) resolve(performance.now() - clickedAt);
          }).observe(document.body, { childList: true, subtree: true });
        }),
    );
    await page.click('#show-toast');
    const ms = await lifetime;
    // A lower bound only: a busy machine can only make the lifetime longer (no upper wall-clock
    // bound, issue 32). The exact lifetime per kind is tested with a fake clock (ui-toast-store).
    expect(ms).toBeGreaterThanOrEqual(900);
  });

  it('toast: a swipe beyond 80 px dismisses it, a short slow drag does not', async () => {
    await openHarness('?test_mode=0');
    await page.click('#show-toast');
    const item = page.locator('.ui-toast');
    await item.waitFor();
    await page.waitForTimeout(350);
    const box = (await item.boundingBox())!;
    const y = box.y + box.height / 2;
    // 40 px taking at least 240 ms is a pan (under the spec's 0.3 px/ms swipe velocity, S9.8): a
    // slower machine only makes it slower. The pauses are the gesture's own speed, not a wait.
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    for (let step = 1; step <= 4; step++) {
      await page.waitForTimeout(60);
      await page.mouse.move(box.x + 40 + step * 10, y);
    }
    await page.mouse.up();
    await page.waitForTimeout(400);
    expect(await item.count()).toBe(1);
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 140, y, { steps: 5 });
    await page.mouse.up();
    await item.waitFor({ state: 'detached', timeout: 2_000 });
  });

  it('confirm(): "Are you sure?" with Cancel and Yes resolves the promise', async () => {
    await openHarness();
    await page.click('#ask');
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.click('#ask');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.click('#ask');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual(['confirm:true', 'confirm:false', 'confirm:false']);
  });

  it('select: search by word prefix and synonym, choose with the keyboard', async () => {
    await openHarness();
    await page.click('#color-select');
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox' && document.activeElement.tagName === 'INPUT');
    await page.keyboard.type('gre');
    expect(await page.getByRole('option').allTextContents()).toEqual(['Dark green']);
    await search.fill('fore');
    expect(await page.getByRole('option').allTextContents()).toEqual(['Dark green']);
    await search.fill('b');
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await harnessLog()).toEqual(['select:blue']);
    expect(await page.textContent('#color-select')).toContain('Blue');
    expect(await focusedId()).toBe('color-select');
  });

  it('validation: empty is valid; a bad e-mail gets the error class, aria-invalid and the message', async () => {
    await openHarness();
    const input = page.locator('#email');
    await input.fill('');
    await input.blur();
    expect(await input.getAttribute('aria-invalid')).toBeNull();
    await input.fill('not-an-email');
    await input.blur(); // the change event
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('class')).toContain('is-invalid');
    await page.getByText('Enter a valid email address').waitFor();
    await input.fill('ada@example.com'); // fixed while typing
    expect(await input.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText('Enter a valid email address').count()).toBe(0);
  });

  it('busy button: disabled with a spinner until its promise settles', async () => {
    await openHarness();
    await page.click('#busy');
    expect(await page.getAttribute('#busy', 'aria-busy')).toBe('true');
    expect(await page.isDisabled('#busy')).toBe(true);
    await page.evaluate(() => window.harness.resolveBusy?.());
    await page.waitForFunction(() => !(document.getElementById('busy') as HTMLButtonElement).disabled);
    expect(await page.getAttribute('#busy', 'aria-busy')).toBeNull();
  });

  it('avatar and tooltip: preview after the hover delay', async () => {
    await openHarness();
    await page.hover('[role=img][aria-label="Ada Lovelace"]');
    await page.getByText('ada@example.com').waitFor({ timeout: 2_000 });
    await page.hover('#tip-target');
    const tip = page.getByRole('tooltip');
    await tip.waitFor({ timeout: 2_000 });
    expect(await tip.textContent()).toBe('Helpful tip');
    expect(await page.getAttribute('#tip-target', 'aria-describedby')).toBe(await tip.getAttribute('id'));
  });

  it('no axe violations in light and dark themes, with a modal, a menu and a select open', async () => {
    await openHarness('?test_mode=0');
    const audit = async (label: string) => {
      // `region` (a best practice, not WCAG) flags overlays portalled to <body> outside landmarks,
      // which is where menus and popups must live to escape clipping; every other rule applies.
      // Audited once enter transitions are over: a half-faded modal reads as low contrast.
      // (Spinners loop for ever and are not waited for.)
      await page.waitForFunction(() =>
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      );
      const result = await new AxeBuilder({ page }).disableRules(['region']).analyze();
      const found = result.violations.map((v) => `${label}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      expect(found).toEqual([]);
    };
    await page.click('#show-sticky-toast');
    await page.locator('.ui-toast').waitFor();
    for (const theme of ['light', 'dark']) {
      await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
      await page.waitForTimeout(350);
      await audit(`${theme} page`);
      await page.click('#menu-trigger');
      await page.getByRole('menu').waitFor();
      await audit(`${theme} menu`);
      await page.keyboard.press('Escape');
      await page.click('#color-select');
      await page.getByRole('listbox').waitFor();
      await audit(`${theme} select`);
      await page.keyboard.press('Escape');
      await page.click('#open-modal');
      await page.getByRole('dialog').waitFor();
      await audit(`${theme} modal`);
      await page.keyboard.press('Escape');
    }
    // Eight full axe audits: ~10 s on a quiet machine, past 30 s on a loaded CI runner.
  }, 120_000);

  it('mobile header: Back button with a label', async () => {
    await openHarness();
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await harnessLog()).toEqual(['back']);
  });
});
