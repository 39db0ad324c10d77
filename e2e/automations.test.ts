import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, expectText, newId, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';
import { startProxy } from './shell-proxy';

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

  it('a Button attribute runs its automation when clicked in a table cell, the item panel and a column card', async () => {
    const t = world.teamId;
    const buttonId = newId('btn');
    const notesId = newId('notes');
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${buttonId}`, { id: buttonId, board_id: boardId, folder_id: boardId, name: 'Approve', kind: 'button', position: 3, settings: { label: 'Approve' }, row_version: 1 });
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${notesId}`, { id: notesId, board_id: boardId, folder_id: boardId, name: 'Notes', kind: 'text', position: 4, settings: {}, row_version: 1 });
    const ruleId = newId('rule');
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/automations/${ruleId}`, {
      id: ruleId, board_id: boardId, name: 'Approve button', enabled: true, trigger: { type: 'button_clicked', attribute_id: buttonId }, conditions: [], match: 'all',
      actions: [{ type: 'set_value', attribute_id: notesId, value: 'approved' }], position: 1, row_version: 1,
    });
    const inTable = await createItemByApi(world, owner, boardId, 'Click in table');
    const inPanel = await createItemByApi(world, owner, boardId, 'Click in panel');
    const onCard = await createItemByApi(world, owner, boardId, 'Click on card');
    const approved = (itemId: string) => waitForServerCopy(world, owner, 'values', boardId, (values) => values.some((v) => v.item_id === itemId && v.attribute_id === notesId && v.value === 'approved'), 30_000);

    const { page, context } = await signedInPage(world, USERS.full);
    await page.goto(`${world.server.url}/b/${boardId}`);
    const row = rowByName(page, 'Click in table');
    await row.waitFor();
    await row.getByTestId('button-attribute').click();
    await expectText(row.getByTestId('button-attribute'), '✓ Approve'); // optimistic: at once, before the server answers
    await approved(inTable);
    // Autobot's value arrives live in the cell.
    await expectText(row, 'approved', 20_000);

    await page.goto(`${world.server.url}/b/${boardId}/${boardId}/${inPanel}`);
    const panelButton = page.getByTestId('item-attributes').getByTestId('button-attribute');
    await panelButton.click();
    await approved(inPanel);

    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor();
    await page.getByRole('button', { name: 'Add view' }).click();
    await page.getByRole('menuitem', { name: 'Columns' }).click();
    await page.getByTestId('column-view').waitFor();
    const card = page.locator(`[data-card-id="${onCard}"]`);
    await card.getByTestId('button-attribute').click();
    await approved(onCard);
    expect(page.url(), 'the click is the button’s, not the card’s (no item panel opened)').not.toContain(onCard);
    await context.close();
  }, 300_000);

  it('builds "when an item is created, create an item in another board" with a templated value', async () => {
    const t = world.teamId;
    const otherId = await createBoardByApi(world, owner, 'Follow-ups');
    const originId = newId('origin');
    await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${originId}`, { id: originId, board_id: otherId, folder_id: otherId, name: 'Origin', kind: 'text', position: 2, settings: {}, row_version: 1 });
    const { page, context } = await signedInPage(world, USERS.owner);
    // The other board once, so this device knows its folders and attributes.
    await page.goto(`${world.server.url}/b/${otherId}`);
    await page.getByTestId('table-view').waitFor();
    await page.goto(`${world.server.url}/b/${boardId}?t=automations`);
    await page.getByTestId('automation-new').click();
    const builder = page.getByTestId('automation-builder');
    await builder.getByTestId('trigger-type').selectOption('item_created');
    await builder.getByTestId('action-type').selectOption('create_item');
    await builder.getByTestId('action-board').selectOption({ label: 'Follow-ups' });
    await builder.getByTestId('action-create-folder').selectOption({ label: 'Follow-ups' });
    await builder.getByRole('textbox', { name: 'Name of the new item' }).fill('Follow up {{item.name}}');
    await builder.getByRole('button', { name: 'Add a value' }).click();
    await builder.getByRole('textbox', { name: 'Value' }).fill('From {{board.name}}');
    await expectText(builder.getByTestId('automation-sentence'), 'When an item is created, then create item “Follow up {{item.name}}” in Follow-ups');
    await builder.getByTestId('automation-save').click();
    await waitForServerCopy(world, owner, 'automations', boardId, (rules) => rules.some((r) => r.enabled === true && r.actions?.[0]?.board_id === otherId));

    await createItemByApi(world, owner, boardId, 'Kickoff');
    await waitForServerCopy(world, owner, 'items', otherId, (items) => items.some((i) => i.name === 'Follow up Kickoff'), 30_000);
    await waitForServerCopy(world, owner, 'values', otherId, (values) => values.some((v) => v.attribute_id === originId && v.value === 'From Automated'), 30_000);
    await context.close();
  }, 300_000);

  it('a Button click made offline is queued and runs its automation once when the network is back', async () => {
    const t = world.teamId;
    const proxy = await startProxy(world.server.port);
    try {
      const buttonId = newId('obtn');
      const notesId = newId('onotes');
      await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${buttonId}`, { id: buttonId, board_id: boardId, folder_id: boardId, name: 'Ship', kind: 'button', position: 5, settings: { label: 'Ship' }, row_version: 1 });
      await apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${notesId}`, { id: notesId, board_id: boardId, folder_id: boardId, name: 'Shipped', kind: 'text', position: 6, settings: {}, row_version: 1 });
      const ruleId = newId('orule');
      await apiCall(world.server.url, owner, 'PUT', `/api/${t}/automations/${ruleId}`, {
        id: ruleId, board_id: boardId, name: 'Ship button', enabled: true, trigger: { type: 'button_clicked', attribute_id: buttonId }, conditions: [], match: 'all',
        actions: [{ type: 'set_value', attribute_id: notesId, value: 'shipped' }], position: 2, row_version: 1,
      });
      const itemId = await createItemByApi(world, owner, boardId, 'Ship offline');
      const { page, context } = await signedInPage(world, USERS.full, proxy.url);
      await page.goto(`${proxy.url}/b/${boardId}/${boardId}/${itemId}`);
      const button = page.getByTestId('item-attributes').locator(`[data-testid="button-attribute"][data-attribute-id="${buttonId}"]`);
      await button.waitFor({ timeout: 30_000 });

      proxy.cut();
      await button.click();
      await expectText(button, '✓ Ship'); // accepted at once, offline
      await page.waitForTimeout(1500);
      const shipped = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${t}/values?board_id=${boardId}`)).data as { item_id: string; attribute_id: string; value: unknown }[]).filter((v) => v.item_id === itemId && v.attribute_id === notesId && v.value === 'shipped').length;
      expect(await shipped(), 'nothing reached the server while cut').toBe(0);

      proxy.restore();
      await expect.poll(shipped, { timeout: 40_000 }).toBe(1);
      const runs = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${t}/automations/runs?board_id=${boardId}&automation_id=${ruleId}`)).data as { result: string }[]).map((r) => r.result);
      await expect.poll(runs, { timeout: 20_000 }).toEqual(['done']);
      await page.waitForTimeout(1000);
      expect(await runs(), 'the queued click ran its automation once').toEqual(['done']);
      await context.close();
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
