import { sql, type Kysely } from 'kysely';
import type { Database } from './types';
import { migrations } from './migrations/index';

export interface Migration {
  /** Sortable, unique name, e.g. `0001_accounts`. Never rename one that has shipped. */
  name: string;
  up(db: Kysely<any>): Promise<void>;
}

/** Applies every migration not yet recorded, in name order, each in its own transaction. */
export async function migrate(db: Kysely<Database>): Promise<string[]> {
  await sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`.execute(db);
  const done = new Set((await sql<{ name: string }>`select name from _migrations`.execute(db)).rows.map((r) => r.name));
  const names = migrations.map((m) => m.name);
  if (new Set(names).size !== names.length) throw new Error('Two migrations share a name');
  const applied: string[] = [];
  for (const migration of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
    if (done.has(migration.name)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await sql`insert into _migrations (name) values (${migration.name})`.execute(trx);
    });
    applied.push(migration.name);
  }
  return applied;
}
