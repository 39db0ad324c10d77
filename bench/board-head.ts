/**
 * The server's head of a board (issue #33 part 0, decision 0377): the statements behind
 * `GET …/items|values?board_id=…&head=500`, timed straight on the database, beside the whole value
 * list and a page of 5,000, with the plan of the values' statement:
 *
 *   npx tsx bench/board-head.ts [items=10000] [attributes=5] [mixed|numbers] [--pg]
 *
 * Seeds the board with bench/seed-sql.ts into a fresh PGlite directory (or, with --pg, a scratch
 * PostgreSQL database: bench/board-bench.ts). Prints with the load average; never fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/index';
import { boardHead, boardHeadIds, boardRecords, recordsPage } from '../server/sync/store';
import { benchDatabase, loadAverage, positional } from './board-bench';
import { seedBoardsSql, type BoardShape } from './seed-sql';

const ARGS = positional();
const ITEMS = Number(ARGS[0] ?? 10_000);
const ATTRIBUTES = Number(ARGS[1] ?? 5);
const SHAPE: BoardShape = ARGS[2] === 'numbers' ? 'numbers' : 'mixed';
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(44)} ${value.padStart(14)}   ${note}`);

async function timed<T>(runs: number, run: () => Promise<T>): Promise<{ ms: number[]; result: T }> {
  const ms: number[] = [];
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = await run();
    ms.push(performance.now() - start);
  }
  return { ms, result };
}
const show = (ms: number[]) => ms.map((m) => m.toFixed(0)).join(', ') + ' ms';

async function main() {
  const database = await benchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-head-'));
  try {
    const { teamId, boards } = await seedBoardsSql({ dataDir, databaseUrl: database.databaseUrl, analyze: process.argv.includes('--analyze') }, [{ name: 'Head', items: ITEMS, attributes: ATTRIBUTES, shape: SHAPE }]);
    const board = boards[0]!;
    const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir });
    try {
      const db = handle.db;
      console.log(`${ITEMS} items × ${ATTRIBUTES} attributes (${SHAPE}, ${board.records} records) on ${database.label}; load average ${loadAverage()}\n`);
      const ids = await timed(3, () => boardHeadIds(db, teamId, board.boardId, 500));
      line('head ids (500 by position)', show(ids.ms));
      const items = await timed(3, () => boardHead(db, teamId, board.boardId, 'item', 500));
      line('head items', show(items.ms), `${items.result.length} records`);
      const values = await timed(3, () => boardHead(db, teamId, board.boardId, 'value', 500));
      line('head values', show(values.ms), `${values.result.length} records`);
      const all = await timed(3, () => boardRecords(db, teamId, board.boardId, 'value'));
      line('floor: every value of the board', show(all.ms), `${all.result.length} records`);
      const page = await timed(3, () => recordsPage(db, teamId, board.boardId, 'value', null, 5_000));
      line('floor: one page of 5,000 values', show(page.ms));
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select v.id from unnest(${ids.result}::text[]) as head(item_id)
        cross join lateral (select * from records r where r.collection = 'value' and r.data->>'item_id' = head.item_id and r.deleted_at is null offset 0) as v
        where v.team_id = ${teamId} and v.board_id = ${board.boardId}`.execute(db);
      // The plan without its long list of ids.
      console.log(`\nplan of the head values:\n${rows.map((r) => '  ' + r['QUERY PLAN'].replace(/'\{[^}]*\}'/, "'{…ids…}'")).join('\n')}`);
      console.log(`\nload average at the end ${loadAverage()}`);
    } finally {
      await handle.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
