import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import * as Y from 'yjs';
import { startProxy } from './shell-proxy';
import { AWARENESS_STALE_MS } from '../src/boards/docs/presence';
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
  // A failed test must not leave its browsers on the board: an owner tab left open by the first
  // test kept the owner on the presence channel, so the second test's "A leaves" got no
  // member_removed and waited for the stale timeout (failed once in CI that way).
  const contexts: BrowserContext[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => undefined);
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });
  const signedIn = async (...args: Parameters<typeof signedInPage>) => {
    const opened = await signedInPage(...args);
    contexts.push(opened.context);
    return opened;
  };

  const serverText = async () => {
    const updates = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/doc-updates?board_id=${boardId}`)).data.filter((u: any) => u.item_id === itemId);
    const doc = new Y.Doc();
    for (const u of updates) Y.applyUpdate(doc, new Uint8Array(Buffer.from(u.update, 'base64')));
    return doc.getXmlFragment('default').toString();
  };

  /** The board public and the docs view published (once; the second test does not rely on the first). */
  const publish = async () => {
    const board = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${boardId}`)).data.find((f: any) => f.id === boardId);
    if (!board.is_public) await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: board.row_version + 1 });
    const view = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folder-views?board_id=${boardId}`)).data.find((v: any) => v.id === viewId);
    if (!view.settings?.published) await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${viewId}`, { ...view, settings: { ...view.settings, published: true }, row_version: view.row_version + 1 });
  };

  it('merges an offline edit with a live one, in both browsers and on the server; the published page reads without JavaScript', async () => {
    const proxy = await startProxy(world.server.port);
    closers.push(() => proxy.close());
    const a = await signedIn(world, USERS.owner);
    const b = await signedIn(world, USERS.full, proxy.url);
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

    // Each editor until it has all three: B had its own line from the start and A's arrives after
    // the network is back (waiting for B's line alone raced A's update into B's editor).
    const all = ['Welcome aboard.', 'Written online by A.', 'Written offline by B.'];
    for (const editor of [editorA, editorB]) {
      await expect.poll(async () => { const text = await editor.innerText(); return all.filter((words) => !text.includes(words)); }, { timeout: 45_000 }).toEqual([]);
    }
    await expect.poll(serverText, { timeout: 30_000 }).toContain('Written offline by B.');
    // The same paragraphs in both (their text: innerText would also count the line break
    // ProseMirror puts after the other's caret at a paragraph's end).
    const paragraphs = (editor: typeof editorA) => editor.locator('p').evaluateAll((ps) => ps.map((p) => p.textContent));
    expect(await paragraphs(editorA)).toEqual(await paragraphs(editorB));
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
    await proxy.close();

    // Published: the board public, the view published; read in a browser with JavaScript off.
    await publish();
    const reader = await world.browser.newContext({ javaScriptEnabled: false });
    const page = await reader.newPage();
    const answer = await page.goto(`${world.server.url}/p/i${world.teamId}-${viewId}/onboarding-${itemId}`);
    expect(answer?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Onboarding');
    const body = await page.locator('article').innerText();
    for (const words of ['Welcome aboard.', 'Written online by A.', 'Written offline by B.']) expect(body).toContain(words);
    await reader.close();
  }, 240_000);

  it('a table, an embed of another item and an image made in one tab appear in the other, with the writer’s caret; the published page shows them', async () => {
    const docId = await createItemByApi(world, owner, boardId, 'Release plan');
    const embeddedId = await createItemByApi(world, owner, boardId, 'Launch checklist');
    const me = await apiCall(world.server.url, owner, 'GET', '/api/me');
    const ownerName = String(me.data?.name ?? me.name);
    const ownerId = Number(me.data?.id ?? me.id);
    // An item the full member may not read: in a hidden folder whose only member is the owner.
    const privateId = `pf${Date.now().toString(36)}`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${privateId}`, { id: privateId, board_id: boardId, parent_id: boardId, name: 'Private', hidden: true, user_ids: [ownerId], row_version: 1 });
    await createItemByApi(world, owner, boardId, 'Secret acquisition', privateId);
    const a = await signedIn(world, USERS.owner);
    const b = await signedIn(world, USERS.full);
    for (const { page } of [a, b]) {
      await page.goto(`${world.server.url}/b/${boardId}?view=${viewId}`);
      await page.getByRole('button', { name: 'Release plan' }).click();
      await page.getByRole('heading', { name: 'Release plan' }).waitFor({ timeout: 30_000 });
    }
    const editorA = a.page.getByTestId('doc-editor');
    const editorB = b.page.getByTestId('doc-editor');
    await editorB.waitFor({ timeout: 30_000 });
    await b.page.waitForTimeout(2500); // realtime subscriptions are authorised in 2 s batches

    // An embed, typed: "[[" opens the list of the board's items.
    await editorA.click();
    await a.page.keyboard.type('See [[Launch');
    await a.page.getByRole('listbox', { name: 'Embed an item' }).getByRole('option', { name: 'Launch checklist' }).waitFor();
    await a.page.keyboard.press('Enter');
    await expect.poll(() => editorB.getByTestId('doc-embed').innerText(), { timeout: 30_000 }).toContain('Launch checklist');
    // An embed of the item B may not read: A sees its name, B only "Item not available".
    await a.page.keyboard.type(' and [[Secret');
    await a.page.getByRole('listbox', { name: 'Embed an item' }).getByRole('option', { name: 'Secret acquisition' }).waitFor();
    await a.page.keyboard.press('Enter');
    await expect.poll(() => editorA.getByTestId('doc-embed').allInnerTexts()).toEqual(['Launch checklist', 'Secret acquisition']);
    await expect.poll(() => editorB.getByTestId('doc-embed').allInnerTexts(), { timeout: 30_000 }).toEqual(['Launch checklist', 'Item not available']);
    expect(await b.page.content()).not.toContain('Secret acquisition');

    // A table from the toolbar; Tab goes to the next cell.
    await a.page.keyboard.press('Enter');
    await a.page.getByRole('button', { name: 'Table', exact: true }).click();
    await a.page.keyboard.type('Step');
    await a.page.keyboard.press('Tab');
    await a.page.keyboard.type('Owner');
    await a.page.getByRole('button', { name: 'Add row' }).click();
    await expect.poll(() => editorB.locator('table th').evaluateAll((cells) => cells.map((c) => c.textContent)), { timeout: 30_000 }).toEqual(['Step', 'Owner', '']);
    await expect.poll(() => editorB.locator('table tr').count()).toBe(4);

    // A's caret and name are shown in B (awareness over the presence channel), and the "also here" list.
    await expect.poll(() => b.page.getByTestId('doc-caret').evaluateAll((carets) => carets.map((c) => c.getAttribute('data-name'))), { timeout: 30_000 }).toContain(ownerName);
    await expect.poll(() => b.page.getByTestId('doc-also-here').innerText(), { timeout: 30_000 }).toContain(ownerName);

    // An image, uploaded as an attachment of the item, shown to both.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await editorA.click();
    await a.page.keyboard.press('Control+End');
    await a.page.getByTestId('doc-image-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    const imageB = editorB.locator('img.doc-image');
    await expect.poll(() => imageB.count(), { timeout: 30_000 }).toBe(1);
    expect(await imageB.getAttribute('src')).toMatch(/^\/api\/files\/attachments\/[A-Za-z0-9_-]+\.png$/);
    await expect.poll(() => imageB.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    // A leaves (closing the browser context runs no unload handler for sure): A was the owner's
    // last connection to the board, so the presence channel's member_removed drops the caret at
    // once — well before the stale bound (AWARENESS_STALE_MS after A's last renewal, at least
    // 9 s), the fallback when a member still has another tab on the board (unit-tested).
    await a.context.close();
    await expect.poll(() => b.page.getByTestId('doc-caret').count(), { timeout: AWARENESS_STALE_MS - 7_000 }).toBe(0);
    // The embed's card opens the item it names.
    await editorB.getByTestId('doc-embed').first().getByRole('button').click();
    await expect.poll(() => b.page.url()).toContain(embeddedId);
    expect(b.errors).toEqual([]);
    await b.context.close();

    // The published page, no JavaScript.
    await publish();
    const reader = await world.browser.newContext({ javaScriptEnabled: false });
    const page = await reader.newPage();
    await expect
      .poll(async () => (await page.goto(`${world.server.url}/p/i${world.teamId}-${viewId}/release-plan-${docId}`))?.status(), { timeout: 30_000 })
      .toBe(200);
    await expect.poll(async () => (await page.reload(), await page.locator('article table th').evaluateAll((cells) => cells.map((c) => c.textContent))), { timeout: 30_000 }).toEqual(['Step', 'Owner', '']);
    expect(await page.locator('article img').getAttribute('src')).toMatch(/^\/api\/files\/attachments\//);
    expect(await page.locator('article .embed').count()).toBe(2);
    expect(await page.content()).not.toContain('Secret acquisition');
    await reader.close();
  }, 240_000);
});
