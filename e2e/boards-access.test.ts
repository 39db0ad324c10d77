import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousPage, apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

/** The permission model on boards, seen from a restricted member and from an anonymous guest. */
describe('boards: permissions in the UI and on the server', () => {
  let world: BoardWorld;
  let owner: string;
  let restricted: string;
  let boardId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    restricted = await apiLogin(world.server.url, USERS.restricted);
    boardId = await createBoardByApi(world, owner, 'Shared work');
    await createItemByApi(world, owner, boardId, 'Owner task');
    await createItemByApi(world, restricted, boardId, 'Rita task');
  });
  afterAll(async () => world?.close());

  it('lets a restricted member edit only the items they created (edit permission scoped to owner)', async () => {
    const { page, errors } = await signedInPage(world, USERS.restricted);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(page, 'Owner task').waitFor();

    const theirs = rowByName(page, 'Owner task').locator('.table-cell').nth(1);
    expect(await theirs.getAttribute('aria-readonly')).toBe('true');
    await theirs.dblclick();
    expect(await page.getByRole('textbox', { name: 'Edit Item' }).count()).toBe(0);

    const mine = rowByName(page, 'Rita task').locator('.table-cell').nth(1);
    expect(await mine.getAttribute('aria-readonly')).toBeNull();
    await mine.dblclick();
    const input = page.getByRole('textbox', { name: 'Edit Item' });
    await input.fill('Rita task, renamed');
    await input.press('Enter');
    await waitForServerCopy(world, owner, 'items', boardId, (items) => items.some((i) => i.name === 'Rita task, renamed'));

    // The server refuses the same edit on someone else's item, whatever the client shows.
    const stored = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data.find((i: any) => i.name === 'Owner task');
    const refused = await apiCall(world.server.url, restricted, 'PUT', `/api/${world.teamId}/items/${stored.id}`, { ...stored, name: 'hijacked', row_version: stored.row_version + 1 }).catch((e) => e);
    expect(refused.status).toBe(403);
    // Board settings and permissions are not offered to a restricted member.
    expect(await page.getByRole('link', { name: 'Board settings' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows a guest a public board read-only and a private one not at all', async () => {
    const guest = await anonymousPage(world);
    await guest.page.goto(`${world.server.url}/b/${boardId}?team=${world.teamId}`);
    // Not public: the sign-in page, which brings the visitor back to the board (issue #17).
    await guest.page.waitForURL((url) => url.pathname === '/login' && (url.searchParams.get('intended') ?? '').startsWith(`/b/${boardId}`));
    expect(await guest.page.getByTestId('table-view').count()).toBe(0);

    // The owner makes the board public on the edit-board screen.
    const { page } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/${boardId}/edit`);
    await page.getByTestId('board-public').click();
    await expectText(page.getByTestId('public-link'), `/b/${boardId}`);
    await expect.poll(async () => (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: any) => f.id === boardId)?.is_public).toBe(true);

    await guest.page.goto(`${world.server.url}/b/${boardId}?team=${world.teamId}`);
    await rowByName(guest.page, 'Owner task').waitFor();
    await guest.page.getByTestId('board-readonly').waitFor();
    expect(await guest.page.getByTestId('new-item-row').count()).toBe(0);
    await rowByName(guest.page, 'Owner task').locator('.table-cell').nth(1).dblclick();
    expect(await guest.page.getByRole('textbox', { name: 'Edit Item' }).count()).toBe(0);

    // Private again: the guest is turned away on the next visit.
    await page.getByTestId('board-public').click();
    await expect.poll(async () => (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: any) => f.id === boardId)?.is_public).toBe(false);
    const again = await anonymousPage(world);
    await again.page.goto(`${world.server.url}/b/${boardId}?team=${world.teamId}`);
    await again.page.waitForURL((url) => url.pathname === '/login');
  });
});
