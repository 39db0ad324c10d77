import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, startWorld, USERS, type BoardWorld, renameRow } from './boards-helpers';

/**
 * The shell is the only refresher of the session; the sync worker gets each access token without a
 * way to refresh it (src/api/worker-session.ts). When the access token runs out, the worker's next
 * request ends its session (queued work kept), the shell refreshes through the cookie and signs it
 * in again — the user notices nothing. The server here issues 12-second access tokens, so expiry
 * (the client treats a token as expired 5 s early) comes within the test.
 */
const TTL_S = 12;

describe('a session outlives its access token', () => {
  let world: BoardWorld;
  let boardId: string;

  beforeAll(async () => {
    world = await startWorld({ CAIRN_ACCESS_TOKEN_TTL_S: String(TTL_S) });
    const owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Token expiry');
    await createItemByApi(world, owner, boardId, 'First');
    await createItemByApi(world, owner, boardId, 'Second');
  });
  afterAll(async () => {
    await world?.close();
  });

  /** The server's copy, read with a fresh token each time (ours expire within seconds). */
  const serverNames = async () => {
    const token = await apiLogin(world.server.url, USERS.owner);
    const { data } = await apiCall(world.server.url, token, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`);
    return (data as { name: string }[]).map((i) => i.name);
  };

  it('keeps syncing edits made after the access token expired, in an open tab and a new one', async () => {
    const { context, page, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(page, 'First').waitFor({ timeout: 20_000 });
    await renameRow(page, 'First', 'First, before expiry');
    await expect.poll(serverNames, { timeout: 15_000 }).toContain('First, before expiry');

    // Let the access token (and the worker's copy of it) run out.
    await page.waitForTimeout((TTL_S + 2) * 1000);
    await renameRow(page, 'First, before expiry', 'First, after expiry');
    await expect.poll(serverNames, { timeout: 20_000 }).toContain('First, after expiry');
    expect(page.url()).toContain(`/b/${boardId}`);

    // A tab opened now restores the session from the cookie and works through the same worker.
    const second = await context.newPage();
    await second.goto(`${world.server.url}/b/${boardId}`);
    await rowByName(second, 'Second').waitFor({ timeout: 20_000 });
    await renameRow(second, 'Second', 'Second, from a new tab');
    await expect.poll(serverNames, { timeout: 20_000 }).toContain('Second, from a new tab');
    // The first tab sees it live and is still signed in.
    await rowByName(page, 'Second, from a new tab').waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
