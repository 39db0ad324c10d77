import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Comments in the item panel, in Chromium against the real server: a comment with an @mention
 * picked by keyboard and a reaction survive a reload (they went through the engine to the
 * server), and ?t=comments&comment={id} opens the tab with that comment highlighted.
 */
describe('comments', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];
  let token: string;
  let boardId: string;
  let itemId: string;
  let finnId: number;

  beforeAll(async () => {
    world = await startWorld();
    token = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, token, 'Comment board');
    itemId = await createItemByApi(world, token, boardId, 'Discuss me');
    const members = await apiCall(world.server.url, token, 'GET', `/api/teams/${world.teamId}/members`);
    finnId = ((members.data ?? members) as { id: number; email: string }[]).find((m) => m.email === USERS.full)!.id;
    ({ page, errors } = await signedInPage(world, USERS.owner));
  });
  afterAll(async () => world?.close());

  const itemUrl = (query: string) => `${world.server.url}/b/${boardId}/${boardId}/${itemId}?${query}`;

  it('writes a comment with an @mention picked by keyboard and a reaction; both are there after a reload', async () => {
    await page.goto(itemUrl('t=comments'));
    const box = page.getByRole('textbox', { name: 'Write a comment' });
    await box.click();
    await page.keyboard.type('Please look @Fin');
    const option = page.getByRole('option', { name: /Finn Full/ });
    await option.waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.type('today');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();

    const comment = page.getByTestId('comment').filter({ hasText: 'Please look' });
    await comment.waitFor();
    await expect.poll(() => comment.locator(`[data-mention="${finnId}"]`).textContent()).toBe('@Finn Full');
    await comment.getByRole('button', { name: 'Add reaction' }).click();
    await page.getByRole('menuitem', { name: '🎉' }).click();
    await comment.getByRole('button', { name: /^🎉 1/ }).waitFor();

    // On the server: sanitised html with the mention, and the reaction.
    await expect
      .poll(async () => {
        const answer = await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/comments/multiple?item_ids=${itemId}`);
        const html = (answer.data as { text: { html: string } }[]).map((c) => c.text.html).join('');
        return html.includes(`data-mention="${finnId}"`) && (answer.reactions as { reaction: string }[]).some((r) => r.reaction === '🎉');
      }, { timeout: 15_000 })
      .toBe(true);

    await page.reload();
    const again = page.getByTestId('comment').filter({ hasText: 'Please look' });
    await again.waitFor();
    expect(await again.locator(`[data-mention="${finnId}"]`).textContent()).toBe('@Finn Full');
    await again.getByRole('button', { name: /^🎉 1/ }).waitFor();
    expect(await again.getByRole('button', { name: /^🎉 1/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps an unsent comment when the tab is left and opened again', async () => {
    const box = page.getByRole('textbox', { name: 'Write a comment' });
    await box.click();
    await page.keyboard.type('Unsent words');
    await page.getByRole('tab', { name: 'Attributes' }).click();
    await page.getByTestId('item-attributes').waitFor();
    await page.getByRole('tab', { name: 'Comments' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Write a comment' }).textContent()).toBe('Unsent words');
  });

  it('opens ?t=comments&comment={id} with that comment highlighted and in view', async () => {
    // Enough comments that the target starts out of view (the oldest is at the bottom).
    const target = `c${Date.now().toString(36)}`;
    await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/comments/${target}`, { text: { html: '<p>The one to find</p>' }, board_id: boardId, item_id: itemId, parent_id: null });
    for (let i = 0; i < 12; i++) {
      const id = `${target}n${i}`;
      await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/comments/${id}`, { text: { html: `<p>Filler ${i}</p><p>more</p><p>lines</p>` }, board_id: boardId, item_id: itemId, parent_id: null });
    }
    await page.goto(itemUrl(`t=comments&comment=${target}`));
    const highlighted = page.locator(`[data-comment-id="${target}"]`);
    await highlighted.waitFor();
    await expect.poll(() => highlighted.getAttribute('aria-current')).toBe('true');
    await expect.poll(() => highlighted.evaluate((el) => el.classList.contains('comment--highlighted'))).toBe(true);
    await expect
      .poll(() =>
        highlighted.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    expect(await page.getByRole('tab', { name: 'Comments' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows who changed what in the item’s Activity tab and on the board activity screen, filterable by person', async () => {
    await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/items/${itemId}`, { id: itemId, board_id: boardId, folder_id: boardId, name: 'Discuss this', row_version: 2 });
    await page.goto(itemUrl('t=activity'));
    const lines = page.getByTestId('activity-line');
    // The rename as before → after in words, and the comment written above.
    const rename = lines.filter({ hasText: 'changed the item' });
    await rename.first().waitFor();
    const change = rename.first().locator('.activity-changes li');
    expect([await change.locator('.activity-field').textContent(), await change.locator('.activity-before').textContent(), await change.locator('.activity-after').textContent()]).toEqual(['Name: ', 'Discuss me', 'Discuss this']);
    await lines.filter({ hasText: 'commented' }).filter({ hasText: 'Please look @Finn Full today' }).first().waitFor();
    await lines.filter({ hasText: 'reacted with 🎉' }).first().waitFor();

    await page.goto(`${world.server.url}/team/${world.teamId}/boards/${boardId}/activity`);
    const boardLines = page.getByTestId('activity-line');
    await boardLines.filter({ hasText: 'changed the item' }).first().waitFor();
    // The item's link carries its current name (read from the replica, which the rename reaches live).
    await expect.poll(() => boardLines.filter({ hasText: 'changed the item' }).first().getByRole('link', { name: 'Discuss this' }).count()).toBe(1);
    // Finn did nothing on this board.
    await page.getByLabel('Person').selectOption({ label: 'Finn Full' });
    await page.getByText('No activity matches these filters.').waitFor();
    expect(await boardLines.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
