import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/db/index';
import { migrate } from '../../server/db/migrate';

export const TEMPLATE_FILE = path.resolve('.cache/pglite-template.tar.gz');
export const PG_TEMPLATE_DB = 'cairn_test_template';

/**
 * Migrates one database once per run, so each test file starts from a copy in well under a second:
 * a PGlite data dump, or (with TEST_DATABASE_URL) a PostgreSQL template database.
 */
export default async function setup() {
  // Vitest runs a global set-up for the root config and again for each project that extends it
  // (vitest.config.ts): the template is made once per run, by the first.
  if (process.env.CAIRN_TEST_TEMPLATE_MADE === String(process.pid)) return;
  process.env.CAIRN_TEST_TEMPLATE_MADE = String(process.pid);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${PG_TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${PG_TEMPLATE_DB}`);
    await admin.end();
    const handle = await openDatabase({ databaseUrl: withDatabase(url, PG_TEMPLATE_DB) });
    await migrate(handle.db);
    await handle.close();
    return;
  }
  const pglite = new PGlite();
  const handle = await openDatabase({ databaseUrl: null, pglite });
  await migrate(handle.db);
  const dump = await pglite.dumpDataDir('gzip');
  fs.mkdirSync(path.dirname(TEMPLATE_FILE), { recursive: true });
  // Written beside and renamed: another run on this machine may be reading the template right now.
  const partial = `${TEMPLATE_FILE}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, TEMPLATE_FILE);
  await handle.close();
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = '/' + database;
  return u.toString();
}
