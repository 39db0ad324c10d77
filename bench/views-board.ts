import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { seedBoardsSql, type SeededBoard } from './seed-sql';

/**
 * Waits until this browser's replica holds at least `records` records (every `cairn-*` user
 * database's `records` store, counted in the page). A cold open shows the board after the first
 * page of each index; the rest streams in behind it for tens of seconds on a busy machine, and
 * "warm" figures taken while it still writes measure the stream, not the view (each write is a
 * change notice the open lists apply).
 */
export async function waitForReplica(page: Page, records: number, timeoutMs = 600_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const count = await page.evaluate(async () => {
      let total = 0;
      for (const { name } of await indexedDB.databases()) {
        if (!name?.startsWith('cairn-') || name === 'cairn-directory') continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        if (db.objectStoreNames.contains('records')) {
          total += await new Promise<number>((resolve, reject) => {
            const count = db.transaction('records').objectStore('records').count();
            count.onsuccess = () => resolve(count.result);
            count.onerror = () => reject(count.error);
          });
        }
        db.close();
      }
      return total;
    });
    if (count >= records || Date.now() - started > timeoutMs) return Date.now() - started;
    await page.waitForTimeout(1000);
  }
}

/**
 * The views benchmarks' board: `items` × 10 attributes seeded by bench/seed-sql.ts into a data
 * directory before the server starts (seconds; through the API it took 26 minutes on a busy
 * machine). BENCH_DATA_DIR keeps it for the next run; else a temporary directory.
 */
export async function viewsBoard(items: number): Promise<{ dataDir: string; seeded: SeededBoard }> {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ? path.join(keep, `views-${items}`) : fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-views-'));
  const marker = path.join(dataDir, 'bench-board.json');
  if (fs.existsSync(marker)) return { dataDir, seeded: JSON.parse(fs.readFileSync(marker, 'utf8')) };
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  const seeded = (await seedBoardsSql(dataDir, [{ name: `Bench ${items}`, items, attributes: 10 }])).boards[0]!;
  fs.writeFileSync(marker, JSON.stringify(seeded));
  console.log(`board of ${items} items × 10 attributes seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (SQL)`);
  return { dataDir, seeded };
}

/**
 * The machine's floor for "saved locally", in the same run (DESIGN.md §7): a raw IndexedDB put
 * with strict durability plus a read of it, in the tab, with no engine, worker or React between.
 * A drag's save cannot be quicker than this; on a busy machine its p95 shows how busy.
 */
export function idbFloor(page: Page, runs = 20): Promise<number[]> {
  return page.evaluate(
    (runs) =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open('bench-floor', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('r', { keyPath: 'id' });
        open.onerror = () => reject(open.error);
        open.onsuccess = async () => {
          const db = open.result;
          const times: number[] = [];
          for (let i = 0; i < runs; i++) {
            const start = performance.now();
            await new Promise<void>((done) => {
              const tx = db.transaction('r', 'readwrite', { durability: 'strict' });
              tx.objectStore('r').put({ id: 'x', value: `v${i}` });
              tx.oncomplete = () => {
                const get = db.transaction('r').objectStore('r').get('x');
                get.onsuccess = () => done();
              };
            });
            times.push(performance.now() - start);
          }
          db.close();
          resolve(times);
        };
      }),
    runs,
  );
}
