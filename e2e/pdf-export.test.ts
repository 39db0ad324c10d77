import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../tests/helpers/pdf-text';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * PDF export in the browser (decision 0225): Export PDF next to Export CSV starts the job, the
 * tray words it as an export ("Drawing the PDF", "The PDF is ready."), and Download PDF saves a
 * PDF whose text has the board's items, Arabic and Chinese included. Moving a board to another
 * workspace from its settings page (decision 0227): the confirmation, the tray's words for a move,
 * the board in the other workspace. Duplicating a folder from the tree's menu (decision 0226): the
 * dialog, the tray's words for a copy, the copy in the open board's tree.
 */

describe('PDF export in the browser', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let dir: string;
  const names = ['Plan the launch', 'مراجعة الخطة', '准备材料'];
  const itemIds: string[] = [];
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Exported board');
    for (const name of names) itemIds.push(await createItemByApi(world, owner, boardId, name));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-pdf-e2e-'));
  });
  afterAll(async () => world?.close());

  it('exports the view as PDF through the jobs tray and downloads it', async () => {
    const { page, context } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor({ timeout: 30_000 });
    await page.getByTestId('view-more-button').click();
    await page.getByRole('menuitem', { name: 'Export PDF' }).click();

    const card = page.getByTestId('job-card').first();
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 90_000 }).toBe('done');
    await expect.poll(() => card.textContent()).toContain('The PDF is ready.');
    expect(await card.textContent()).not.toContain('imported');

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), card.getByTestId('job-download').click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = path.join(dir, 'view.pdf');
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const squashed = (await pdfText(bytes)).text.replace(/\s+/g, '');
    // Each word (an Arabic phrase reads back in visual order, right to left, so word by word).
    for (const word of names.flatMap((n) => n.split(' '))) expect(squashed).toContain(word);

    // One item from its panel: a second job, its own PDF.
    await page.goto(`${world.server.url}/b/${boardId}/${boardId}/${itemIds[0]}`);
    await page.getByTestId('item-panel').waitFor({ timeout: 30_000 });
    await page.getByTestId('item-pdf-button').click();
    const itemCard = page.getByTestId('job-card').filter({ hasText: names[0]! });
    await itemCard.waitFor({ timeout: 30_000 });
    await expect.poll(() => itemCard.getAttribute('data-state'), { timeout: 90_000 }).toBe('done');
    const [itemDownload] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), itemCard.getByTestId('job-download').click()]);
    expect(itemDownload.suggestedFilename()).toBe(`${names[0]}.pdf`);
    const itemFile = path.join(dir, 'item.pdf');
    await itemDownload.saveAs(itemFile);
    const itemText = (await pdfText(fs.readFileSync(itemFile))).text;
    expect(itemText).toContain(names[0]!);
    expect(itemText).toContain('Comments');
    await context.close();
  }, 240_000);

  it('moves a board to another workspace from its settings page, with the tray saying so', async () => {
    // The demo owner's plan has no room for a second workspace: the admin (a member here) makes one of their own.
    const admin = await apiLogin(world.server.url, USERS.admin);
    const other = (await apiCall(world.server.url, admin, 'POST', '/api/teams', { name: 'Second workspace' })) as { data?: { id: number }; id?: number };
    const otherId = other.data?.id ?? other.id!;
    const moving = await createBoardByApi(world, admin, 'Board to move');
    for (const name of ['One', 'Two']) await createItemByApi(world, admin, moving, name);
    const { page, context } = await signedInPage(world, USERS.admin);
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/${moving}/edit`);
    const form = page.getByTestId('move-board');
    await form.waitFor({ timeout: 30_000 });
    await form.locator('select').selectOption(String(otherId));
    await form.getByRole('button').click();
    await page.getByRole('dialog').getByText('Second workspace', { exact: false }).first().waitFor({ timeout: 10_000 });
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();

    const card = page.getByTestId('job-card').filter({ hasText: 'Board to move' });
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 90_000 }).toBe('done');
    await expect.poll(() => card.textContent()).toContain('The board was moved with 2 items.');
    const items = await apiCall(world.server.url, admin, 'GET', `/api/${otherId}/items?board_id=${encodeURIComponent(moving)}`);
    expect(JSON.stringify(items)).toContain('One');
    await context.close();
  }, 240_000);

  it('duplicates a folder from its menu in the tree, with the tray wording it as a copy', async () => {
    const boardId2 = await createBoardByApi(world, owner, 'Folders to copy');
    const sprint = `f${Date.now().toString(36)}`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folders/${sprint}`, { id: sprint, board_id: boardId2, parent_id: boardId2, name: 'Sprint 7', row_version: 1 });
    for (const name of ['Alpha', 'Beta', 'Gamma']) await createItemByApi(world, owner, boardId2, name, sprint);
    const { page, context } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId2}`);
    await page.getByRole('button', { name: 'Folder actions for Sprint 7' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate…' }).click();
    const form = page.getByTestId('duplicate-folder');
    await form.waitFor({ timeout: 10_000 });
    await form.getByRole('button', { name: 'Duplicate folder' }).click();
    const card = page.getByTestId('job-card').filter({ hasText: 'Sprint 7 (copy)' });
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 90_000 }).toBe('done');
    await expect.poll(() => card.textContent()).toContain('The copy is ready with 3 items.');
    const copies = await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folders?board_id=${encodeURIComponent(boardId2)}`);
    expect(JSON.stringify(copies)).toContain('Sprint 7 (copy)');
    // The open board shows the copy without a reload (the job's records reach it through realtime or /changes).
    await expect.poll(async () => (await page.getByTestId('folder-tree').textContent()) ?? '', { timeout: 30_000 }).toContain('Sprint 7 (copy)');
    await context.close();
  }, 240_000);
});
