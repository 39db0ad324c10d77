/**
 * W2.15 (issue #27) in Chromium against the real server (its job runner and realtime): a member
 * follows an item from its panel; the item's earlier follower (its creator) is told "… subscribed
 * to …" in the notifications panel, which opens the item; unfollowing from the panel holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

describe('following an item (user subscribed)', () => {
  let world: BoardWorld;
  let boardId: string;
  let itemId: string;
  let ownerToken: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    world = await startWorld();
    ownerToken = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, ownerToken, 'Follow board');
    itemId = await createItemByApi(world, ownerToken, boardId, 'Watched item');
  }, 600_000);
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    await world?.close();
  });

  it('follows from the item panel and tells the creator, whose notification opens the item', async () => {
    // The creator follows the item once the server's consumer has handled its creation.
    const follows = (token: string) => apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/items/${itemId}/follow`).then((r) => r.following as boolean);
    await expect.poll(() => follows(ownerToken), { timeout: 60_000 }).toBe(true);

    const member = await signedInPage(world, USERS.full);
    contexts.push(member.context);
    await member.page.goto(`${world.server.url}/b/${boardId}/${boardId}/${itemId}`);
    const panel = member.page.getByTestId('item-panel');
    await panel.getByRole('heading', { name: 'Watched item' }).waitFor();
    await panel.getByRole('button', { name: 'Follow', exact: true }).click();
    await panel.getByRole('button', { name: 'Unfollow', exact: true }).waitFor();
    const memberToken = await apiLogin(world.server.url, USERS.full);
    expect(await follows(memberToken)).toBe(true);

    // The creator is told, live, and the notification opens the item.
    const owner = await signedInPage(world, USERS.owner);
    contexts.push(owner.context);
    const bell = owner.page.getByRole('button', { name: /^Notifications/ });
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 60_000 }).toMatch(/unread/);
    await bell.click();
    const list = owner.page.getByRole('dialog', { name: 'Notifications' });
    const row = list.getByRole('listitem').filter({ hasText: 'subscribed to Watched item' });
    await row.waitFor();
    await row.getByRole('button', { name: /subscribed to Watched item/ }).click();
    await owner.page.waitForURL(new RegExp(`/b/${boardId}/${boardId}/${itemId}`));
    await owner.page.getByTestId('item-panel').getByRole('heading', { name: 'Watched item' }).waitFor();

    // Unfollowing from the panel holds after a reload.
    await panel.getByRole('button', { name: 'Unfollow', exact: true }).click();
    await panel.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await member.page.reload();
    await member.page.getByTestId('item-panel').getByRole('button', { name: 'Follow', exact: true }).waitFor();
    expect(await follows(memberToken)).toBe(false);
    expect(member.errors).toEqual([]);
  });
});
