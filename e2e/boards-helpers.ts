import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';

/**
 * Shared setup of the board suites: the real server (built app, PGlite, demo data), Chromium, and
 * signed-in pages for the demo users. Boards are made through the UI or the real API.
 */
export const PASSWORD = 'demo-password';
export const USERS = {
  owner: 'demo@cairn.local',
  admin: 'demo-admin@cairn.local',
  full: 'demo-full@cairn.local',
  restricted: 'demo-restricted@cairn.local',
} as const;

export interface BoardWorld {
  server: RunningServer;
  browser: Browser;
  teamId: number;
  close(): Promise<void>;
}

export async function startWorld(env: Record<string, string> = {}): Promise<BoardWorld> {
  const server = await startServer({ WEB_DIR: process.env.WEB_DIR ?? 'dist', ...env });
  const browser = await launchBrowser();
  const token = await apiLogin(server.url, USERS.owner);
  const mine = await apiCall(server.url, token, 'GET', '/api/me/workspaces');
  const teamId = (mine.data ?? mine)[0].id as number;
  const world: BoardWorld = {
    server,
    browser,
    teamId,
    // Reads world.server at close time: a suite may have restarted the server.
    async close() {
      await world.browser.close().catch(() => undefined);
      await world.server.stop();
    },
  };
  return world;
}

export async function apiLogin(url: string, email: string): Promise<string> {
  const res = await fetch(url + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD, grantType: 'password' }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  return (body.access_token ?? body.token?.access_token ?? body.data?.access_token) as string;
}

export async function apiCall(url: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${text}`), { status: res.status, body: json });
  return json;
}

/** A signed-in page (own browser context, so own IndexedDB) for one demo user. */
export async function signedInPage(world: BoardWorld, email: string, baseUrl = world.server.url): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // baseUrl: a cuttable proxy (shell-proxy.ts) when the test needs to take this browser offline.
  await page.goto(baseUrl + '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  // A memory-hard password check on a loaded 2-core runner took over 30 s once.
  await page.waitForURL(/\/home$/, { timeout: 60_000 });
  return { context, page, errors };
}

/** Creates a board through the create-board screen and waits for its table. */
export async function createBoardInUi(page: Page, world: BoardWorld, name: string): Promise<string> {
  await page.goto(`${world.server.url}/team/${world.teamId}/boards/create`);
  await page.getByLabel('Board name').fill(name);
  await page.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/b\/[A-Za-z0-9_-]+$/);
  await page.getByTestId('table-view').waitFor();
  return new URL(page.url()).pathname.split('/')[2]!;
}

/** The text of a table cell of the row whose item has this name. */
export function rowByName(page: Page, name: string) {
  return page.locator('.table-row', { has: page.locator('.table-cell', { hasText: name }) }).first();
}

/**
 * Renames a table row through its Name cell, as a person does (double-click, type, Enter). A
 * double-click can land while the frame's connectivity line appears (the network was just cut)
 * and the row moves under the pointer: it tries again until the editor opens.
 */
export async function renameRow(page: Page, from: string, to: string) {
  const input = page.getByRole('textbox', { name: 'Edit Item' });
  for (let attempt = 1; ; attempt++) {
    await rowByName(page, from).locator('.table-cell').nth(1).dblclick();
    try {
      await input.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
  await input.fill(to);
  await input.press('Enter');
}

export async function waitForServerCopy(world: BoardWorld, token: string, route: string, boardId: string, test: (records: any[]) => boolean, timeout = 15_000) {
  await expect
    .poll(async () => test((await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/${route}?board_id=${boardId}`)).data), { timeout })
    .toBe(true);
}

/** Waits until the locator's text contains `text`. */
export async function expectText(locator: import('playwright-core').Locator, text: string, timeout = 10_000) {
  await expect.poll(async () => (await locator.first().textContent({ timeout: 1000 }).catch(() => '')) ?? '', { timeout }).toContain(text);
}

let counter = 0;
export const newId = (prefix = 'e2e') => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A board with a primary attribute and a table view, made through the real API. */
export async function createBoardByApi(world: BoardWorld, token: string, name: string): Promise<string> {
  const id = newId('b');
  const t = world.teamId;
  await apiCall(world.server.url, token, 'PUT', `/api/${t}/folders/${id}`, { id, board_id: id, parent_id: null, name, row_version: 1 });
  await apiCall(world.server.url, token, 'PUT', `/api/${t}/attributes/${id}p`, { id: `${id}p`, board_id: id, folder_id: id, name: 'Item', kind: 'primary', row_version: 1 });
  return id;
}

export async function createItemByApi(world: BoardWorld, token: string, boardId: string, name: string, folderId = boardId): Promise<string> {
  const id = newId('i');
  await apiCall(world.server.url, token, 'PUT', `/api/${world.teamId}/items/${id}`, { id, board_id: boardId, folder_id: folderId, name, row_version: 1 });
  return id;
}

/** An anonymous visitor's page. */
export async function anonymousPage(world: BoardWorld) {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  return { context, page };
}

/**
 * After a keyboard pick-up (Space) shows: dnd-kit's keyboard sensor starts listening for the arrows
 * from a timer it sets when it picks up, and a timer of the page set now runs after that one. An
 * arrow pressed before it is lost (on a loaded machine the pick-up can render first).
 */
export async function keyboardDragReady(page: import('playwright-core').Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}
