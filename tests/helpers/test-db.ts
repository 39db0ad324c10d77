import fs from 'node:fs';
import crypto from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../../server/db/index';
import { TEMPLATE_FILE, PG_TEMPLATE_DB, withDatabase } from './global-setup';

/** A fresh, migrated database for one test file: a PGlite copy, or a PostgreSQL clone in CI. */
export async function freshDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = 'cairn_t_' + crypto.randomBytes(6).toString('hex');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${PG_TEMPLATE_DB}`);
    await admin.end();
    const handle = await openDatabase({ databaseUrl: withDatabase(url, name) });
    return {
      ...handle,
      async close() {
        await handle.close();
        const drop = new pg.Client({ connectionString: url });
        await drop.connect();
        await drop.query(`drop database if exists ${name} with (force)`);
        await drop.end();
      },
    };
  }
  const blob = new Blob([fs.readFileSync(TEMPLATE_FILE)]);
  const pglite = new PGlite({ loadDataDir: blob });
  return openDatabase({ databaseUrl: null, pglite });
}
