import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { anonymousPage, apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, newId, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

/** Issue #6's later capabilities: public links without ?team=, board password, attachments, reference picker, folder drag and drop. */
describe('boards: public links, password, attachments, references, folder moves', () => {
  let world: BoardWorld;
  let token: string;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    world = await startWorld();
    token = await apiLogin(world.server.url, USERS.owner);
    ({ page, errors } = await signedInPage(world, USERS.owner));
  });
  afterAll(async () => world?.close());

  const call = (method: string, path: string, body?: unknown) => apiCall(world.server.url, token, method, path, body);
  const makePublic = async (boardId: string) => {
    const board = (await call('GET', `/api/${world.teamId}/folders`)).data.find((f: any) => f.id === boardId);
    await call('PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: board.row_version + 1 });
  };
  const addAttribute = async (boardId: string, name: string, kind: string, settings: Record<string, unknown> = {}) => {
    const id = newId('a');
    await call('PUT', `/api/${world.teamId}/attributes/${id}`, { id, board_id: boardId, folder_id: boardId, name, kind, settings, position: 1, row_version: 1 });
    return id;
  };
  const cell = (name: string, column: number) => rowByName(page, name).locator('.table-cell').nth(column);

  it('opens a public board from a link without the workspace, and asks for the password of a protected one', async () => {
    const open = await createBoardByApi(world, token, 'Open house');
    await createItemByApi(world, token, open, 'Visible item');
    await makePublic(open);
    const vault = await createBoardByApi(world, token, 'Vault');
    await createItemByApi(world, token, vault, 'Vault item');
    await makePublic(vault);

    // The owner sets the password on edit-board; the shared link has no ?team= any more.
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/${vault}/edit`);
    await expectText(page.getByTestId('public-link'), `/b/${vault}`);
    expect(await page.getByTestId('public-link').textContent()).not.toContain('team=');
    await page.getByLabel('Board password').fill('sesame');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('button', { name: 'Remove password' }).waitFor();

    // One visitor opens both boards in a row: the second catches up by its board, not through
    // the workspace-wide feed anonymous visitors may not ask (issue #6).
    const visitor = await anonymousPage(world);
    await visitor.page.goto(`${world.server.url}/b/${open}`);
    await rowByName(visitor.page, 'Visible item').waitFor();
    await visitor.page.getByTestId('board-readonly').waitFor();

    await visitor.page.goto(`${world.server.url}/b/${vault}`);
    const form = visitor.page.getByTestId('board-password-form');
    await form.waitFor();
    await form.getByLabel('Password').fill('open sesame');
    await form.getByRole('button', { name: 'Open board' }).click();
    await expectText(form.getByRole('alert'), 'The password is not correct.');
    await form.getByLabel('Password').fill('sesame');
    await form.getByRole('button', { name: 'Open board' }).click();
    await rowByName(visitor.page, 'Vault item').waitFor();
    await visitor.page.getByTestId('board-readonly').waitFor();
    expect(await visitor.page.getByTestId('new-item-row').count()).toBe(0);
    await visitor.context.close();
  });

  it('lets an anonymous visitor open two public boards in a row and come back to the first, caught up', async () => {
    const first = await createBoardByApi(world, token, 'First public');
    await createItemByApi(world, token, first, 'First item');
    await makePublic(first);
    const second = await createBoardByApi(world, token, 'Second public');
    await createItemByApi(world, token, second, 'Second item');
    await makePublic(second);

    const visitor = await anonymousPage(world);
    const problems: string[] = [];
    visitor.page.on('response', (response) => {
      if (response.url().includes('/changes') && !response.ok()) problems.push(`${response.status()} ${response.url()}`);
    });
    await visitor.page.goto(`${world.server.url}/b/${first}`);
    await rowByName(visitor.page, 'First item').waitFor();
    await visitor.page.goto(`${world.server.url}/b/${second}`);
    await rowByName(visitor.page, 'Second item').waitFor();
    await visitor.page.getByTestId('board-readonly').waitFor();

    // Back to the first board (already on this device): it catches up with what was added meanwhile.
    await createItemByApi(world, token, first, 'Added while away');
    await visitor.page.goto(`${world.server.url}/b/${first}`);
    await rowByName(visitor.page, 'Added while away').waitFor();
    expect(await visitor.page.getByText('This action is unauthorized.').count()).toBe(0);
    expect(problems).toEqual([]);
    await visitor.context.close();
  });

  it('uploads, opens and removes an attachment', async () => {
    const boardId = await createBoardByApi(world, token, 'Files board');
    await createItemByApi(world, token, boardId, 'Contract');
    const files = await addAttribute(boardId, 'Files', 'attachments');
    await page.goto(`${world.server.url}/b/${boardId}`);
    await cell('Contract', 2).dblclick();
    const editor = page.getByTestId('attachments-editor');
    await editor.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello attachments') });
    // The upload is saved into the value (the editor closes, as after any edit) and the cell links it.
    const link = cell('Contract', 2).getByRole('link', { name: 'notes.txt' });
    await link.waitFor();
    await waitForServerCopy(world, token, 'values', boardId, (values) => values.some((v) => v.attribute_id === files && v.value?.[0]?.name === 'notes.txt'));
    // The link serves the file back under its name.
    const href = (await link.getAttribute('href'))!;
    const download = await fetch(world.server.url + href);
    expect(await download.text()).toBe('hello attachments');
    expect(download.headers.get('content-disposition')).toContain('notes.txt');

    await cell('Contract', 2).dblclick();
    await editor.getByRole('button', { name: 'Remove notes.txt' }).click();
    await waitForServerCopy(world, token, 'values', boardId, (values) => values.some((v) => v.attribute_id === files && v.value === null));
  });

  it('links items through a searchable picker', async () => {
    const boardId = await createBoardByApi(world, token, 'Linked board');
    await createItemByApi(world, token, boardId, 'Alpha task');
    const beta = await createItemByApi(world, token, boardId, 'Beta task');
    await createItemByApi(world, token, boardId, 'Gamma');
    const related = await addAttribute(boardId, 'Related', 'reference', { board_id: null, multiple: true });
    await page.goto(`${world.server.url}/b/${boardId}`);
    await cell('Gamma', 2).dblclick();
    const search = page.getByRole('combobox', { name: 'Search items' });
    await search.fill('bet');
    await page.getByRole('option', { name: 'Beta task' }).waitFor();
    expect(await page.getByRole('option', { name: 'Alpha task' }).count()).toBe(0);
    await search.press('Enter');
    await waitForServerCopy(world, token, 'values', boardId, (values) => values.some((v) => v.attribute_id === related && JSON.stringify(v.value) === JSON.stringify([beta])));
    await expectText(cell('Gamma', 2), 'Beta task');
  });

  it('nests a folder by dragging it onto another and reorders with Alt+arrows', async () => {
    const boardId = await createBoardByApi(world, token, 'Tree board');
    const ids: Record<string, string> = {};
    for (const [i, name] of ['Plans', 'Ideas', 'Later'].entries()) {
      ids[name] = newId('f');
      await call('PUT', `/api/${world.teamId}/folders/${ids[name]}`, { id: ids[name], board_id: boardId, parent_id: boardId, name, position: i + 1, row_version: 1 });
    }
    await page.goto(`${world.server.url}/b/${boardId}`);
    const row = (name: string) => page.locator('.folder-row', { hasText: name });
    await row('Later').waitFor();
    await row('Ideas').dragTo(row('Plans'), { steps: 8 });
    await waitForServerCopy(world, token, 'folders', boardId, (folders) => folders.find((f) => f.id === ids.Ideas)?.parent_id === ids.Plans);
    expect(await row('Ideas').getAttribute('aria-level')).toBe('3');

    await row('Later').getByRole('link', { name: 'Later' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await waitForServerCopy(world, token, 'folders', boardId, (folders) => {
      const pos = (id: string) => folders.find((f) => f.id === id)?.position;
      return pos(ids.Later) < pos(ids.Plans);
    });
    expect(errors).toEqual([]);
  });
});
