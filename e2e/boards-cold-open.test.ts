import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PASSWORD, startWorld, USERS, type BoardWorld } from './boards-helpers';
import { seedBoardsSql } from '../bench/seed-sql';

/**
 * A cold open streams (decision 0101): a 10,000-item board opened on a device that never saw it
 * shows its first rows from the first page of the index load, before the replica holds the
 * board; the rest streams in behind, and the table then scrolls to the last item.
 *
 * The browser talks to the server through a small HTTP proxy that holds back the item and value
 * pages in id order (`limit=`; their head, the first screen by position, goes through) until the
 * test has seen the first rows, so "before the replica is complete" is a fact the test checks, not
 * a race it hopes to win.
 */
const ITEMS = 10_000;

interface HoldingProxy {
  url: string;
  held: number;
  release(): void;
  close(): Promise<void>;
}

async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const proxy: HoldingProxy = { url: '', held: 0, release, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    if (/\/(items|values)\?/.test(req.url ?? '') && /[?&]limit=/.test(req.url ?? '')) {
      proxy.held++;
      await gate;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  // The realtime socket goes straight through.
  server.on('upgrade', (req, socket, head) => {
    const target = net.connect(Number(upstream.port), upstream.hostname, () => {
      target.write(`${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
      target.write(head);
      socket.pipe(target).pipe(socket);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}

describe('boards: a cold open of a 10,000-item board', () => {
  let world: BoardWorld;
  let proxy: HoldingProxy;
  let boardId: string;
  beforeAll(async () => {
    // Seeded straight into the data directory before the server starts (10,000 saves through the
    // API take minutes on a busy 2-core machine).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-cold-'));
    const seeded = await seedBoardsSql(dataDir, [{ name: 'Big board', items: ITEMS, attributes: 2 }]);
    boardId = seeded.boards[0]!.boardId;
    world = await startWorld({ DATA_DIR: dataDir });
    proxy = await startHoldingProxy(world.server.url);
  }, 300_000);
  afterAll(async () => {
    await world?.close();
    await proxy?.close();
  });

  /** Items of the board in the tab's view of the worker's database. */
  const replicaItems = (page: import('playwright-core').Page) =>
    page.evaluate(async (board) => {
      const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => /^cairn-\d+$/.test(n));
      if (!name) return 0;
      return new Promise<number>((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('records').objectStore('records').index('[collection+board_id]').count(IDBKeyRange.only(['item', board]));
          req.onsuccess = () => (db.close(), resolve(req.result));
          req.onerror = () => (db.close(), resolve(0));
        };
      });
    }, boardId);

  it('shows rows from the first page before the replica is complete, then scrolls to the last item', { timeout: 240_000 }, async () => {
    const context = await world.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(proxy.url + '/login');
    await page.getByLabel('Email').fill(USERS.owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);

    await page.goto(`${proxy.url}/b/${boardId}`);
    await page.locator('.table-row').first().waitFor({ timeout: 60_000 });
    // Rows are on screen while the pages are still held back: the replica holds the head, and the
    // first rows by position are there. The worker asks for the pages after it has answered the
    // open (and read the board's small collections), so the rows may show before the first page is
    // even asked for: wait until one is held, then the replica is known to be incomplete.
    await expect.poll(() => proxy.held, { timeout: 60_000 }).toBeGreaterThan(0);
    const early = await replicaItems(page);
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(ITEMS);
    expect(await page.locator('.table-row').count()).toBeGreaterThan(5);
    await page.locator('.table-row', { hasText: 'Item 0' }).first().waitFor();

    proxy.release();
    await expect.poll(() => replicaItems(page), { timeout: 60_000 }).toBe(ITEMS);
    await expect.poll(() => page.locator('.folder-count').textContent(), { timeout: 30_000 }).toMatch(/10[,.\s\u202f]?000/);

    // Scroll to the end: the last item by position is there.
    await expect
      .poll(
        async () => {
          await page.locator('.table-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
          return page.locator('.table-row', { hasText: 'Item 9999' }).count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
