import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, type RunningServer } from './helpers';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, signedInPage, USERS, type BoardWorld, renameRow } from './boards-helpers';
import { startPostgres } from '../scripts/setup-lib.mjs';
import { createDatabase, startCluster, type Cluster } from '../scripts/scale/cluster';

/**
 * Issue #19, decision 0192, in a real browser: the scale-out shape (the realtime hub and two API
 * servers as separate processes on one PostgreSQL, scripts/scale/cluster.ts) serving the built app.
 * One person works in a page served by API server 1, another in a page served by API server 2; an
 * edit made through server 1 shows live in the page of server 2 (through the hub), and both
 * browsers' sockets are on the hub, none on the API servers.
 *
 * PostgreSQL: TEST_DATABASE_URL, or a private cluster on E2E_SCALE_PG_PORT (default 54347).
 */
async function realtimeConnections(cluster: Cluster, url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
  return Number(/^cairn_realtime_connections (\S+)/m.exec(text)?.[1] ?? 0);
}

describe('scale-out in the browser: two API servers, one hub', () => {
  let pg: { url: string; stop(): void } | null = null;
  let database: { url: string; drop(): Promise<void> } | null = null;
  let cluster: Cluster | null = null;
  let browser: Browser | null = null;
  let world: BoardWorld;

  beforeAll(async () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? (pg = startPostgres(Number(process.env.E2E_SCALE_PG_PORT) || 0, 'e2e-scale'))?.url;
    if (!serverUrl) throw new Error('No PostgreSQL for the scale-out shape: install the postgresql package or set TEST_DATABASE_URL');
    database = await createDatabase(serverUrl);
    // NODE_ENV test seeds the demo accounts the suites sign in with (production never does).
    cluster = await startCluster({ databaseUrl: database.url, env: { NODE_ENV: 'test', SEED_DEMO: 'true', LOG_LEVEL: 'warn', WEB_DIR: process.env.WEB_DIR ?? 'dist' } });
    browser = await launchBrowser();
    const first = cluster.apis[0]!.url;
    const token = await apiLogin(first, USERS.owner);
    const mine = await apiCall(first, token, 'GET', '/api/me/workspaces');
    world = { server: { url: first } as RunningServer, browser, teamId: (mine.data ?? mine)[0].id as number, close: async () => undefined };
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await cluster?.stop();
    await database?.drop().catch(() => undefined);
    pg?.stop();
  });

  it('shows an edit made through API server 1 live in a page served by API server 2', async () => {
    const [one, two] = cluster!.apis.map((a) => a.url) as [string, string];
    const token = await apiLogin(one, USERS.owner);
    const boardId = await createBoardByApi(world, token, 'Across servers');
    await createItemByApi(world, token, boardId, 'Shared across servers');

    const a = await signedInPage(world, USERS.owner, one);
    const b = await signedInPage(world, USERS.full, two);
    await a.page.goto(`${one}/b/${boardId}`);
    await b.page.goto(`${two}/b/${boardId}`);
    await rowByName(a.page, 'Shared across servers').waitFor();
    await rowByName(b.page, 'Shared across servers').waitFor();
    // Both browsers' sockets are on the hub (the API servers send them there), none on the API servers.
    await expect.poll(() => realtimeConnections(cluster!, cluster!.hub.url), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    for (const api of [one, two]) expect(await realtimeConnections(cluster!, api)).toBe(0);
    await b.page.waitForTimeout(2500); // the realtime subscription is authorised in 2 s batches

    await renameRow(a.page, 'Shared across servers', 'Edited through server 1');
    await rowByName(b.page, 'Edited through server 1').waitFor({ timeout: 20_000 });
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
