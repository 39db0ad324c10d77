/**
 * Browser half of bench/sync-chromium.ts: bundled by esbuild and run in Debian's Chromium, so the
 * IndexedDB figures are Chromium's own. Exposes window.cairnBench.
 */
import Dexie, { liveQuery, type Table } from 'dexie';
import { nanoid } from 'nanoid';
import { DB_VERSIONS, latestSchema, openUserDb } from '../sync-worker/db';
import { replaceIndex } from '../sync-worker/apply';
import { writeIndexRecords } from '../sync-worker/stream';
import { SyncEngine } from '../sync-worker/engine';
import { HttpClient } from '../sync-worker/http';
import { Emitter } from '../sync-worker/events';
import { systemClock } from '../sync-worker/clock';
import type { StoredRecord, SyncRecord } from '../sync-worker/types';

const rows = (n: number, board: string): SyncRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: nanoid(), board_id: board, folder_id: board, name: `Item ${i}`, position: i, row_version: 1 }));

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

async function bootstrap(n: number, warm = true): Promise<{ rawPerSecond: number; previousPerSecond: number; barePerSecond: number; enginePerSecond: number; streamPerSecond: number }> {
  // A small pass of every path first: the first one measured would otherwise pay the page's warm-up.
  if (warm) await bootstrap(Math.min(2000, n), false);
  const data = rows(n, 'B');
  // Each database is deleted once measured: a write into a profile grown by the previous ones
  // pays their compaction, which would charge later lines for earlier ones.
  const raw = new Dexie('raw-' + nanoid(6));
  raw.version(1).stores({ records: latestSchema().stores.records! });
  const t0 = performance.now();
  await raw.table('records').bulkPut(data.map((r) => ({ ...r, collection: 'item' })));
  const rawMs = performance.now() - t0;
  raw.close();
  await Dexie.delete(raw.name);
  // The schema version before the latest, in the same page: what the last index change bought,
  // read side by side so another process's load on the machine hits both alike.
  const previous = new Dexie('previous-' + nanoid(6));
  previous.version(1).stores({ records: DB_VERSIONS[DB_VERSIONS.length - 2]!.stores.records! });
  const tp = performance.now();
  await previous.table('records').bulkPut(data.map((r) => ({ ...r, collection: 'item' })));
  const previousMs = performance.now() - tp;
  previous.close();
  await Dexie.delete(previous.name);
  // What the index set costs: the same rows into a table with only the key and the board index.
  const bare = new Dexie('bare-' + nanoid(6));
  bare.version(1).stores({ records: '[collection+id], [collection+board_id]' });
  const tb = performance.now();
  await bare.table('records').bulkPut(data.map((r) => ({ ...r, collection: 'item' })));
  const bareMs = performance.now() - tb;
  bare.close();
  await Dexie.delete(bare.name);
  const db = await openUserDb('bench-' + nanoid(6));
  const t1 = performance.now();
  await replaceIndex(db, 'item', 'B', data);
  const engineMs = performance.now() - t1;
  db.close();
  await Dexie.delete(db.name);
  // The streaming writer of a cold open (stream.ts): batches of 1,000 in their own transactions,
  // bulkPuts under 50 so tabs are told key by key.
  const streamDb = await openUserDb('bench-' + nanoid(6));
  const t2 = performance.now();
  await writeIndexRecords(streamDb, 'item', data, undefined);
  const streamMs = performance.now() - t2;
  streamDb.close();
  await Dexie.delete(streamDb.name);
  return { rawPerSecond: n / (rawMs / 1000), previousPerSecond: n / (previousMs / 1000), barePerSecond: n / (bareMs / 1000), enginePerSecond: n / (engineMs / 1000), streamPerSecond: n / (streamMs / 1000) };
}

/** Local edit → the same page's liveQuery sees it: engine.save (strict) vs raw Dexie put. */
async function edits(n: number) {
  const db = await openUserDb('edit-' + nanoid(6));
  const events = new Emitter();
  const http = new HttpClient({ baseUrl: location.origin, fetch: (i, init) => fetch(i, init), clock: systemClock, events, newId: () => nanoid(), swUuid: 'bench' });
  http.setToken({ access_token: 'unused' });
  const engine = await SyncEngine.create({ db, http, clock: systemClock, random: Math.random, events, newId: () => nanoid() });
  await engine.setQueueing(true); // no server here: requests stay queued
  const measure = async (write: (r: SyncRecord) => Promise<unknown>, table: Pick<Table<StoredRecord, [string, string]>, 'where'>) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const record = rows(1, 'E')[0]!;
      const seen = new Promise<void>((resolve) => {
        const sub = liveQuery(() => table.where('[collection+id]').equals(['item', record.id]).count()).subscribe((count) => {
          if (count > 0) {
            resolve();
            queueMicrotask(() => sub.unsubscribe());
          }
        });
      });
      await new Promise((r) => setTimeout(r, 0));
      const t = performance.now();
      await write(record);
      await seen;
      times.push(performance.now() - t);
    }
    return { p50: pct(times, 50), p95: pct(times, 95) };
  };
  const raw = new Dexie('raw-edit-' + nanoid(6), { chromeTransactionDurability: 'strict' });
  raw.version(1).stores({ records: latestSchema().stores.records! });
  const rawFigures = await measure((r) => raw.table('records').put({ ...r, collection: 'item' }), raw.table('records') as Table<StoredRecord, [string, string]>);
  const engineFigures = await measure((r) => engine.save('item', { ...r, row_version: 0 }, { teamId: 1 }), db.relaxed.records);
  engine.stop();
  db.close();
  raw.close();
  return { raw: rawFigures, engine: engineFigures };
}

(window as unknown as { cairnBench: unknown }).cairnBench = { bootstrap, edits };
