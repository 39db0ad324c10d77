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

/**
 * A board's records as the server sends them: per item, the item and `valued` values (10k × 5 is
 * 10,000 items and 40,000 values), each with the fields of a real copy.
 */
function boardRows(n: number, valued = 4): { item: SyncRecord[]; value: SyncRecord[] } {
  const board = 'B' + nanoid(6);
  const at = new Date().toISOString();
  const item: SyncRecord[] = [];
  const value: SyncRecord[] = [];
  for (let i = 0; item.length + value.length < n; i++) {
    const common = { team_id: 1, created_at: at, updated_at: at, row_version: 1, board_id: board };
    item.push({ id: `${board}i${i}`, folder_id: board, name: `Item ${i}`, position: i + 1, created_by: 1, deleted_at: null, ...common });
    for (let a = 0; a < valued && item.length + value.length < n; a++) value.push({ id: `${board}i${i}.${a}`, item_id: `${board}i${i}`, attribute_id: `${board}a${a}`, value: `Person ${i % 37}`, ...common });
  }
  return { item, value };
}

async function bootstrap(n: number, warm = true): Promise<{ rawPerSecond: number; previousPerSecond: number; barePerSecond: number; enginePerSecond: number; streamPerSecond: number; streamComparedPerSecond: number }> {
  // A small pass of every path first: the first one measured would otherwise pay the page's warm-up.
  if (warm) await bootstrap(Math.min(2000, n), false);
  const board = boardRows(n);
  const stored = [...board.item.map((r) => ({ ...r, collection: 'item' })), ...board.value.map((r) => ({ ...r, collection: 'value' }))];
  // Each database is deleted once measured: a write into a profile grown by the previous ones
  // pays their compaction, which would charge later lines for earlier ones.
  const raw = new Dexie('raw-' + nanoid(6), { chromeTransactionDurability: 'relaxed' });
  raw.version(1).stores({ records: latestSchema().stores.records! });
  const t0 = performance.now();
  await raw.table('records').bulkPut(stored.map((r) => ({ ...r })));
  const rawMs = performance.now() - t0;
  raw.close();
  await Dexie.delete(raw.name);
  // The schema version before the latest, in the same page: what the last index change bought,
  // read side by side so another process's load on the machine hits both alike.
  const previous = new Dexie('previous-' + nanoid(6), { chromeTransactionDurability: 'relaxed' });
  previous.version(1).stores({ records: DB_VERSIONS[DB_VERSIONS.length - 2]!.stores.records! });
  const tp = performance.now();
  await previous.table('records').bulkPut(stored.map((r) => ({ ...r })));
  const previousMs = performance.now() - tp;
  previous.close();
  await Dexie.delete(previous.name);
  // What the index set costs: the same rows into a table with only the key and the board index.
  const bare = new Dexie('bare-' + nanoid(6), { chromeTransactionDurability: 'relaxed' });
  bare.version(1).stores({ records: '[collection+id], [collection+board_id]' });
  const tb = performance.now();
  await bare.table('records').bulkPut(stored.map((r) => ({ ...r })));
  const bareMs = performance.now() - tb;
  bare.close();
  await Dexie.delete(bare.name);
  const db = await openUserDb('bench-' + nanoid(6));
  const t1 = performance.now();
  await replaceIndex(db, 'item', board.item[0]!.board_id as string, board.item);
  await replaceIndex(db, 'value', board.item[0]!.board_id as string, board.value);
  const engineMs = performance.now() - t1;
  db.close();
  await Dexie.delete(db.name);
  // The streaming writer of a cold open (stream.ts): batches of 1,000 in their own transactions,
  // nothing of the board held, so no record is read before it is written (decision 0310).
  const cold = () => false;
  const streamDb = await openUserDb('bench-' + nanoid(6));
  const t2 = performance.now();
  await writeIndexRecords(streamDb, 'item', board.item, undefined, undefined, cold);
  await writeIndexRecords(streamDb, 'value', board.value, undefined, undefined, cold);
  const streamMs = performance.now() - t2;
  streamDb.close();
  await Dexie.delete(streamDb.name);
  // The same writer when every record must be compared with a copy first (a refresh of a board
  // held, or everything written meanwhile): each batch reads its records before writing.
  const comparedDb = await openUserDb('bench-' + nanoid(6));
  const t3 = performance.now();
  await writeIndexRecords(comparedDb, 'item', board.item, undefined);
  await writeIndexRecords(comparedDb, 'value', board.value, undefined);
  const comparedMs = performance.now() - t3;
  comparedDb.close();
  await Dexie.delete(comparedDb.name);
  const rate = (ms: number) => n / (ms / 1000);
  return { rawPerSecond: rate(rawMs), previousPerSecond: rate(previousMs), barePerSecond: rate(bareMs), enginePerSecond: rate(engineMs), streamPerSecond: rate(streamMs), streamComparedPerSecond: rate(comparedMs) };
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
