import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { addLogSource, LineBuffer } from '../tests/helpers/trail';
import { madeOnce, pruneOld } from './made-once';
import { serverBundle, serverSourceHash } from './server-bundle';
import { demoSeeding } from '../server/config';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts the real server (built app, embedded PGlite, demo data) as one node process. NODE_ENV is
 * `test`, not `production`: production never seeds the demo accounts the suites sign in with.
 * A new data dir starts from a copy of a data dir a server of these sources already migrated and
 * seeded (decisions 0325, 0379): the server still runs its migrations and its demo seeding, as on
 * any restart, and finds both done. The server runs from one bundled module (decision 0379);
 * E2E_SERVER_TSX=1 runs server/main.ts through tsx instead.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-'));
  if (!env.DATABASE_URL && !fs.existsSync(path.join(dataDir, 'pglite'))) {
    // Only a server that seeds the demo accounts starts from the seeded copy: a production start
    // (tests/server/security-config) must find none.
    if (seedsDemo({ ...process.env, NODE_ENV: 'test', ...env })) fs.cpSync(await seededDataDir(), dataDir, { recursive: true });
    else fs.cpSync(await migratedCluster(), path.join(dataDir, 'pglite'), { recursive: true });
  }
  return spawnServer(dataDir, env);
}

function seedsDemo(env: NodeJS.ProcessEnv): boolean {
  try {
    return demoSeeding(env);
  } catch {
    return false; // a setting the server refuses to start with: it will say so itself
  }
}

async function spawnServer(dataDir: string, env: Record<string, string>): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const entry = process.env.E2E_SERVER_TSX === '1' ? ['--import', 'tsx', 'server/main.ts'] : ['--enable-source-maps', await serverBundle()];
  const child = spawn(process.execPath, entry, {
    cwd: path.resolve('.'),
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Its last log lines go into the report of a test that fails (tests/helpers/failure-report.ts).
  const log = new LineBuffer();
  const removeLog = addLogSource(`the server on port ${port}`, log);
  child.once('exit', () => setTimeout(removeLog, 60_000).unref());
  child.stdout!.on('data', (d) => ((output += d), log.write(d)));
  child.stderr!.on('data', (d) => ((output += d), log.write(d)));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    // A loaded 2-core machine takes a while (E2E_SERVER_START_MS stretches it on a shared one),
    // but less than the hooks' limit (vitest.e2e.config.ts), so a start that fails says why;
    // a server that never came up is not left running.
    const limit = Number(process.env.E2E_SERVER_START_MS) || 240_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${limit / 1000} s (waiting for "Cairn is running at" in its output):\n${output.split('\n').slice(-40).join('\n')}`));
    }, limit);
    const check = () => {
      if (output.includes('Cairn is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    port,
    dataDir,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/**
 * A PGlite cluster just after initdb (migratedCluster below applies the migrations to a copy),
 * made once per machine and PGlite version and copied into each new
 * server's data dir: initdb in WASM costs 4 s on a quiet 2-core machine and over 30 s on a loaded
 * one, and the suites start a server per file.
 */
async function emptyCluster(): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const version = JSON.parse(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')).version as string;
  const dir = path.resolve('.cache', `e2e-pglite-cluster-${version}`);
  return madeOnce(dir, async (partial) => {
    const cluster = new PGlite(partial);
    await cluster.waitReady;
    await cluster.close();
  });
}

/**
 * The cluster above with every migration applied (decision 0325), made once per set of migrations
 * (its name carries a hash of server/db/migrations, migrate.ts and the PGlite version) and copied
 * into each new server's data dir: the suites start some 50 fresh servers, and each one migrated an
 * empty database first (5-15 s of a 18-37 s start on this machine at load 12-19). Made by the e2e
 * global set-up (e2e/global-setup.ts) before the first file; a suite run alone makes it on first
 * use if missing. What a migration
 * makes is the same for every copy, the server identity's id included (decision 0102): no suite
 * compares two servers' ids (each server has its own port, so its own origin and replica).
 */
export async function migratedCluster(): Promise<string> {
  const hash = createHash('sha256');
  const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of [...files(path.resolve('server/db/migrations')).sort(), path.resolve('server/db/migrate.ts'), path.resolve('node_modules/@electric-sql/pglite/package.json')]) {
    hash.update(path.relative(path.resolve('.'), file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  const dir = path.resolve('.cache', `e2e-pglite-migrated-${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(dir)) return dir;
  const empty = await emptyCluster();
  return madeOnce(dir, async (partial) => {
    fs.cpSync(empty, partial, { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { openDatabase } = await import('../server/db/index');
    const { migrate } = await import('../server/db/migrate');
    const handle = await openDatabase({ databaseUrl: null, pglite: new PGlite(partial) });
    try {
      await migrate(handle.db);
    } finally {
      await handle.close();
    }
  });
}

/**
 * A data dir as a server of the current sources leaves it after its first start: migrated, demo
 * data seeded (decision 0379). Seeding hashes the demo accounts' passwords and writes two boards,
 * 4-5 s of CPU, half of a start; each of the suites' some sixty servers did it again. Made by the
 * e2e global set-up with a real server start, once per state of the sources and per UTC day (the
 * demo data's dates are relative to the day it is made), without the realtime secret (each server
 * makes its own).
 */
export async function seededDataDir(): Promise<string> {
  const version = JSON.parse(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')).version as string;
  const day = new Date().toISOString().slice(0, 10);
  const dir = path.resolve('.cache', `e2e-data-seeded-${serverSourceHash()}-${version}-${day}`);
  await madeOnce(dir, async (partial) => {
    fs.mkdirSync(partial, { recursive: true });
    fs.cpSync(await migratedCluster(), path.join(partial, 'pglite'), { recursive: true });
    const server = await spawnServer(partial, {});
    await server.stop();
    fs.rmSync(path.join(partial, 'realtime-secret'), { force: true });
  });
  pruneOld('e2e-data-seeded-', dir);
  return dir;
}

/** Debian chromium, headless, with the flags this machine needs (STACK.md). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
