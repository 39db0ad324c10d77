// Shared set-up steps of the start and test commands. Node built-ins only: it runs before npm install.
import { execSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function run(cmd, opts = {}) {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit', cwd: root, ...opts });
}

/** Installs npm packages when node_modules is missing or older than the lock file. */
export function ensureNodeModules() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs) {
    run('npm ci --no-audit --no-fund');
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
let aptUpdated = false;
function aptInstall(pkgs) {
  if (!isRoot()) {
    console.warn(`! not root: cannot install ${pkgs.join(' ')}; install them yourself`);
    return false;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get update -qq', { env });
    aptUpdated = true;
  }
  run(`apt-get install -y -qq ${pkgs.join(' ')}`, { env });
  return true;
}

export function chromiumPath() {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)) {
    if (fs.existsSync(p)) return p;
  }
  return null;
}

/** Debian's chromium for the e2e suites. */
export function ensureChromium() {
  if (chromiumPath()) return chromiumPath();
  aptInstall(['chromium']);
  return chromiumPath();
}

function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

/** Whether nothing listens on 127.0.0.1:port (checked in a child: this module stays synchronous). */
function portIsFree(port) {
  const probe = `require('net').createServer().once('error', () => process.exit(1)).listen(${port}, '127.0.0.1', function () { this.close(); })`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts a private PostgreSQL cluster for the test run (installing the Debian package when
 * missing) and returns its URL and a stop function; null when it cannot be had.
 *
 * Without a port it is private to this checkout and `name`, so runs of two clones on one machine
 * (a CI clone beside a working tree, a stress run) never meet: its folder is named after the
 * checkout's path and `name`, and its port is the first free one from a number they pick too.
 * With a port (CAIRN_TEST_PG_PORT, or the caller's) the folder is /tmp/cairn-test-pg-<port>.
 */
export function startPostgres(port = Number(process.env.CAIRN_TEST_PG_PORT) || 0, name = 'test') {
  let bin = postgresBinDir();
  if (!bin) {
    aptInstall(['postgresql']);
    bin = postgresBinDir();
  }
  if (!bin) return null;
  const key = createHash('sha256').update(`${root}\0${name}`).digest('hex');
  const dir = port ? `/tmp/cairn-test-pg-${port}` : `/tmp/cairn-test-pg-${key.slice(0, 12)}`;
  const asPostgres = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
  const exec = (args) => {
    const [cmd, ...rest] = [...asPostgres, ...args];
    const r = spawnSync(cmd, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  try {
    exec([path.join(bin, 'pg_ctl'), '-D', dir, 'stop', '-m', 'immediate']); // a cluster left by an earlier run
  } catch {}
  fs.rmSync(dir, { recursive: true, force: true });
  if (!port) {
    port = 55000 + (parseInt(key.slice(0, 8), 16) % 4000);
    while (!portIsFree(port)) port += 1;
  }
  fs.mkdirSync(dir, { recursive: true });
  if (isRoot()) execSync(`chown postgres:postgres ${dir}`);
  exec([path.join(bin, 'initdb'), '-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // A loaded machine can take longer than pg_ctl's 60 s: wait up to 5 minutes, and when it still
  // fails, say what the server logged.
  try {
    exec([path.join(bin, 'pg_ctl'), '-D', dir, '-l', path.join(dir, 'server.log'), '-w', '-t', '300', '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`, 'start']);
  } catch (error) {
    let log = '';
    try {
      log = fs.readFileSync(path.join(dir, 'server.log'), 'utf8').split('\n').slice(-30).join('\n');
    } catch {}
    throw new Error(`${error.message}\nlast lines of ${path.join(dir, 'server.log')}:\n${log}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        exec([path.join(bin, 'pg_ctl'), '-D', dir, 'stop', '-m', 'fast']);
      } catch (error) {
        console.warn(String(error));
      }
    },
  };
}
