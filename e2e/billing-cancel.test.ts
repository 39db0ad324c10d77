import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #18 in Chromium against the real server (decision 0255): the trial e-mail's link starts a
 * trial and goes on to billing; the cancel flow asks for a reason ("Select at least one reason for
 * leaving."), offers 30 more trial days, and taking the offer moves the trial's end.
 */
describe('cancel with a retention offer', () => {
  let world: BoardWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => world?.close());

  it('starts a trial from the mail link, asks a reason, and takes 30 more trial days instead of leaving', async () => {
    const { page, errors } = await signedInPage(world, USERS.admin);
    await page.goto(`${world.server.url}/trial-email/active`);
    await page.getByText(/^Your Pro trial has started: 14 days/).waitFor();
    await page.waitForURL(/\/profile\/billing$/, { timeout: 30_000 });
    await page.getByTestId('trial-banner').getByText('Your trial ends in 14 days.').waitFor();

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('dialog').getByRole('alert').getByText('Select at least one reason for leaving.').waitFor();
    await page.getByLabel('It is too expensive').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    const offer = page.locator('[data-offer="trial_days"]');
    await offer.getByRole('button', { name: 'Take this offer' }).click();
    await page.getByTestId('trial-banner').getByText('Your trial ends in 44 days.').waitFor();
    await page.getByText('Offer taken: 30 more trial days.').waitFor();

    // Once per user: after a reload no offer is left, and the trial still runs.
    await page.reload();
    await page.getByTestId('trial-banner').getByText('Your trial ends in 44 days.').waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByLabel('Another reason').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Cancel anyway' }).waitFor();
    expect(await page.locator('[data-offer]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
