/**
 * The app of the in-process benches (server-saves, change-log, api-tokens): a real server built
 * from a context over the database handle given (migrated here), with no network, mail or
 * realtime, and a verified bench user who owns one workspace. Prints nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nanoid } from 'nanoid';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createMailer } from '../server/mail/mailer';
import { silentBroadcaster, type AppContext } from '../server/context';
import type { DatabaseHandle } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { issueTokens } from '../server/auth/tokens';
import { createJobs } from '../server/jobs/index';

export interface BenchApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Closes the app and removes its data dir (the database handle is the caller's). */
  close(): Promise<void>;
}

/** Migrates the database and builds the app on it (jobs not started: a bench drives its own work). */
export async function inProcessApp(handle: DatabaseHandle): Promise<BenchApp> {
  await migrate(handle.db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0' }), webDir: path.join(dataDir, 'no-web') };
  const ctx: AppContext = {
    db: handle.db,
    config,
    mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), smtpUrl: null, from: config.mailFrom }),
    broadcaster: silentBroadcaster,
    jobs: createJobs(handle.db, { now: () => new Date(), kind: handle.kind }),
    now: () => new Date(),
  };
  const app = await buildApp(ctx, { logger: false });
  return {
    app,
    ctx,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A verified user with a fresh name (the database may be a scratch one used before). */
export async function benchUser(ctx: AppContext): Promise<{ id: number; token: string }> {
  const now = new Date();
  const user = await ctx.db
    .insertInto('users')
    .values({ email: `bench-${nanoid(8)}@example.test`, name: 'Bench', password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', email_verified_at: now, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: user.id, token: (await issueTokens(ctx.db, user.id, now)).access_token };
}

/** A bench user who owns a new workspace, with a session token. */
export async function benchOwner(ctx: AppContext): Promise<{ userId: number; teamId: number; token: string }> {
  const now = new Date();
  const user = await benchUser(ctx);
  const team = await ctx.db
    .insertInto('teams')
    .values({ name: 'Bench', owner_id: user.id, permissions: '{}', use_custom_logo: false, row_version: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: user.id, role: 'owner', verified_at: now, invited_by: null, created_at: now }).execute();
  return { userId: user.id, teamId: team.id, token: user.token };
}
