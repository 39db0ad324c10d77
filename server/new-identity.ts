/**
 * `npx tsx server/new-identity.ts` — gives the database a new identity (decision 0102). Run it
 * once after restoring a backup, with the server stopped: clients that had gone past the backup
 * then load their boards again and replay their unsent edits, instead of waiting for change
 * numbers the restored database will hand out for other changes. Reads the same settings as the
 * server (DATABASE_URL or DATA_DIR).
 */
import { loadConfig } from './config';
import { openDatabase } from './db/index';
import { migrate } from './db/migrate';
import { rotateServerIdentity } from './sync/identity';

async function main() {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(handle.db);
    const id = await rotateServerIdentity(handle.db);
    console.log(`server identity is now ${id}`);
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
