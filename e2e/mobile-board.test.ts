/**
 * The board on a phone, 390 × 844 with touch (issue #17 part 5): the board fills the screen (not a
 * 200 px box), the folder tree is a drawer, the item panel is a full-screen sheet with Back, and a
 * kanban card moves to another column by touch (press, rest past the drag delay, slide, lift).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DRAG_DELAY_MS } from '../schema/constants';
import { apiCall, apiLogin, PASSWORD, startWorld, USERS, type BoardWorld } from './boards-helpers';

let world: BoardWorld;
let boardId: string;
beforeAll(async () => {
  world = await startWorld();
  const token = await apiLogin(world.server.url, USERS.owner);
  const folders = (await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/folders`)).data as { id: string; name: string; parent_id: string | null }[];
  boardId = folders.find((f) => f.parent_id === null && f.name === 'Product roadmap')!.id;
});
afterAll(async () => {
  await world?.close();
});

/**
 * One finger through the DevTools protocol (dnd-kit's touch sensor reads touch events). The finger
 * rests until the card says it is dragged (`is-dragging`): the drag starts DRAG_DELAY_MS after the
 * page handled the touch, which on a loaded machine is later than the test sent it, and a finger
 * that slid on before that was a scroll (the card stayed; a clean-clone run saw it).
 */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const point = (p: { x: number; y: number }) => [{ x: Math.round(p.x), y: Math.round(p.y), id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
  await page.waitForTimeout(DRAG_DELAY_MS); // never earlier than the delay: a drag, not a scroll
  await page.locator('.kanban-card.is-dragging').first().waitFor({ timeout: 30_000 });
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point({ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }) });
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(150);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('the board at 390 px', () => {
  it('fills the screen, with the folders as a drawer and the item as a full-screen sheet with Back', async () => {
    const context = await world.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(world.server.url + '/login');
    await page.getByLabel('Email').fill(USERS.owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor();
    await page.locator('.table-row').first().waitFor();

    // The table takes the screen below the board's header: most of the 844 px, not a small box.
    const table = (await page.locator('.table-scroll').boundingBox())!;
    expect(table.height).toBeGreaterThan(844 * 0.45);
    expect(table.y + table.height).toBeGreaterThan(844 - 140);
    // Nothing is wider than the phone (no sideways page scroll).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The folder tree is not under the table: a drawer opened from the header, over the board.
    const tree = page.getByRole('complementary', { name: 'Folders' });
    expect(await tree.isVisible()).toBe(false);
    await page.getByTestId('board-folders-button').click();
    await expect.poll(() => tree.isVisible()).toBe(true);
    const drawer = (await tree.boundingBox())!;
    expect(drawer.x).toBe(0);
    expect(drawer.height).toBe(844);
    await page.keyboard.press('Escape');
    await expect.poll(() => tree.isVisible()).toBe(false);

    // An item opens as a sheet over the whole screen; Back closes it and the table is there again.
    await page.locator('.table-row').first().locator('.row-open').click();
    const panel = page.getByTestId('item-panel');
    await panel.waitFor();
    const sheet = (await panel.boundingBox())!;
    expect(sheet).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    await panel.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/b/${boardId}/${boardId}`);
    expect(await page.locator('.table-scroll').isVisible()).toBe(true);
    await context.close();
  });

  it('moves a kanban card to the next column by touch', async () => {
    const context = await world.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(world.server.url + '/login');
    await page.getByLabel('Email').fill(USERS.owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.locator('[role="tab"][data-view-kind="column"]').click();
    const columns = page.locator('.kanban-column');
    await columns.first().locator('.kanban-card').first().waitFor();
    const first = columns.nth(0);
    const second = columns.nth(1);
    const card = first.locator('.kanban-card').first();
    const name = (await card.locator('.kanban-card-name').innerText()).trim();
    // By key: columns may come and go at the row's start while the card moves.
    const fromKey = await first.getAttribute('data-column-key');

    // Measured once the board's header has its final lines (a late permission answer adds links).
    await page.waitForTimeout(800);
    // The second column is partly on screen at the phone's edge: drop onto its visible part.
    const from = (await card.boundingBox())!;
    const target = (await second.boundingBox())!;
    await touchDrag(page, { x: from.x + from.width / 2, y: from.y + from.height / 2 }, { x: Math.min(target.x + 40, 380), y: target.y + 60 });

    // Held at the phone's edge, the columns scroll under the finger (edge scrolling): the card lands in
    // a column after the first, whichever is under the finger when it lifts, and stays there.
    const holding = page.locator('.kanban-column', { has: page.locator('.kanban-card-name', { hasText: name }) });
    await expect.poll(() => page.locator(`.kanban-column[data-column-key="${fromKey}"] .kanban-card-name`, { hasText: name }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => holding.count()).toBe(1);
    const landed = await holding.getAttribute('data-column-key');
    expect(landed).not.toBe(fromKey);
    await page.reload();
    await page.locator('.kanban-card').first().waitFor();
    await expect.poll(() => page.locator(`.kanban-column[data-column-key="${landed}"] .kanban-card-name`, { hasText: name }).count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });
});
