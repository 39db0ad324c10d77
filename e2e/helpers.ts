import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  if (!env.DATABASE_URL && !fs.existsSync(pgliteDir)) fs.cpSync(await emptyCluster(), pgliteDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve('.'),
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    // A loaded 2-core machine takes a while (E2E_SERVER_START_MS stretches it on a shared one);
    // a server that never came up is not left running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, Number(process.env.E2E_SERVER_START_MS) || 300_000);
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
 * A PGlite cluster just after initdb (no migrations, so every server still makes its own
 * identity and demo data), made once per machine and PGlite version and copied into each new
 * server's data dir: initdb in WASM costs 4 s on a quiet 2-core machine and over 30 s on a loaded
 * one, and the suites start a server per file.
 */
async function emptyCluster(): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const version = JSON.parse(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')).version as string;
  const dir = path.resolve('.cache', `e2e-pglite-cluster-${version}`);
  if (fs.existsSync(dir)) return dir;
  // Made beside and renamed: a half-made cluster is never taken for a whole one.
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  const cluster = new PGlite(partial);
  await cluster.waitReady;
  await cluster.close();
  try {
    fs.renameSync(partial, dir);
  } catch (error) {
    // Another run made it first: theirs is as good.
    if (!fs.existsSync(dir)) throw error;
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/** Debian chromium, headless, with the flags this machine needs (STACK.md). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
