/**
 * What the end-to-end benches share: a real server in this process on PGlite (or PostgreSQL when
 * a database URL is given) with its data folder, and a workspace with its owner and a token.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nanoid } from 'nanoid';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../server/app';
import { loadConfig, type ServerConfig } from '../server/config';
import { createMailer } from '../server/mail/mailer';
import { silentBroadcaster, type AppContext, type Broadcaster } from '../server/context';
import { openDatabase } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { issueTokens } from '../server/auth/tokens';
import { createJobs } from '../server/jobs/index';
import type { Role } from '../schema/permission-names';

export interface BenchServerOptions {
  /** PostgreSQL to use; PGlite when null. */
  databaseUrl: string | null;
  /** More settings for loadConfig. */
  env?: Record<string, string>;
  /** The realtime broadcaster (silent by default). */
  broadcaster?: (config: ServerConfig) => Broadcaster;
  /** `polling`: the database's own queue, polled every 50 ms (default); `plain`: the in-process runner with its defaults. */
  jobs?: 'polling' | 'plain';
  /** PGlite in a worker thread of its own (server/db/pglite-thread.ts) instead of on the server's thread. */
  pgliteThread?: boolean;
}

/** A migrated database, the server listening on a free port (jobs not started) and its data folder. */
export async function startBenchServer({ databaseUrl, env = {}, broadcaster, jobs = 'polling', pgliteThread = false }: BenchServerOptions) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
  const handle = await openDatabase(databaseUrl ? { databaseUrl } : pgliteThread ? { databaseUrl: null, dataDir: null, thread: true } : { databaseUrl: null, pglite: new PGlite() });
  await migrate(handle.db);
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', PUSHER_APP_SECRET: crypto.randomBytes(32).toString('hex'), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env }), webDir: path.join(dataDir, 'no-web') };
  const ctx: AppContext = {
    db: handle.db,
    config,
    mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), smtpUrl: null, from: config.mailFrom }),
    broadcaster: broadcaster ? broadcaster(config) : silentBroadcaster,
    jobs: jobs === 'plain' ? createJobs(handle.db, { now: () => new Date() }) : createJobs(handle.db, { now: () => new Date(), kind: handle.kind, pollMs: 50 }),
    now: () => new Date(),
  };
  const app = await buildApp(ctx, { logger: false });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { dataDir, handle, config, ctx, app, base };
}

/** A verified user's row (no password) for `insertInto('users')`. */
export function benchUser(email: string, name: string, at: Date) {
  return { email, name, password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', email_verified_at: at, created_at: at, updated_at: at };
}

/** A workspace "Bench" owned by `ownerId`, with more verified members if given. */
export async function insertBenchTeam(ctx: AppContext, ownerId: number, at: Date, { subscriptionId, members = [] }: { subscriptionId?: number; members?: { userId: number; role: Role }[] } = {}) {
  const team = await ctx.db
    .insertInto('teams')
    .values({ name: 'Bench', owner_id: ownerId, ...(subscriptionId !== undefined ? { subscription_id: subscriptionId } : {}), permissions: '{}', use_custom_logo: false, row_version: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = (userId: number, role: Role) => ({ team_id: team.id, user_id: userId, role, verified_at: at, invited_by: null, created_at: at });
  await ctx.db
    .insertInto('team_members')
    .values([member(ownerId, 'owner'), ...members.map((m) => member(m.userId, m.role))])
    .execute();
  return team;
}

/**
 * An owner (`{emailPrefix}-…@example.test`, "Bench"), their workspace and an access token.
 * `subscription` may give the workspace a plan made for the owner (its id).
 */
export async function seedWorkspace(ctx: AppContext, { emailPrefix = 'bench', subscription }: { emailPrefix?: string; subscription?: (ownerId: number, at: Date) => Promise<number> } = {}) {
  const at = new Date();
  const owner = await ctx.db.insertInto('users').values(benchUser(`${emailPrefix}-${nanoid(6)}@example.test`, 'Bench', at)).returning('id').executeTakeFirstOrThrow();
  const subscriptionId = subscription ? await subscription(owner.id, at) : undefined;
  const team = await insertBenchTeam(ctx, owner.id, at, { subscriptionId });
  const token = (await issueTokens(ctx.db, owner.id, at)).access_token;
  return { at, owner, team, token };
}

/** PUT /api/{team}/{route}/{body.id} as the token's user; anything but 200 throws. */
export function putRecord(base: string, teamId: number, token: string) {
  return async (route: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  };
}

/** A board "Bench board" with one table view "All", saved through `put` (see putRecord). */
export async function putBoardWithView(put: ReturnType<typeof putRecord>): Promise<{ boardId: string; viewId: string }> {
  const boardId = nanoid();
  const viewId = nanoid();
  await put('folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', row_version: 1 });
  await put('folder-views', { id: viewId, board_id: boardId, folder_id: boardId, name: 'All', kind: 'table', row_version: 1, settings: {} });
  return { boardId, viewId };
}
