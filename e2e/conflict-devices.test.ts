import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * Issue #30 parts 2 and 3 (decision 0346), in two browser contexts of the same user against the
 * real server: the owner sets a Status offline on device A while an admin sets it online. On A the
 * inbox shows both values by their option names and the admin by name; the activity log says
 * "…’s offline change to Status (Working) was replaced by …'s (Done)"; device B, the same owner
 * in another browser, lists the same conflict; Keep theirs on A takes it off B too.
 */
describe('a conflict on two devices of one user', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let a: Page;
  let b: Page;
  let errors: string[];
  let owner: string;
  let admin: string;
  let adminName: string;
  let boardId: string;
  let itemId: string;
  const statusId = () => `${boardId}s`;

  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    owner = await apiLogin(world.server.url, USERS.owner);
    admin = await apiLogin(world.server.url, USERS.admin);
    const me = await apiCall(world.server.url, admin, 'GET', '/api/me');
    adminName = (me.data ?? me).name as string;
    boardId = await createBoardByApi(world, owner, 'Office Move');
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/attributes/${statusId()}`, {
      id: statusId(),
      board_id: boardId,
      folder_id: boardId,
      name: 'Status',
      kind: 'status',
      position: 2,
      settings: { options: [{ id: 'todo', name: 'Todo', color: '#E2E4F0' }, { id: 'wip', name: 'Working', color: '#FFE8A3' }, { id: 'done', name: 'Done', color: '#B2F2BB', done: true }] },
      row_version: 1,
    });
    itemId = await createItemByApi(world, owner, boardId, 'Cafe supplies');
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/values/${itemId}.${statusId()}`, { id: `${itemId}.${statusId()}`, board_id: boardId, item_id: itemId, attribute_id: statusId(), value: 'todo', row_version: 1 });
    const first = await signedInPage(world, USERS.owner, proxy.url);
    a = first.page;
    errors = first.errors;
    b = (await signedInPage(world, USERS.owner)).page;
  });
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  const openBoard = async (page: Page) => {
    await page.evaluate((path) => {
      window.history.pushState(window.history.state, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, `/b/${boardId}`);
    await page.getByTestId('table-view').waitFor({ timeout: 30_000 });
    await rowByName(page, 'Cafe supplies').waitFor({ timeout: 30_000 });
    // The owner's rights come with the board's first open; until then a click on a cell opens no
    // picker. They are known once the toolbar's New item shows (as in e2e/conflict-inbox).
    await page.getByTestId('new-item').waitFor({ timeout: 60_000 });
  };
  const serverValue = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/values?board_id=${boardId}`)).data as { id: string; value: unknown; row_version: number; updated_by?: number }[]).find((v) => v.id === `${itemId}.${statusId()}`)!;

  it('names the values and the person, writes the activity for both users, and settles on every device', async () => {
    await openBoard(a);
    await openBoard(b);
    const cell = rowByName(a, 'Cafe supplies').locator('.table-cell').nth(2);
    await expect.poll(() => cell.textContent(), { timeout: 30_000 }).toContain('Todo');

    proxy.cut();
    await a.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await cell.click();
    await a.getByRole('option', { name: 'Working' }).click();
    await expect.poll(() => cell.textContent(), { timeout: 30_000 }).toContain('Working');

    // The admin sets it online meanwhile; the server stamps who did.
    const before = await serverValue();
    await apiCall(world.server.url, admin, 'PUT', `/api/${world.teamId}/values/${itemId}.${statusId()}`, { id: `${itemId}.${statusId()}`, board_id: boardId, item_id: itemId, attribute_id: statusId(), value: 'done', row_version: before.row_version + 1 });
    const adminId = (await serverValue()).updated_by;
    expect(typeof adminId).toBe('number');

    proxy.restore();
    await expect.poll(() => a.getByTestId('conflicts-entry').textContent().catch(() => ''), { timeout: 60_000 }).toContain('Conflicts (1)');
    await a.getByTestId('conflicts-entry').click();
    const item = a.getByTestId('conflict-item').first();
    await item.waitFor();
    // Option names, not ids; the admin by name, not a user id.
    expect(await item.getByTestId('conflict-mine').textContent()).toContain('Working');
    expect(await item.getByTestId('conflict-theirs').textContent()).toContain('Done');
    expect(await item.textContent()).not.toMatch(/"wip"|"done"|\bwip\b/);
    expect(await item.textContent()).toContain(`changed by ${adminName}`);

    // The activity entry, for both users.
    for (const token of [owner, admin]) {
      await expect
        .poll(async () => ((await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/activity?item_id=${itemId}`)).data as { type: string; after: { by?: number } }[]).filter((e) => e.type === 'value.conflicted').map((e) => e.after.by), { timeout: 30_000 })
        .toEqual([adminId]);
    }

    // Device B (the same owner, another browser) lists the same conflict.
    await expect.poll(() => b.getByTestId('conflicts-entry').textContent().catch(() => ''), { timeout: 60_000 }).toContain('Conflicts (1)');

    // The activity log on B reads it as a sentence.
    await b.evaluate((path) => {
      window.history.pushState(window.history.state, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, `/team/${world.teamId}/boards/${boardId}/activity`);
    const sentence = b.getByTestId('activity-conflict').first();
    await sentence.waitFor({ timeout: 30_000 });
    expect(await sentence.textContent()).toMatch(new RegExp(`offline change to Status \\(Working\\) was replaced by ${adminName}’s \\(Done\\)`));

    // Keep theirs on A: it leaves A and B.
    await item.getByRole('button', { name: 'Keep theirs' }).click();
    await expect.poll(() => a.getByTestId('conflict-item').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => b.getByTestId('conflicts-entry').count(), { timeout: 60_000 }).toBe(0);
    expect((await serverValue()).value).toBe('done');
    expect(errors).toEqual([]);
  });

  it('names a winner whose account the server no longer finds "Deleted Account"', async () => {
    // Another device of the owner reports a conflict whose winner's account is gone (no route
    // deletes an account: an id no user has). Device B pulls it on the ConflictsChanged event.
    const id = `${itemId}.${statusId()}`;
    const reported = await apiCall(world.server.url, owner, 'POST', `/api/${world.teamId}/conflicts`, {
      key: `deleted-winner-${Date.now()}`, kind: 'field', collection: 'value', id, item_id: itemId, attribute_id: statusId(), field: 'value', text: false,
      mine: 'wip', theirs: 'done', base: 'todo', theirs_by: 2_000_000_001, theirs_at: null, theirs_row_version: null,
    });
    expect(reported.data).toMatchObject({ added: true });
    await expect.poll(() => b.getByTestId('conflicts-entry').textContent().catch(() => ''), { timeout: 60_000 }).toContain('Conflicts (1)');
    await b.getByTestId('conflicts-entry').click();
    const item = b.getByTestId('conflict-item').first();
    await item.waitFor({ timeout: 30_000 });
    await expect.poll(() => item.textContent(), { timeout: 30_000 }).toContain('changed by Deleted Account');
    await item.getByRole('button', { name: 'Keep theirs' }).click();
    await expect.poll(() => b.getByTestId('conflict-item').count(), { timeout: 30_000 }).toBe(0);
  });
});
