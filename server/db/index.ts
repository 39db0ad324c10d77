import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { enableCopyIn, markCopyCapable } from './copy-in';
import { PGlitePool } from './pglite-pool';
import { PGliteThreadPool } from './pglite-thread';
import type { Database } from './types';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite with its files under `dataDir/pglite`.
 * `thread`: PGlite runs in a worker thread of its own (pglite-thread.ts, decision 0373); with
 * `dataDir: null` in memory there (benches). A PGlite instance handed in runs on this thread.
 */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir?: string | null; pglite?: PGlite; thread?: boolean }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server closes (restart, failover, a dropped test database) emits
    // 'error' on the pool; unhandled, that would crash the process. The pool replaces the client.
    pool.on('error', (error) => {
      if ((error as { code?: string }).code !== '57P01') console.error('database pool error:', error.message);
    });
    // Bulk writes (imports) send their rows with COPY inside a transaction (copy-in.ts, decision 0362).
    pool.on('connect', enableCopyIn);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    markCopyCapable(db);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (opts.thread && !opts.pglite) {
    let dir: string | null = null;
    if (opts.dataDir !== null) {
      dir = path.join(opts.dataDir ?? 'data', 'pglite');
      fs.mkdirSync(dir, { recursive: true });
    }
    const pool = await PGliteThreadPool.open(dir);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) });
    return { db, kind: 'pglite', close: () => db.destroy() };
  }
  let pglite = opts.pglite;
  if (!pglite) {
    const dir = path.join(opts.dataDir ?? 'data', 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir);
  }
  const instance = pglite;
  await instance.waitReady;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(instance) as never }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}
