import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { startProxy, type CuttableProxy } from './shell-proxy';

/**
 * Issue #30 part 2: a conflict reported or settled on another device of the user reaches a device
 * whose network was cut and came back, without a reload. Device A reaches the server through a
 * cuttable proxy (the SharedWorker ignores the browser's offline switch); the other device is the
 * same user speaking to the server's API. A once held "Conflicts (1)" only after a reload.
 * The merge half of #30's "done when" is here too: two users in two browsers, one offline.
 */
describe('a device back online hears its other devices’ conflicts', () => {
  let world: BoardWorld;
  let proxy: CuttableProxy;
  let a: Page;
  let closeA: (() => Promise<void>) | null = null;
  let errors: string[];
  let owner: string;
  let teamId: number;
  let itemId: string;
  let boardId: string;

  beforeAll(async () => {
    world = await startWorld();
    proxy = await startProxy(world.server.port);
    owner = await apiLogin(world.server.url, USERS.owner);
    teamId = world.teamId;
    boardId = await createBoardByApi(world, owner, 'Reconnect board');
    itemId = await createItemByApi(world, owner, boardId, 'Reconnect item');
  });
  afterAll(async () => {
    await closeA?.();
    await world?.close();
    await proxy?.close();
  });

  const entryText = () => a.getByTestId('conflicts-entry').textContent({ timeout: 1_000 }).catch(() => '');
  let serial = 0;
  /** The other device reports a conflict on the item's name; answers its key. */
  const report = async () => {
    const key = `reconnect-${Date.now()}-${serial++}`;
    const answer = await apiCall(world.server.url, owner, 'POST', `/api/${teamId}/conflicts`, {
      key, kind: 'field', collection: 'item', id: itemId, item_id: itemId, attribute_id: null, field: 'name', text: true,
      mine: `Mine ${serial}`, theirs: 'Reconnect item', base: 'Before', theirs_by: null, theirs_at: null, theirs_row_version: null,
    });
    expect(answer.data).toMatchObject({ added: true });
    return key;
  };
  const resolve = async (key: string) => {
    await apiCall(world.server.url, owner, 'POST', `/api/me/conflicts/${encodeURIComponent(key)}/resolve`, {});
  };

  it('shows and clears a conflict from another device after its network came back', async () => {
    const first = await signedInPage(world, USERS.owner, proxy.url);
    a = first.page;
    errors = first.errors;
    closeA = () => first.context.close();

    // Before the cut: A hears the other device at all (its user channel is subscribed).
    const before = await report();
    await expect.poll(entryText, { timeout: 60_000 }).toContain('Conflicts (1)');
    await resolve(before);
    await expect.poll(() => a.getByTestId('conflicts-entry').count(), { timeout: 60_000 }).toBe(0);

    // A's network goes and comes back.
    proxy.cut();
    await a.getByTestId('offline-banner').waitFor({ timeout: 60_000 });
    proxy.restore();
    await a.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 120_000 });

    // The other device reports a conflict, then settles it: A follows both, with no reload.
    const after = await report();
    await expect.poll(entryText, { timeout: 60_000 }).toContain('Conflicts (1)');
    await resolve(after);
    await expect.poll(() => a.getByTestId('conflicts-entry').count(), { timeout: 60_000 }).toBe(0);
    expect(errors).toEqual([]);
  }, 420_000);

  it('merges an offline rename with another user’s online move of the same item: both land, no conflict', async () => {
    proxy.restore();
    const mergeId = await createItemByApi(world, owner, boardId, 'Merge me');
    // The folder the other user moves it into, in their own browser.
    const laterId = `later-${Date.now().toString(36)}`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${teamId}/folders/${laterId}`, { id: laterId, board_id: boardId, parent_id: boardId, name: 'Later', row_version: 1 });
    const serverCopy = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${teamId}/items?board_id=${boardId}`)).data as { id: string; name: string; folder_id: string; row_version: number }[]).find((i) => i.id === mergeId)!;
    const device = await signedInPage(world, USERS.owner, proxy.url);
    const other = await signedInPage(world, USERS.admin);
    const page = device.page;
    try {
      await page.goto(`${proxy.url}/b/${boardId}`);
      await rowByName(page, 'Merge me').waitFor({ timeout: 30_000 });
      await page.getByTestId('new-item').waitFor({ timeout: 60_000 });
      proxy.cut();
      await page.getByTestId('offline-banner').waitFor({ timeout: 60_000 });
      await rowByName(page, 'Merge me').locator('.table-cell').nth(1).dblclick();
      const input = page.getByRole('textbox', { name: 'Edit Item' });
      await input.fill('Merged offline');
      await input.press('Enter');
      await rowByName(page, 'Merged offline').waitFor();
      // Meanwhile another user, online in a second browser, moves it into a folder (a field the
      // offline edit did not touch).
      await other.page.goto(`${world.server.url}/b/${boardId}`);
      await rowByName(other.page, 'Merge me').locator('input[type=checkbox]').check();
      await other.page.getByTestId('bulk-bar').getByRole('button', { name: 'Move' }).click();
      await other.page.getByRole('dialog').getByRole('button', { name: 'Later' }).click();
      await expect.poll(async () => (await serverCopy()).folder_id, { timeout: 60_000 }).toBe(laterId);
      proxy.restore();
      await expect.poll(async () => { const c = await serverCopy(); return [c.name, c.folder_id]; }, { timeout: 90_000 }).toEqual(['Merged offline', laterId]);
      // The other user sees the offline rename land in the folder they moved it to.
      await other.page.getByTestId('folder-tree').getByRole('link', { name: 'Later' }).click();
      await rowByName(other.page, 'Merged offline').waitFor({ timeout: 60_000 });
      // Nothing for the inbox: only a field both sides changed is a conflict.
      expect(await page.getByTestId('conflicts-entry').count()).toBe(0);
      expect((await apiCall(world.server.url, owner, 'GET', '/api/me/conflicts')).data).toEqual([]);
    } finally {
      proxy.restore();
      await device.context.close();
      await other.context.close();
    }
  }, 420_000);
});
