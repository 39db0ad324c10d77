import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { startProxy } from './shell-proxy';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Docs (decision 0135, 0136): two people in two browsers edit one document, one of them offline
 * (its SharedWorker cut off by a proxy); when it is back both hold both edits, merged, and so does
 * the server. Then the document is published and read with JavaScript disabled.
 */
describe('docs: one document, two people, one offline', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let viewId: string;
  let itemId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Handbook');
    itemId = await createItemByApi(world, owner, boardId, 'Onboarding');
    viewId = `dv${Date.now().toString(36)}`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${viewId}`, { id: viewId, board_id: boardId, folder_id: boardId, name: 'Docs', kind: 'docs', visibility: 'shared', settings: {}, row_version: 1 });
  }, 300_000);
  afterAll(async () => world?.close());

  const serverText = async () => {
    const updates = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/doc-updates?board_id=${boardId}`)).data.filter((u: any) => u.item_id === itemId);
    const doc = new Y.Doc();
    for (const u of updates) Y.applyUpdate(doc, new Uint8Array(Buffer.from(u.update, 'base64')));
    return doc.getXmlFragment('default').toString();
  };

  it('merges an offline edit with a live one, in both browsers and on the server; the published page reads without JavaScript', async () => {
    const proxy = await startProxy(world.server.port);
    const a = await signedInPage(world, USERS.owner);
    const b = await signedInPage(world, USERS.full, proxy.url);
    await a.page.goto(`${world.server.url}/b/${boardId}?view=${viewId}`);
    await b.page.goto(`${proxy.url}/b/${boardId}?view=${viewId}`);
    const editorA = a.page.getByTestId('doc-editor');
    const editorB = b.page.getByTestId('doc-editor');
    await editorA.waitFor({ timeout: 30_000 });
    await editorB.waitFor({ timeout: 30_000 });
    await b.page.waitForTimeout(2500); // the realtime subscription is authorised in 2 s batches

    await editorA.click();
    await a.page.keyboard.type('Welcome aboard.');
    await expect.poll(() => editorB.innerText(), { timeout: 30_000 }).toContain('Welcome aboard.');

    proxy.cut();
    await editorB.click();
    await b.page.keyboard.press('Control+End');
    await b.page.keyboard.press('Enter');
    await b.page.keyboard.type('Written offline by B.');
    await editorA.click();
    await a.page.keyboard.press('Control+End');
    await a.page.keyboard.press('Enter');
    await a.page.keyboard.type('Written online by A.');
    await expect.poll(serverText, { timeout: 30_000 }).toContain('Written online by A.');
    expect(await serverText()).not.toContain('Written offline by B.');
    proxy.restore();

    for (const editor of [editorA, editorB]) {
      await expect.poll(() => editor.innerText(), { timeout: 45_000 }).toContain('Written offline by B.');
      const text = await editor.innerText();
      for (const words of ['Welcome aboard.', 'Written online by A.', 'Written offline by B.']) expect(text).toContain(words);
    }
    await expect.poll(serverText, { timeout: 30_000 }).toContain('Written offline by B.');
    expect(await editorA.innerText()).toBe(await editorB.innerText());
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
    await proxy.close();

    // Published: the board public, the view published; read in a browser with JavaScript off.
    const board = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: any) => f.id === boardId);
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: board.row_version + 1 });
    const view = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folder-views?board_id=${boardId}`)).data.find((v: any) => v.id === viewId);
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${viewId}`, { ...view, settings: { ...view.settings, published: true }, row_version: view.row_version + 1 });
    const reader = await world.browser.newContext({ javaScriptEnabled: false });
    const page = await reader.newPage();
    const answer = await page.goto(`${world.server.url}/p/i${world.teamId}-${viewId}/onboarding-${itemId}`);
    expect(answer?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Onboarding');
    const body = await page.locator('article').innerText();
    for (const words of ['Welcome aboard.', 'Written online by A.', 'Written offline by B.']) expect(body).toContain(words);
    await reader.close();
  }, 240_000);
});
