import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #18 payments in Chromium against the real server (decision 0250): start a trial, buy the
 * plan on the upgrade screen with the local provider's test cards (a declined one first), land on
 * the redirect page, come back to billing after 5 seconds and find the paid invoice, its PDF and
 * the saved card.
 */
describe('checkout with the local payment provider', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    world = await startWorld();
    ({ page, errors } = await signedInPage(world, USERS.full));
  });
  afterAll(async () => world?.close());

  const fillCard = async (number: string) => {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
  };

  it('starts a trial, is declined with a clear message, pays with 4242 and sees the invoice', async () => {
    await page.goto(`${world.server.url}/profile/billing`);
    await page.getByRole('heading', { name: 'Your plan: Free' }).waitFor();
    await page.locator('[data-plan="pro"]').getByRole('button', { name: 'Start a 14-day trial' }).click();
    await page.getByRole('heading', { name: 'Your plan: Pro' }).waitFor();
    await page.getByText('No invoices yet.').waitFor();

    await page.getByRole('link', { name: 'Buy a plan' }).click();
    await page.getByRole('heading', { name: 'Change your plan', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/subscription\/upgrade\/\d+$/);
    // The local provider takes test cards only, and the checkout says so (security review N7).
    expect(await page.locator('[data-test-provider="local"]').textContent()).toBe('Test payment provider: this server takes only test cards. No card is charged and no money is taken.');
    await page.locator('[data-plan="business"] input').check();
    await page.locator('[data-price="business-month-usd"] input').check();
    // What paying charges now, priced by the server.
    await expect.poll(() => page.locator('.checkout-quote .invoice-lines li').allTextContents()).toEqual([expect.stringMatching(/^Business \(monthly\), .+\$20\.00$/)]);
    await fillCard('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe('Your card was declined.');

    // The declined card was saved (brand and last four only); pay with a new, good one.
    await page.getByRole('radio', { name: 'A new card' }).check();
    await fillCard('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await page.getByText(/^Invoice INV-\d{6}: \$20\.00 paid\.$/).waitFor();
    await page.getByText(/You will be taken to your billing page in \d seconds?\./).waitFor();

    // Redirect after 5 seconds (workspace.md §9).
    await page.waitForURL(/\/profile\/billing$/, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Your plan: Business' }).waitFor();
    const paid = page.locator('.invoices-table tbody tr[data-status="paid"]');
    await paid.first().waitFor();
    expect(await paid.count()).toBe(1);
    expect(await paid.locator('td').nth(3).textContent()).toBe('$20.00');
    expect(await page.locator('.invoices-table tbody tr[data-status="failed"]').count()).toBe(1);
    await page.getByRole('heading', { name: 'Next invoice' }).waitFor();
    expect(await page.locator('.payment-methods li').allTextContents()).toEqual([expect.stringMatching(/^VISA ending in 4242, expires 12\/2039/), expect.stringMatching(/^VISA ending in 0002/)]);

    const download = page.waitForEvent('download');
    await paid.getByRole('button', { name: /Download invoice INV-\d{6} as PDF/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
    expect(errors).toEqual([]);
  });
});
