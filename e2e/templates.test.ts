import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #16 in Chromium against the real server: from the template gallery (a tag, then a
 * template's landing page) "Use template" leads to the workspace's create-board screen with the
 * template chosen; creating the board opens it with the template's example items.
 */
describe('templates', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    world = await startWorld();
    ({ page, errors } = await signedInPage(world, USERS.owner));
  }, 400_000);
  afterAll(async () => {
    await world?.close();
  });

  it('creates a board from a gallery template and shows its items', async () => {
    await page.goto(`${world.server.url}/templates?teamId=${world.teamId}`);
    await page.getByTestId('template-gallery').waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Tags' }).getByRole('link', { name: 'Sales' }).click();
    await page.waitForURL(/\/templates\/tags\/sales\?teamId=/);
    await page.locator('[data-template-id="crm-pipeline"]').getByRole('link', { name: 'CRM pipeline' }).click();
    await page.getByTestId('template-landing').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('template-items').innerText(), { timeout: 15_000 }).toContain('Northwind: annual licence');

    await page.getByTestId('use-template').click();
    await page.waitForURL(new RegExp(`/team/${world.teamId}/boards/create\\?`), { timeout: 30_000 });
    await page.getByTestId('chosen-template').waitFor({ timeout: 30_000 });
    const name = page.getByLabel('Board name');
    await expect.poll(() => name.inputValue(), { timeout: 15_000 }).toBe('CRM pipeline');
    await name.fill('Deals from the gallery');
    await page.getByRole('button', { name: 'Create board' }).click();

    await page.waitForURL(/\/b\/[A-Za-z0-9_-]+/, { timeout: 30_000 });
    for (const item of ['Northwind: annual licence', 'Fabrikam: renewal', 'Litware: expansion']) {
      await page.getByText(item, { exact: true }).first().waitFor({ timeout: 30_000 });
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
