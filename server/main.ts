import path from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db/index';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { createMailer } from './mail/mailer';
import type { AppContext } from './context';
import { createBroadcaster, realtimeTuningFromEnv } from './realtime/broadcaster';
import { seedDemo } from './demo/seed';
import { startUploadSweeper } from './files/sweep';
import { demoAccountsWithPublishedPassword } from './demo/leftover';
import { ConfigError, REALTIME_SECRET_FILE } from './secrets';
import { createJobs } from './jobs/index';
import { fileStore } from './files/storage';
import { preloadCommentSanitizer } from './sync/sanitize';
import { startChangeLogCompactor } from './sync/compaction';

/** Starts the server: migrations, demo data on first start, HTTP; stops cleanly on SIGINT/SIGTERM. */
async function main() {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(handle.db);
  const ctx: AppContext = {
    db: handle.db,
    config,
    mailer: createMailer({ outboxDir: path.join(config.dataDir, 'outbox'), smtpUrl: config.smtpUrl, from: config.mailFrom }),
    broadcaster: createBroadcaster(config, realtimeTuningFromEnv()),
    jobs: createJobs(handle.db, { now: () => new Date(), kind: handle.kind, supervise: true }),
    now: () => new Date(),
  };
  const app = await buildApp(ctx);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  // The uploads folder, or the bucket (created when missing): a store that cannot be reached stops the start.
  await fileStore(ctx).prepare();
  app.log.info({ store: fileStore(ctx).kind, downloads: config.files.downloads }, 'file store ready');
  const demo = config.seedDemo ? await seedDemo(ctx) : null;
  if (!demo) {
    const open = await demoAccountsWithPublishedPassword(ctx);
    if (open.length) app.log.warn({ accounts: open }, 'demo accounts with the published demo password exist: change their passwords or remove them');
  }
  if (!process.env.PUSHER_APP_SECRET) app.log.info({ file: path.join(config.dataDir, REALTIME_SECRET_FILE) }, 'realtime secret read from DATA_DIR');

  // Removes uploads nothing references any more, now and then; stops when the app closes.
  const sweeper = startUploadSweeper(ctx, app.log);
  app.addHook('onClose', () => sweeper.stop());
  // Keeps the change log to the latest change of each record (decision 0351); stops with the app.
  const compactor = startChangeLogCompactor(ctx, app.log);
  app.addHook('onClose', () => compactor.stop());
  // Jobs and event consumers run in every server process (they share the work through the
  // database); the events module stops them when the app closes.
  ctx.jobs.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await handle.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const url = `http://${config.host}:${config.port}/`;
  // Plain lines a person (and scripts) can read, besides the structured log.
  console.log(`\nCairn is running at ${url}  (database: ${handle.kind}${handle.kind === 'pglite' ? `, ${config.dataDir}` : ''})`);
  if (demo) console.log(`Demo login: ${demo.email} / ${demo.password}\n`);
  // The comment sanitizer (jsdom) is loaded after the start, not before it (decision 0367); test
  // servers load it on their first comment only, as most never write one.
  if (process.env.NODE_ENV !== 'test') setTimeout(preloadCommentSanitizer, 1_000).unref();
}

main().catch((error) => {
  // A refused setting is the operator's to fix: say what and why, without a stack trace.
  if (error instanceof ConfigError) console.error(`Cairn cannot start: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
