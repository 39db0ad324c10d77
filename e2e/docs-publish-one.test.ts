import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * One document published alone (decision 0210), in Chromium against the real server: "Publish
 * this document" is refused with the spec's message while the board is private; once the board
 * is public it gives the document's /p/i… link, which a visitor without JavaScript reads (in the
 * browser's language), while the view's own pages stay closed; switched off, the page stops.
 * (The switch is clicked by event: under load the panel under the editor kept moving for
 * Playwright's "stable" check.)
 */
describe('docs: publish one document', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let viewId: string;
  let itemId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Handbook');
    itemId = await createItemByApi(world, owner, boardId, 'Holidays');
    viewId = `dv${Date.now().toString(36)}`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${viewId}`, { id: viewId, board_id: boardId, folder_id: boardId, name: 'Docs', kind: 'docs', visibility: 'shared', settings: {}, row_version: 1 });
  }, 300_000);
  afterAll(async () => world?.close());

  it('publishes the open document alone, and stops when it is switched off', async () => {
    const { page, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId}?view=${viewId}`);
    const switchOne = page.getByTestId('doc-publish-one');
    await switchOne.waitFor({ timeout: 30_000 });
    // The board is private: refused with the spec's message, nothing saved.
    await switchOne.dispatchEvent('click');
    await page.getByText('Board and parent folders must be public before sharing.').waitFor({ timeout: 15_000 });
    expect(await switchOne.isChecked()).toBe(false);

    const board = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: any) => f.id === boardId);
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: board.row_version + 1 });
    await page.getByRole('button', { name: 'Dismiss' }).dispatchEvent('click').catch(() => undefined);
    // The board's new state reaches the app with its changes (a reload makes sure of it).
    await page.reload();
    await switchOne.waitFor({ timeout: 30_000 });
    await expect.poll(async () => {
      if (!(await switchOne.isChecked())) await switchOne.dispatchEvent('click');
      return switchOne.isChecked();
    }, { timeout: 30_000, interval: 3000 }).toBe(true);
    const link = page.getByTestId('doc-public-link');
    const href = await link.getAttribute('href', { timeout: 15_000 });
    expect(href).toBe(`${world.server.url}/p/i${world.teamId}-${viewId}/holidays-${itemId}`);
    await expect.poll(async () => (await fetch(href!)).status, { timeout: 30_000 }).toBe(200);

    const reader = await world.browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
    const visitor = await reader.newPage();
    expect((await visitor.goto(href!))?.status()).toBe(200);
    expect(await visitor.locator('h1').innerText()).toBe('Holidays');
    expect(await visitor.locator('html').getAttribute('lang')).toBe('de');
    // Only that document: the view's pages stay closed, in the visitor's language.
    expect((await visitor.goto(`${world.server.url}/p/e${world.teamId}-${viewId}`))?.status()).toBe(404);
    expect(await visitor.locator('h1').innerText()).toBe('Dieses Dokument ist nicht veröffentlicht.');

    await switchOne.dispatchEvent('click');
    await expect.poll(() => switchOne.isChecked(), { timeout: 15_000 }).toBe(false);
    await expect.poll(async () => (await fetch(href!)).status, { timeout: 30_000 }).toBe(404);
    await reader.close();
    expect(errors).toEqual([]);
  }, 240_000);
});
