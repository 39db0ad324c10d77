import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiLogin, createBoardInUi, expectText, rowByName, signedInPage, startWorld, USERS, waitForServerCopy, type BoardWorld } from './boards-helpers';

/** Boards in Chromium against the real server: one board built up step by step. */
describe('boards: create, items, attributes, table, folders, trash, undo', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];
  let boardId: string;
  let token: string;
  beforeAll(async () => {
    world = await startWorld();
    ({ page, errors } = await signedInPage(world, USERS.owner));
    token = await apiLogin(world.server.url, USERS.owner);
  });
  afterAll(async () => world?.close());

  const cell = (name: string, column: number) => rowByName(page, name).locator('.table-cell').nth(column);
  const editCell = async (name: string, column: number, label: string, text: string) => {
    await cell(name, column).dblclick();
    const input = page.getByRole('textbox', { name: `Edit ${label}` }).first();
    await input.fill(text);
    await input.press('Enter');
  };

  it('creates a board (the name is required), adds items and renames them inline', async () => {
    await page.goto(`${world.server.url}/team/${world.teamId}/boards/create`);
    await page.getByRole('button', { name: 'Create board' }).click();
    await expectText(page.getByRole('alert'), 'enter the board name');
    boardId = await createBoardInUi(page, world, 'Roadmap');
    await expectText(page.locator('.folder-title'), 'Roadmap');
    await page.getByTestId(`boards-nav-${world.teamId}`).getByRole('link', { name: 'Roadmap', exact: true }).waitFor();

    // The inline new-item row: type a name, Enter adds it and the row is ready for the next.
    const newItem = page.getByTestId('new-item-input');
    await newItem.fill('Write the plan');
    await newItem.press('Enter');
    await rowByName(page, 'Write the plan').waitFor();
    await expect.poll(() => newItem.inputValue()).toBe('');
    await page.keyboard.type('Ship it');
    await page.keyboard.press('Enter');
    await rowByName(page, 'Ship it').waitFor();
    await waitForServerCopy(world, token, 'items', boardId, (items) => items.some((i) => i.name === 'Write the plan') && items.some((i) => i.name === 'Ship it'));
  });

  it('adds attributes, refuses a duplicate name and type, validates values per kind', async () => {
    await page.getByTestId('attributes-button').click();
    for (const [name, kind] of [['Contact', 'email'], ['When', 'date-range'], ['Stage', 'status']] as const) {
      await page.getByTestId('new-attribute').click();
      const form = page.getByTestId('attribute-form');
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Kind').selectOption(kind);
      if (kind === 'status') {
        // A new Status starts with To do / In progress / Done / Stuck.
        await expect.poll(() => form.getByLabel('Label name').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['To do', 'In progress', 'Done', 'Stuck']);
      }
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByTestId('attribute-form').waitFor({ state: 'detached' });
    }
    await page.getByTestId('new-attribute').click();
    const form = page.getByTestId('attribute-form');
    await form.getByLabel('Name').fill(' contact ');
    await form.getByLabel('Kind').selectOption('email');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(page.getByTestId('attribute-error'), 'an attribute with the same name and type already exists');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');

    // Email: a bad address stays in the editor with the message; a good one is saved.
    await cell('Write the plan', 2).dblclick();
    const email = page.getByRole('textbox', { name: 'Edit Contact' });
    await email.fill('not-an-email');
    await email.press('Enter');
    await expectText(page.getByTestId('value-error'), 'enter a valid email address');
    await email.fill('ada@example.com');
    await email.press('Enter');
    await expectText(cell('Write the plan', 2), 'ada@example.com');

    // Date range: the end may not be before the start.
    await cell('Write the plan', 3).dblclick();
    await page.getByLabel('Start date').fill('2026-05-10');
    await page.getByLabel('End date').fill('2026-05-01');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(page.getByTestId('value-error'), "An item's end date must not be before its start date.");
    await page.getByLabel('End date').fill('2026-05-20');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(cell('Write the plan', 3), '2026-05-10 – 2026-05-20');

    // Status: one click opens the picker, one more chooses.
    await cell('Ship it', 4).click();
    await page.getByRole('option', { name: 'Done' }).click();
    await expectText(cell('Ship it', 4), 'Done');
    await waitForServerCopy(world, token, 'values', boardId, (values) => values.some((v) => v.value === 'ada@example.com') && values.some((v) => v.value?.start === '2026-05-10'));
  });

  it('moves through the table with the keyboard and edits with Enter', async () => {
    await cell('Write the plan', 1).click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const input = page.getByRole('textbox', { name: 'Edit Name' });
    await input.fill('Ship it now');
    await input.press('Enter');
    await rowByName(page, 'Ship it now').waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('textbox', { name: 'Edit Contact' }).inputValue()).toBe('ada@example.com');
    await page.keyboard.press('Escape');
  });

  it('sorts by a header click and filters', async () => {
    const names = () => page.locator('.table-row').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('.table-cell')[1]?.textContent?.replace('⤢', '').trim()));
    await page.locator('.table-head-button', { hasText: 'Name' }).click();
    await expect.poll(names).toEqual(['Ship it now', 'Write the plan']);
    await page.locator('.table-head-button', { hasText: 'Name' }).click();
    await expect.poll(names).toEqual(['Write the plan', 'Ship it now']);
    // Filters apply as they are made (no Apply), and are the user's own until saved for everyone.
    await page.getByTestId('filter-button').click();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Attribute').selectOption({ label: 'Name' });
    await page.getByLabel('Value').fill('ship');
    await expect.poll(names).toEqual(['Ship it now']);
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(names).toHaveLength(2);
    await page.keyboard.press('Escape');
  });

  it('nests folders, hides one, moves items into it and brings them back from trash', async () => {
    await page.getByRole('button', { name: 'Folder actions for Roadmap' }).click();
    await page.getByRole('menuitem', { name: 'New subfolder' }).click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Sprint 1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(page.locator('.folder-title'), 'Sprint 1');
    await page.getByRole('button', { name: 'Folder actions for Sprint 1' }).click();
    await page.getByRole('menuitem', { name: 'New subfolder' }).click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Week 1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(page.locator('.folder-title'), 'Week 1');
    await page.locator('.folder-row', { hasText: 'Week 1' }).getAttribute('aria-level').then((level) => expect(level).toBe('3'));

    await page.getByRole('button', { name: 'Folder actions for Sprint 1' }).click();
    await page.getByRole('menuitem', { name: 'Hide folder' }).click();
    await expectText(page.locator('.folder-row', { hasText: 'Week 1' }), 'hidden');

    await page.getByTestId('folder-tree').getByRole('link', { name: 'Roadmap', exact: true }).click();
    await rowByName(page, 'Write the plan').locator('input[type=checkbox]').check();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Move' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Week 1' }).click();
    await expect.poll(() => page.locator('.table-row').count()).toBe(1);
    await page.getByTestId('folder-tree').getByRole('link', { name: 'Week 1' }).click();
    await rowByName(page, 'Write the plan').waitFor();

    // Delete to trash, restore from the trash screen.
    await rowByName(page, 'Write the plan').locator('input[type=checkbox]').check();
    // No confirmation (the trash gives it back): a toast says so and offers Undo.
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.table-row').count()).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await rowByName(page, 'Write the plan').waitFor();
    await rowByName(page, 'Write the plan').locator('input[type=checkbox]').check();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.table-row').count()).toBe(0);
    await waitForServerCopy(world, token, 'items', boardId, (items) => !items.some((i) => i.name === 'Write the plan'));
    await page.getByRole('button', { name: 'Trash' }).click();
    await page.getByTestId('trash-list').locator('li', { hasText: 'Write the plan' }).getByRole('button', { name: 'Restore' }).click();
    await page.keyboard.press('Escape');
    await rowByName(page, 'Write the plan').waitFor({ timeout: 15_000 });
  });

  it('undoes and redoes the user’s own edit with Ctrl+Z and Ctrl+Shift+Z', async () => {
    await editCell('Write the plan', 1, 'Name', 'Renamed once');
    await rowByName(page, 'Renamed once').waitFor();
    await page.locator('.table-scroll').focus();
    await page.keyboard.press('Control+z');
    await rowByName(page, 'Write the plan').waitFor();
    await page.keyboard.press('Control+Shift+z');
    await rowByName(page, 'Renamed once').waitFor();
    await waitForServerCopy(world, token, 'items', boardId, (items) => items.some((i) => i.name === 'Renamed once'));
    expect(errors).toEqual([]);
  });
});
