import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createBoardByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * CSV import and export through the UI against the real server (issue #16, decisions 0160/0161):
 * a 1,000-row file chosen in the dialog, read in the Web Worker, mapped (one column switched to a
 * different kind), imported by the background job with the tray showing progress, then the board
 * shows the rows; Export CSV of that view gives the same rows back.
 */

const ROWS = 1000;
const csvText = ['Task,Points,Due,Stage', ...Array.from({ length: ROWS }, (_, i) => `Task ${String(i + 1).padStart(4, '0')},${(i % 13) + 1},2025-${String((i % 12) + 1).padStart(2, '0')}-15,${['Todo', 'Doing', 'Done'][i % 3]}`)].join('\n') + '\n';

describe('CSV import and export in the browser', () => {
  let world: BoardWorld;
  let owner: string;
  let boardId: string;
  let dir: string;
  beforeAll(async () => {
    world = await startWorld();
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Imported tasks');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-csv-e2e-'));
    fs.writeFileSync(path.join(dir, 'tasks.csv'), csvText);
  });
  afterAll(async () => world?.close());

  it('imports 1,000 rows with a mapping, shows progress then the board, and exports the same rows back', async () => {
    const { page, context } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await page.getByTestId('table-view').waitFor({ timeout: 30_000 });

    await page.getByTestId('view-more-button').click();
    await page.getByRole('menuitem', { name: 'Import CSV' }).click();
    await page.getByTestId('csv-import-file').setInputFiles(path.join(dir, 'tasks.csv'));
    // The mapping screen: facts of the file, guessed kinds, preview.
    await page.getByText(`${ROWS} rows, 4 columns`, { exact: false }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('csv-map-0').inputValue()).toBe('name');
    await expect.poll(() => page.getByTestId('csv-map-1').inputValue()).toBe('new:number');
    await expect.poll(() => page.getByTestId('csv-map-2').inputValue()).toBe('new:date');
    await expect.poll(() => page.getByTestId('csv-map-3').inputValue()).toBe('new:label');
    // The user keeps Stage as plain text instead of labels.
    await page.getByTestId('csv-map-3').selectOption('new:text');
    await page.getByTestId('csv-import-start').click();

    // The tray follows the job to its end.
    const card = page.getByTestId('job-card').first();
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await expect.poll(() => card.textContent()).toContain(`${ROWS} items imported`);

    // The board shows the imported rows (the job's end tells open boards to reload).
    await expect.poll(async () => page.getByText('Task 0001', { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // Export CSV gives the same rows back.
    await page.getByTestId('view-more-button').click();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('menuitem', { name: 'Export CSV' }).click()]);
    const file = path.join(dir, 'export.csv');
    await download.saveAs(file);
    const exported = fs.readFileSync(file, 'utf8');
    expect(exported.startsWith('\ufeff')).toBe(true);
    const lines = exported.slice(1).trimEnd().split('\r\n');
    // The first column is the board's name attribute (under its own name), then the new ones.
    expect(lines[0]!.split(',').slice(1)).toEqual(['Points', 'Due', 'Stage']);
    expect(lines.slice(1)).toEqual(csvText.trimEnd().split('\n').slice(1));
    await context.close();
  }, 240_000);
});
