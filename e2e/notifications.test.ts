import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #11 end to end, in Chromium against the real server (its job runner and realtime): A
 * mentions B in a comment through the composer; B, with a tab open elsewhere, sees the unread
 * count rise live, opens the notification from the panel and lands on the item's comments tab
 * with that comment highlighted; the notification is read and the count is gone.
 */
describe('notifications', () => {
  let world: BoardWorld;
  let author: Page;
  let reader: Page;
  let readerErrors: string[];
  let boardId: string;
  let itemId: string;

  beforeAll(async () => {
    world = await startWorld();
    const token = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, token, 'Launch board');
    itemId = await createItemByApi(world, token, boardId, 'Launch plan');
    ({ page: author } = await signedInPage(world, USERS.owner));
    ({ page: reader, errors: readerErrors } = await signedInPage(world, USERS.full));
  });
  afterAll(async () => world?.close());

  const bell = () => reader.getByRole('button', { name: /^Notifications/ });

  it('a mention raises B’s count live; the notification opens the comment highlighted', async () => {
    // B waits on the home screen: no unread notification yet.
    await bell().waitFor();
    expect(await bell().getAttribute('aria-label')).toBe('Notifications');

    // A mentions B (Finn Full) in a comment on the item.
    await author.goto(`${world.server.url}/b/${boardId}/${boardId}/${itemId}?t=comments`);
    await author.getByRole('textbox', { name: 'Write a comment' }).click();
    await author.keyboard.type('Can you take this @Fin');
    await author.getByRole('option', { name: /Finn Full/ }).waitFor();
    await author.keyboard.press('Enter');
    await author.keyboard.type('please');
    await author.getByRole('button', { name: 'Comment', exact: true }).click();
    const written = author.getByTestId('comment').filter({ hasText: 'Can you take this' });
    await written.waitFor();
    const commentId = await written.getAttribute('data-comment-id');
    expect(commentId).toBeTruthy();

    // B's count rises without a reload.
    await expect.poll(() => bell().getAttribute('aria-label'), { timeout: 20_000 }).toBe('Notifications, 1 unread');
    expect(await reader.getByTestId('notifications-count').textContent()).toBe('1');

    // The panel lists it; a click opens the item's comments tab with the comment highlighted.
    await bell().click();
    const panel = reader.getByRole('dialog', { name: 'Notifications' });
    const row = panel.getByRole('listitem').filter({ hasText: 'mentioned you on Launch plan' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Can you take this @Finn Full please');
    await row.getByRole('button', { name: /mentioned you on Launch plan/ }).click();

    await reader.waitForURL((url) => url.pathname === `/b/${boardId}/${boardId}/${itemId}` && url.searchParams.get('t') === 'comments' && url.searchParams.get('comment') === commentId);
    const highlighted = reader.locator(`[data-comment-id="${commentId}"]`);
    await highlighted.waitFor();
    await expect.poll(() => highlighted.getAttribute('aria-current')).toBe('true');
    expect(await reader.getByRole('tab', { name: 'Comments' }).getAttribute('aria-selected')).toBe('true');

    // Read: the count is gone, here and on the server.
    await expect.poll(() => bell().getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notifications');
    expect(await reader.getByTestId('notifications-count').count()).toBe(0);
    const token = await apiLogin(world.server.url, USERS.full);
    const count = await fetch(`${world.server.url}/api/notifications/unread-count`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    expect(count).toMatchObject({ unread_count: 0 });
    expect(readerErrors).toEqual([]);
  });

  it('marks unread and all read from the panel; /profile/notifications switches a type off', async () => {
    await bell().click();
    const panel = reader.getByRole('dialog', { name: 'Notifications' });
    await panel.getByRole('button', { name: 'All', exact: true }).click();
    const row = panel.getByRole('listitem').filter({ hasText: 'mentioned you on Launch plan' });
    await row.getByRole('button', { name: 'Mark as unread' }).click();
    await expect.poll(() => bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => bell().getAttribute('aria-label')).toBe('Notifications');
    await row.getByRole('button', { name: 'Mark as unread' }).waitFor();

    await panel.getByRole('link', { name: 'Notification settings' }).click();
    await reader.waitForURL(/\/profile\/notifications$/);
    const mentionsByEmail = reader.getByRole('checkbox', { name: 'Mentions: Email' });
    await mentionsByEmail.waitFor();
    expect(await mentionsByEmail.isChecked()).toBe(true);
    await mentionsByEmail.uncheck();
    const token = await apiLogin(world.server.url, USERS.full);
    await expect
      .poll(async () => {
        const answer = await fetch(`${world.server.url}/api/me/notification-settings`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
        return answer.data.comment_mentioned;
      })
      .toEqual({ in_app: true, email: false, push: true });
    await reader.reload();
    await mentionsByEmail.waitFor();
    expect(await mentionsByEmail.isChecked()).toBe(false);
    expect(readerErrors).toEqual([]);
  });
});
