import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #18 part 4 in Chromium against the real server: /profile/billing shows the plan, usage
 * bars and the catalogue; a trial starts from a plan card and is extended once; with BILLING=off
 * the page says every workspace has the top plan.
 */
describe('billing screen', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    world = await startWorld();
    ({ page, errors } = await signedInPage(world, USERS.full));
  });
  afterAll(async () => world?.close());

  it('shows the free plan with usage bars, starts a Pro trial and extends it once', async () => {
    await page.goto(`${world.server.url}/profile/billing`);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your plan: Free' }).waitFor();
    expect(await page.locator('.billing-state').textContent()).toBe('Active.');
    // Four usage bars against the limits, and the four plans.
    expect(await page.getByRole('progressbar').count()).toBe(4);
    expect(await page.locator('[data-usage="workspaces"] .billing-usage__figure').textContent()).toMatch(/^\d+ \/ 1$/);
    expect(await page.locator('.billing-plan h3').allTextContents()).toEqual(['Free', 'Pro', 'Business', 'Lifetime deal']);
    expect(await page.locator('[data-plan="pro"] .billing-plan__prices').textContent()).toBe('$10.00 a month · $96.00 a year');

    await page.locator('[data-plan="pro"]').getByRole('button', { name: 'Start a 14-day trial' }).click();
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    expect(await page.locator('.billing-state').textContent()).toMatch(/^On trial\. Days left: 14 \(ends /);
    expect(await page.locator('[data-usage="workspaces"] .billing-usage__figure').textContent()).toMatch(/ \/ 5$/);
    // No second trial is offered.
    expect(await page.getByRole('button', { name: 'Start a 14-day trial' }).count()).toBe(0);

    // One way to extend: the plan section's button (the trial banner above only tells the days left).
    expect(await page.getByRole('button', { name: /extend/i }).count()).toBe(1);
    await page.getByRole('button', { name: 'Extend the trial by 30 days' }).click();
    await expect.poll(() => page.locator('.billing-state').textContent()).toMatch(/^On trial\. Days left: 44 /);
    expect(await page.getByRole('button', { name: 'Extend the trial by 30 days' }).count()).toBe(0);

    // After a reload the server still says so.
    await page.reload();
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    expect(await page.locator('.billing-state').textContent()).toMatch(/Days left: 44/);
    expect(errors).toEqual([]);
  });
});

describe('billing screen with BILLING=off', () => {
  let world: BoardWorld;
  beforeAll(async () => {
    world = await startWorld({ BILLING: 'off' });
  });
  afterAll(async () => world?.close());

  it('says every workspace has the top plan instead of offering plans', async () => {
    const { page } = await signedInPage(world, USERS.full);
    await page.goto(`${world.server.url}/profile/billing`);
    await page.getByRole('heading', { name: 'Billing is off on this server.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start a 14-day trial' }).count()).toBe(0);
  });
});
