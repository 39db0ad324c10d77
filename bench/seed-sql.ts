/**
 * Seeds big boards straight into a server's data directory, before the server starts: the demo
 * data the server would create, then each board's records in a few SQL statements (a row series
 * per collection). A 100,000 × 10 board is 1.1 million records — minutes through the API, seconds
 * here. Used by bench/board-stream.ts and e2e/boards-cold-open.test.ts; the server started on the
 * directory afterwards reads the boards as any other.
 *
 * The records are what a save would store (server-owned fields set). No change-log rows: a client
 * meets these boards through index loads, which read the records table.
 *
 * The target is a data directory (PGlite) or, with `databaseUrl`, a PostgreSQL database (a
 * scratch one: the demo data and the boards are added to it).
 */
import { sql } from 'kysely';
import { openDatabase } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { loadConfig } from '../server/config';
import { silentBroadcaster, type AppContext } from '../server/context';
import { seedDemo, DEMO_EMAIL } from '../server/demo/seed';
import { ATTRIBUTE_SPECS } from './board-10k';

export interface SeededBoard {
  boardId: string;
  name: string;
  items: number;
  attributes: number;
  records: number;
}

/** SQL for the value of attribute `key` on item number `i` (the same values as board-10k.ts). */
const VALUE_SQL: Record<string, string> = {
  status: `to_jsonb((array['todo','doing','done'])[i % 3 + 1])`,
  owner: `to_jsonb('Person ' || (i % 37))`,
  points: `to_jsonb((i * 7) % 100)`,
  due: `to_jsonb('2026-' || lpad(((i % 12) + 1)::text, 2, '0') || '-' || lpad(((i % 28) + 1)::text, 2, '0'))`,
  ok: `to_jsonb(i % 2 = 0)`,
  mail: `to_jsonb('person' || (i % 37) || '@example.com')`,
  tag: `to_jsonb(case when i % 5 = 0 then 'red' else 'blue' end)`,
  link: `jsonb_build_object('url', 'https://example.com/' || i)`,
  notes: `to_jsonb('Notes for item ' || i || ': a longer text that wraps.')`,
};

/** `numbers`: every attribute but the primary is a number (keys n1, n2, …), as a board of figures. */
export type BoardShape = 'mixed' | 'numbers';

export interface BoardSpec {
  name: string;
  items: number;
  /** Attributes, the primary one included (mixed: ATTRIBUTE_SPECS in order; numbers: the primary and attributes − 1 numbers). */
  attributes: number;
  shape?: BoardShape;
}

type AttributeSpec = { key: string; name: string; kind: string; settings: unknown };

function attributesOf(spec: BoardSpec): AttributeSpec[] {
  if (spec.shape !== 'numbers') return ATTRIBUTE_SPECS.slice(0, spec.attributes);
  const numbers = Array.from({ length: Math.max(0, spec.attributes - 1) }, (_, k) => ({ key: `n${k + 1}`, name: `Figure ${k + 1}`, kind: 'number', settings: {} }));
  return [ATTRIBUTE_SPECS[0], ...numbers];
}

function valueSql(key: string): string {
  const figure = /^n(\d+)$/.exec(key);
  return figure ? `to_jsonb((i * ${Number(figure[1]) * 7 + 3}) % 1000)` : VALUE_SQL[key]!;
}

/**
 * Opens the database (the data directory's PGlite, or `databaseUrl`; the server must not be running
 * on a PGlite directory), applies the migrations and the demo data, and adds the boards: `items`
 * items and `attributes` attributes (the first is the primary one; each other holds a value on
 * every item).
 */
export async function seedBoardsSql(target: string | { dataDir: string; databaseUrl?: string | null; analyze?: boolean }, boards: BoardSpec[]): Promise<{ teamId: number; boards: SeededBoard[] }> {
  const { dataDir, databaseUrl = null, analyze = true } = typeof target === 'string' ? { dataDir: target } : target;
  const handle = await openDatabase({ databaseUrl, dataDir });
  try {
    const db = handle.db;
    await migrate(db);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    const ctx = { db, config, broadcaster: silentBroadcaster, now: () => new Date() } as unknown as AppContext;
    const user = await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
    if (!user) await seedDemo(ctx);
    const owner = (await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow()).id;
    const teamId = (await db.selectFrom('teams').select('id').where('owner_id', '=', owner).orderBy('id').executeTakeFirstOrThrow()).id;
    const seeded: SeededBoard[] = [];
    for (const spec of boards) {
      const boardId = `seed${Date.now().toString(36)}${seeded.length}`;
      const now = new Date().toISOString();
      const common = sql`'team_id', ${teamId}::int, 'created_at', ${now}::text, 'updated_at', ${now}::text, 'row_version', 1, 'board_id', ${boardId}::text`;
      const insert = (rows: ReturnType<typeof sql>) =>
        sql`insert into records (collection, id, team_id, board_id, row_version, data, created_by, created_at, updated_at, deleted_at)
            select collection, id, ${teamId}, ${boardId}, 1, data, ${owner}, now(), now(), null from (${rows}) as r`.execute(db);
      await insert(sql`select 'folder' as collection, ${boardId}::text as id,
        jsonb_build_object('id', ${boardId}::text, 'parent_id', null, 'name', ${spec.name}::text, 'position', 0, 'created_by', ${owner}::int, 'deleted_at', null, ${common}) as data`);
      const attrs = attributesOf(spec);
      for (const [position, a] of attrs.entries()) {
        await insert(sql`select 'attribute' as collection, ${boardId + a.key}::text as id,
          jsonb_build_object('id', ${boardId + a.key}::text, 'folder_id', ${boardId}::text, 'name', ${a.name}::text, 'kind', ${a.kind}::text,
            'settings', ${JSON.stringify(a.settings)}::jsonb, 'position', ${position}::int, 'deleted_at', null, ${common}) as data`);
      }
      // Rows in slices: one statement of a million rows would hold it all in memory at once.
      const SLICE = 50_000;
      for (let from = 0; from < spec.items; from += SLICE) {
        const to = Math.min(spec.items, from + SLICE) - 1;
        await insert(sql`select 'item' as collection, ${boardId}::text || 'i' || i as id,
          jsonb_build_object('id', ${boardId}::text || 'i' || i, 'folder_id', ${boardId}::text, 'name', 'Item ' || i, 'position', i + 1,
            'created_by', ${owner}::int, 'deleted_at', null, ${common}) as data
          from generate_series(${from}::int, ${to}::int) as i`);
        for (const a of attrs) {
          if (a.kind === 'primary') continue;
          const attributeId = boardId + a.key;
          await insert(sql`select 'value' as collection, ${boardId}::text || 'i' || i || '.' || ${attributeId}::text as id,
            jsonb_build_object('id', ${boardId}::text || 'i' || i || '.' || ${attributeId}::text, 'item_id', ${boardId}::text || 'i' || i,
              'attribute_id', ${attributeId}::text, 'value', ${sql.raw(valueSql(a.key))}, ${common}) as data
            from generate_series(${from}::int, ${to}::int) as i`);
        }
      }
      const valued = attrs.filter((a) => a.kind !== 'primary').length;
      seeded.push({ boardId, name: spec.name, items: spec.items, attributes: attrs.length, records: 1 + attrs.length + spec.items * (1 + valued) });
    }
    // `analyze: false` leaves the planner's statistics as the app leaves them: PGlite runs no
    // autovacuum, so a board made in the app on the embedded default is never analysed.
    if (analyze) await sql`analyze records`.execute(db);
    return { teamId, boards: seeded };
  } finally {
    await handle.close();
  }
}
