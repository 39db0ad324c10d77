import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

/**
 * Automations in the browser against the real server: the owner builds "When Status changes to
 * Done, then move item to Archive" with the sentence builder; a member sets Done in another tab;
 * the runner (Autobot) moves the item and the owner's tab shows it in Archive live.
 */
describe('automations', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let archiveId: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Automated');
    const t = world.teamId;
    archiveId = `${boardId}a`;
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/folders/${archiveId}`, { id: archiveId, board_id: boardId, parent_id: boardId, name: 'Archive', row_version: 1 });
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${boardId}s`, {
      id: `${boardId}s`,
      board_id: boardId,
      folder_id: boardId,
      name: 'Status',
      kind: 'status',
      position: 2,
      settings: { options: [{ id: 'todo', name: 'Todo', color: '#E2E4F0' }, { id: 'done', name: 'Done', color: '#B2F2BB', done: true }] },
      row_version: 1,
    });
    await createItemByApi(world, owner, boardId, 'Task A');
  }, 300_000); // a server start on a loaded 2-core machine takes most of the default two minutes
  afterAll(async () => world?.close());

  it('builds "when Status becomes Done, move to Archive" and moves the item live when another tab sets Done', async () => {
    const a = await signedInPage(world, USERS.owner);
    await a.page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(a.page, 'Task A').waitFor();
    await a.page.getByTestId('open-automations').click();
    await a.page.getByTestId('automation-new').click();
    const builder = a.page.getByTestId('automation-builder');
    await builder.getByTestId('trigger-type').selectOption('value_changed');
    await builder.getByTestId('trigger-attribute').selectOption({ label: 'Status' });
    await builder.getByTestId('trigger-to').selectOption({ label: 'Done' });
    await expectText(builder.getByTestId('automation-invalid'), 'The automation is not complete or not valid.');
    await builder.getByTestId('action-type').selectOption('move_to_folder');
    await builder.getByTestId('action-folder').selectOption({ label: 'Archive' });
    await expect.poll(() => builder.getByTestId('automation-invalid').count()).toBe(0);
    await expectText(builder.getByTestId('automation-sentence'), 'When Status changes to Done, then move item to Archive');
    await builder.getByTestId('automation-save').click();
    await expectText(a.page.getByTestId('automation-card'), 'When Status changes to Done, then move item to Archive');
    await waitForServerCopy(world, owner, 'automations', boardId, (rules) => rules.some((r) => r.enabled === true && r.actions?.[0]?.folder_id === archiveId));

    // The owner watches the Archive folder; a member sets Done in another tab.
    await a.page.goto(`${world.server.url}/b/${boardId}/${archiveId}`);
    await a.page.getByTestId('folder-pane').waitFor();
    await a.page.waitForTimeout(2500); // realtime channels are authorised in 2 s batches
    const b = await signedInPage(world, USERS.full);
    await b.page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(b.page, 'Task A').waitFor();
    await rowByName(b.page, 'Task A').locator('.table-cell').nth(2).dblclick();
    await b.page.getByRole('option', { name: 'Done' }).click();

    await rowByName(a.page, 'Task A').waitFor({ timeout: 20_000 });
    const item = (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data.find((i: { name: string }) => i.name === 'Task A');
    expect(item.folder_id).toBe(archiveId);
    await a.context.close();
    await b.context.close();
  }, 300_000);
});
