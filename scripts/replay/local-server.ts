/**
 * The replay's own server (issue #30 part 7): the real Cairn app on a COPY of an embedded
 * database's folder, listening on loopback, so a replay (even one that sends every edit) never
 * writes to the database it was given. The copy is migrated like a start would, gets its own
 * DATA_DIR (mail goes to its outbox, jobs and webhooks never run) and is removed on close.
 *
 * The user the file belongs to is signed in by a token issued in the copy (the file holds none).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/index';
import { migrate } from '../../server/db/migrate';
import { createMailer } from '../../server/mail/mailer';
import { silentBroadcaster, type AppContext } from '../../server/context';
import { createJobs } from '../../server/jobs/index';
import { issueTokens } from '../../server/auth/tokens';

export interface LocalServer {
  url: string;
  token: string;
  /** The copy's folder (removed by close unless `keep`). */
  dataDir: string;
  ctx: AppContext;
  close(): Promise<void>;
}

/** The PGlite folder inside a DATA_DIR (`<dir>/pglite`), or the folder itself when it is one. */
export function pgliteFolderOf(dir: string): string {
  const inner = path.join(dir, 'pglite');
  if (fs.existsSync(path.join(inner, 'PG_VERSION'))) return inner;
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  throw new Error(`--db ${dir}: no embedded database there (expected ${inner}/PG_VERSION, the DATA_DIR of a Cairn server)`);
}

export async function startServerOnCopy(dir: string, userId: number, opts: { keep?: boolean } = {}): Promise<LocalServer> {
  const source = pgliteFolderOf(dir);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-replay-'));
  fs.cpSync(source, path.join(dataDir, 'pglite'), { recursive: true });
  // The copy must not think it is still running: a lock file of the process that had it open.
  fs.rmSync(path.join(dataDir, 'pglite', 'postmaster.pid'), { force: true });
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  try {
    await migrate(handle.db);
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), webDir: path.join(dataDir, 'no-web') };
    const ctx: AppContext = {
      db: handle.db,
      config,
      mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), smtpUrl: null, from: config.mailFrom }),
      broadcaster: silentBroadcaster,
      // Never started: automations, webhooks and mail jobs of the copy do not run.
      jobs: createJobs(handle.db, { now: () => new Date(), kind: handle.kind }),
      now: () => new Date(),
    };
    const user = await handle.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new Error(`user ${userId} (the file's user_id) is not in the database at ${dir}`);
    const app = await buildApp(ctx, { logger: false });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const tokens = await issueTokens(handle.db, userId, ctx.now());
    return {
      url,
      token: tokens.access_token,
      dataDir,
      ctx,
      async close() {
        await app.close();
        await handle.close();
        if (!opts.keep) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
