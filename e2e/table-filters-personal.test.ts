import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #30 part 6 (review M2), in Chromium against the real server: filter conditions fit each
 * attribute kind (the option and people pickers, numbers, dates, checkbox) and apply at once; a
 * user's filters, sorts and groups are their own (kept across a reload, not seen by another member)
 * until "Save for everyone", and "Reset" drops them.
 */
describe('table: filters by kind, personal until saved for everyone', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  const contexts: BrowserContext[] = [];
  const attr = (suffix: string) => `${boardId}${suffix}`;
  const NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta'];

  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Filters');
    const t = world.teamId;
    const members = (await apiCall(world.server.url, owner, 'GET', `/api/teams/${t}/members`)) as { data?: { id: number; name: string }[] } | { id: number; name: string }[];
    const list = Array.isArray(members) ? members : (members.data ?? []);
    const ada = list.find((m) => m.name === 'Ada Admin')!.id;
    const finn = list.find((m) => m.name === 'Finn Full')!.id;
    const put = (suffix: string, name: string, kind: string, position: number, settings: object = {}) =>
      apiCall(world.server.url, owner, 'PUT', `/api/${t}/attributes/${attr(suffix)}`, { id: attr(suffix), board_id: boardId, folder_id: boardId, name, kind, position, settings, row_version: 1 });
    await put('s', 'Stage', 'status', 2, {
      options: [
        { id: 'todo', name: 'To do', color: '#E2E4F0' },
        { id: 'doing', name: 'Doing', color: '#FFE8A3' },
        { id: 'done', name: 'Done', color: '#B2F2BB' },
      ],
    });
    await put('b', 'Budget', 'number', 3);
    await put('d', 'Due', 'date', 4);
    await put('m', 'Owner', 'members', 5);
    await put('c', 'Ok', 'checkbox', 6);
    const rows: Record<string, [string, number, string, number[], boolean]> = {
      Alpha: ['todo', 10, '2026-01-05', [ada], true],
      Bravo: ['doing', 50, '2026-02-10', [finn], false],
      Charlie: ['done', 90, '2026-03-15', [ada, finn], true],
      Delta: ['todo', 200, '2026-04-20', [], false],
    };
    for (const name of NAMES) {
      const id = await createItemByApi(world, owner, boardId, name);
      const [stage, budget, due, people, ok] = rows[name]!;
      for (const [suffix, value] of [['s', stage], ['b', budget], ['d', due], ['m', people], ['c', ok]] as const) {
        if (Array.isArray(value) && value.length === 0) continue;
        await apiCall(world.server.url, owner, 'PUT', `/api/${t}/values/${id}.${attr(suffix)}`, { id: `${id}.${attr(suffix)}`, board_id: boardId, item_id: id, attribute_id: attr(suffix), value, row_version: 1 });
      }
    }
  }, 300_000);
  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close().catch(() => undefined);
  });
  afterAll(async () => world?.close());

  const open = async (email: string): Promise<Page> => {
    const { context, page } = await signedInPage(world, email);
    contexts.push(context);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(page, 'Delta').waitFor();
    return page;
  };
  const names = (page: Page) => page.locator('.table-row').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('.table-cell')[1]?.textContent?.replace('⤢', '').trim()));
  /** The one filter rule being made: attribute, condition, and its row. */
  const rule = (page: Page) => page.getByTestId('filter-rule').last();
  const startRule = async (page: Page, attribute: string, condition: string) => {
    await page.getByRole('button', { name: 'Add filter' }).click();
    await rule(page).getByLabel('Attribute').selectOption({ label: attribute });
    await rule(page).getByLabel('Condition').selectOption({ label: condition });
  };
  const removeRule = async (page: Page) => {
    await rule(page).getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => names(page)).toHaveLength(4);
  };

  it('offers conditions that fit each kind and applies them as they are made', async () => {
    const page = await open(USERS.owner);
    await page.getByTestId('filter-button').click();

    // Status: is / is not / is any of, with the option picker; no "is greater than".
    await page.getByRole('button', { name: 'Add filter' }).click();
    await rule(page).getByLabel('Attribute').selectOption({ label: 'Stage' });
    const stageConditions = await rule(page).getByLabel('Condition').locator('option').allTextContents();
    expect(stageConditions).toEqual(['is', 'is not', 'is any of', 'is empty', 'is not empty']);
    // A rule with no option chosen yet filters nothing.
    expect(await names(page)).toHaveLength(4);
    await rule(page).getByRole('button', { name: 'Doing' }).click();
    await expect.poll(() => names(page)).toEqual(['Bravo']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is any of' });
    await rule(page).getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => names(page)).toEqual(['Bravo', 'Charlie']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is not' });
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Charlie', 'Delta']);
    await removeRule(page);

    // Numbers compare.
    await startRule(page, 'Budget', 'is greater than');
    await rule(page).getByLabel('Value', { exact: true }).fill('60');
    await expect.poll(() => names(page)).toEqual(['Charlie', 'Delta']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is between' });
    await rule(page).getByLabel('From', { exact: true }).fill('10');
    await rule(page).getByLabel('To', { exact: true }).fill('90');
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    await removeRule(page);

    // Dates: before / after / between.
    await startRule(page, 'Due', 'is before');
    expect(await rule(page).getByLabel('Condition').locator('option').allTextContents()).toEqual(['is on', 'is before', 'is after', 'is between', 'is empty', 'is not empty']);
    await rule(page).getByLabel('Value', { exact: true }).fill('2026-03-01');
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Bravo']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is between' });
    await rule(page).getByLabel('To', { exact: true }).fill('2026-03-31');
    await rule(page).getByLabel('From', { exact: true }).fill('2026-02-01');
    await expect.poll(() => names(page)).toEqual(['Bravo', 'Charlie']);
    await removeRule(page);

    // People: is / is any of, with avatars.
    await startRule(page, 'Owner', 'is');
    await rule(page).getByRole('button', { name: /Finn Full/ }).click();
    await expect.poll(() => names(page)).toEqual(['Bravo', 'Charlie']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is any of' });
    await rule(page).getByRole('button', { name: /Ada Admin/ }).click();
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is empty' });
    await expect.poll(() => names(page)).toEqual(['Delta']);
    await removeRule(page);

    // Checkbox: checked / not checked, nothing to type.
    await startRule(page, 'Ok', 'is checked');
    expect(await rule(page).getByLabel('Condition').locator('option').allTextContents()).toEqual(['is checked', 'is not checked']);
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Charlie']);
    await rule(page).getByLabel('Condition').selectOption({ label: 'is not checked' });
    await expect.poll(() => names(page)).toEqual(['Bravo', 'Delta']);

    // Text contains (the name).
    await startRule(page, 'Name', 'contains');
    await rule(page).getByLabel('Value', { exact: true }).fill('ta');
    await expect.poll(() => names(page)).toEqual(['Delta']);
    await page.keyboard.press('Escape');
  }, 600_000); // an outer limit for many steps on a loaded machine, never a speed check (issue 32)

  it('keeps filters and sorts personal across a reload until "Save for everyone"; Reset drops them', async () => {
    const page = await open(USERS.owner);
    await page.getByTestId('filter-button').click();
    await startRule(page, 'Stage', 'is');
    await rule(page).getByRole('button', { name: 'To do' }).click();
    await expect.poll(() => names(page)).toEqual(['Alpha', 'Delta']);
    await page.keyboard.press('Escape');
    // A sort by a header click is personal too.
    await page.locator('.table-head-button', { hasText: 'Budget' }).click();
    await page.locator('.table-head-button', { hasText: 'Budget' }).click();
    await expect.poll(() => names(page)).toEqual(['Delta', 'Alpha']);
    const marker = page.getByTestId('personal-view-marker');
    await marker.waitFor();

    // Kept across a reload.
    await page.reload();
    await rowByName(page, 'Delta').waitFor();
    await expect.poll(() => names(page)).toEqual(['Delta', 'Alpha']);
    await marker.waitFor();

    // Another member sees the shared view: every item, no filter, no marker; nothing was saved.
    const member = await open(USERS.full);
    await expect.poll(() => names(member)).toEqual(NAMES);
    expect(await member.getByTestId('personal-view-marker').count()).toBe(0);
    const views = async () => (await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/folder-views?board_id=${boardId}`)).data as { settings?: { filters?: unknown[] } }[];
    expect((await views()).some((v) => (v.settings?.filters ?? []).length > 0)).toBe(false);

    // Save for everyone: the member's view follows (live), the owner's marker goes.
    await marker.getByRole('button', { name: 'Save for everyone' }).click();
    await marker.waitFor({ state: 'detached' });
    await expect.poll(() => names(member)).toEqual(['Delta', 'Alpha']);
    await expect.poll(async () => (await views()).some((v) => (v.settings?.filters ?? []).length === 1)).toBe(true);

    // The member filters for themselves, then resets back to the shared view.
    await member.getByTestId('filter-button').click();
    await rule(member).getByLabel('Condition').selectOption({ label: 'is empty' });
    await expect.poll(() => names(member)).toEqual([]);
    await member.keyboard.press('Escape');
    const memberMarker = member.getByTestId('personal-view-marker');
    await memberMarker.waitFor();
    await memberMarker.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => names(member)).toEqual(['Delta', 'Alpha']);
    await memberMarker.waitFor({ state: 'detached' });
    // The owner's view never changed.
    await expect.poll(() => names(page)).toEqual(['Delta', 'Alpha']);
  }, 600_000);
});
