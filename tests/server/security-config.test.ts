import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { demoSeeding, loadConfig } from '../../server/config';
import { ConfigError, REALTIME_SECRET_FILE } from '../../server/secrets';
import { contentSecurityPolicy } from '../../server/http/security-headers';
import { demoAccountsWithPublishedPassword } from '../../server/demo/leftover';
import { seedDemo } from '../../server/demo/seed';
import { hashPassword } from '../../server/accounts/password';
import { startServer } from '../../e2e/helpers';

/**
 * Issue #9 parts 4 and 5: no public secrets, no demo accounts in production, security headers on
 * every response, and a Secure refresh cookie whenever the request arrived over TLS.
 */

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-security-'));

/** Runs server/main.ts until it exits (a refused start) and returns its exit code and output. */
function runMainUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve('.'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the realtime secret', () => {
  it('is generated on first start into DATA_DIR (mode 0600) and read back on the next', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).pusher.secret;
    const file = path.join(dataDir, REALTIME_SECRET_FILE);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).pusher.secret).toBe(first);
    // Another data folder is another installation: its own secret.
    expect(loadConfig({ DATA_DIR: tempDir() }).pusher.secret).not.toBe(first);
  });

  it('comes from PUSHER_APP_SECRET when set, over the generated one', () => {
    const dataDir = tempDir();
    loadConfig({ DATA_DIR: dataDir });
    const fromEnv = 'a-secret-from-the-environment-42';
    expect(loadConfig({ DATA_DIR: dataDir, PUSHER_APP_SECRET: fromEnv }).pusher.secret).toBe(fromEnv);
  });

  it('refuses a published default, a short one, and a missing one with an external service', () => {
    const dataDir = tempDir();
    for (const published of ['cairn-secret-change-me', 'app-secret', 'CAIRN-SECRET-CHANGE-ME']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, PUSHER_APP_SECRET: published })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ DATA_DIR: dataDir, PUSHER_APP_SECRET: 'short' })).toThrow(/at least 16/);
    expect(() => loadConfig({ DATA_DIR: dataDir, PUSHER_HOST: 'realtime.example.test' })).toThrow(/PUSHER_APP_SECRET/);
    // A default written into the file by hand is refused too.
    fs.writeFileSync(path.join(dataDir, REALTIME_SECRET_FILE), 'cairn-secret-change-me\n');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/published default/);
  });

  it('makes the server refuse to start, with a clear message and a non-zero exit', async () => {
    const dataDir = tempDir();
    const { code, output } = await runMainUntilExit({ DATA_DIR: dataDir, PUSHER_APP_SECRET: 'cairn-secret-change-me' });
    expect(code).not.toBe(0);
    expect(output).toContain('Cairn cannot start: PUSHER_APP_SECRET is the published default');
    expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false); // refused before touching the database
  }, 90_000);
});

describe('demo accounts', () => {
  it('are seeded by the embedded default only, never in production', () => {
    expect(demoSeeding({})).toBe(true);
    expect(demoSeeding({ NODE_ENV: 'test' })).toBe(true);
    expect(demoSeeding({ NODE_ENV: 'production' })).toBe(false);
    expect(demoSeeding({ DATABASE_URL: 'postgres://db/cairn' })).toBe(false);
    expect(demoSeeding({ SEED_DEMO: 'false' })).toBe(false);
    expect(demoSeeding({ SEED_DEMO: 'true', DATABASE_URL: 'postgres://db/cairn' })).toBe(true);
    expect(() => demoSeeding({ SEED_DEMO: 'true', NODE_ENV: 'production' })).toThrow(/refused with NODE_ENV=production/);
    expect(() => demoSeeding({ SEED_DEMO: 'yes please' })).toThrow(/true or false/);
  });

  it('are absent from a production server, which keeps its generated secret across restarts', async () => {
    const dataDir = tempDir();
    const env = { NODE_ENV: 'production', DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'no-web'), PUSHER_APP_SECRET: '', PAYMENT_PROVIDER: 'local' };
    let server = await startServer(env);
    try {
      const login = await fetch(server.url + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@cairn.local', password: 'demo-password', grantType: 'password' }) });
      expect(login.status).toBe(422);
      const vars = await (await fetch(server.url + '/api/app-vars')).json();
      expect(vars.demoLogin).toBeNull();
      expect(JSON.stringify(vars)).not.toContain(fs.readFileSync(path.join(dataDir, REALTIME_SECRET_FILE), 'utf8').trim());
    } finally {
      await server.stop();
    }
    const secret = fs.readFileSync(path.join(dataDir, REALTIME_SECRET_FILE), 'utf8');
    server = await startServer(env);
    await server.stop();
    expect(fs.readFileSync(path.join(dataDir, REALTIME_SECRET_FILE), 'utf8')).toBe(secret);
  }, 180_000);
});

describe('a running server', () => {
  /** Behind a trusted proxy (TRUST_PROXY=true), seeding demo data, serving a small built app. */
  let server: TestServer;
  /** No trusted proxy, no demo data: a production-like configuration. */
  let untrusted: TestServer;
  beforeAll(async () => {
    const webDir = tempDir();
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1);');
    server = await createTestServer({ config: { webDir, seedDemo: true } });
    untrusted = await createTestServer({ config: { trustProxy: false, seedDemo: false } });
  });
  afterAll(async () => {
    await server.close();
    await untrusted.close();
  });

  it('finds demo accounts that still accept the published password (the start-up warning)', async () => {
    expect(await demoAccountsWithPublishedPassword(untrusted.ctx)).toEqual([]);
    await seedDemo(untrusted.ctx);
    expect((await demoAccountsWithPublishedPassword(untrusted.ctx)).sort()).toEqual(['demo-admin@cairn.local', 'demo-full@cairn.local', 'demo-restricted@cairn.local', 'demo@cairn.local']);
    await untrusted.ctx.db.updateTable('users').set({ password_hash: await hashPassword('a private password') }).where('email', '=', 'demo-full@cairn.local').execute();
    expect(await demoAccountsWithPublishedPassword(untrusted.ctx)).not.toContain('demo-full@cairn.local');
  });

  it('offers the demo login in app vars only where it seeds the demo accounts', async () => {
    expect((await api(server.app, 'GET', '/api/app-vars')).json().demoLogin).toEqual({ email: 'demo@cairn.local', password: 'demo-password' });
    expect((await api(untrusted.app, 'GET', '/api/app-vars')).json().demoLogin).toBeNull();
    // The browser gets the realtime key, never the secret.
    const vars = (await api(server.app, 'GET', '/api/app-vars')).body;
    expect(vars).toContain(server.ctx.config.pusher.key);
    expect(vars).not.toContain(server.ctx.config.pusher.secret);
  });

  function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
    const csp = String(headers['content-security-policy'] ?? '');
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("script-src 'self'");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("object-src 'none'");
    expect(csp, what).not.toContain('unsafe-inline');
    expect(csp, what).not.toContain('unsafe-eval');
    expect(headers['x-content-type-options'], what).toBe('nosniff');
    expect(headers['referrer-policy'], what).toBe('no-referrer');
    expect(headers['x-frame-options'], what).toBe('DENY');
    expect(headers['strict-transport-security'], what).toBeUndefined(); // plain http
  }

  it('sends the security headers on API answers, errors included', async () => {
    expectSecurityHeaders((await api(server.app, 'GET', '/api/app-vars')).headers, 'app-vars');
    expectSecurityHeaders((await api(server.app, 'GET', '/api/nope')).headers, 'API 404');
    expectSecurityHeaders((await api(server.app, 'GET', '/api/me')).headers, 'API 401');
  });

  it('sends them on the app shell, its assets, the SPA fallback and the service worker', async () => {
    for (const url of ['/', '/home', '/no/such/page', '/assets/index-abc123.js', '/sw.js']) {
      const res = await api(server.app, 'GET', url);
      expect(res.statusCode, url).toBeLessThan(500);
      expectSecurityHeaders(res.headers, url);
    }
    // The service worker keeps its own headers beside them.
    expect((await api(server.app, 'GET', '/sw.js')).headers['service-worker-allowed']).toBe('/');
  });

  it('sends them on uploaded files', async () => {
    const { token } = await createUserWithToken(server.ctx);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    const boundary = '----cairnSecurityBoundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await server.app.inject({ method: 'POST', url: '/api/me/photo', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
    expect(uploaded.statusCode).toBe(200);
    const file = await server.app.inject({ method: 'GET', url: uploaded.json().photo_url });
    expect(file.statusCode).toBe(200);
    expectSecurityHeaders(file.headers, 'upload');
    expect(file.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('adds HSTS only when the request arrived over TLS through a trusted proxy', async () => {
    const overTls = await api(server.app, 'GET', '/api/app-vars', { headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000');
    const forged = await api(untrusted.app, 'GET', '/api/app-vars', { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('names an external realtime service in connect-src', () => {
    const external = contentSecurityPolicy({ ...server.ctx.config, pusher: { ...server.ctx.config.pusher, host: 'rt.example.test', port: 6001, useTLS: true } });
    expect(external['connect-src']).toEqual(["'self'", 'wss://rt.example.test:6001']);
    expect(contentSecurityPolicy(server.ctx.config)['connect-src']).toEqual(["'self'"]);
  });


  describe('the refresh cookie', () => {
    let ip = 0;
    const register = (on: TestServer, headers: Record<string, string>) =>
      api(on.app, 'POST', '/api/auth/register', {
        body: { email: `cookie${++ip}-${Date.now()}@example.test`, name: 'Cookie', password: 'correct horse battery', locale: 'en-US' },
        headers: { 'x-forwarded-for': `10.9.0.${ip}`, ...headers },
      });
    const refreshCookie = (res: Awaited<ReturnType<typeof register>>) => res.cookies.find((c) => c.name === 'cairn_refresh');

    it('is Secure behind a TLS proxy trusted with TRUST_PROXY, and not over plain http', async () => {
      const tls = await register(server, { 'x-forwarded-proto': 'https' });
      expect(tls.statusCode).toBe(201);
      expect(refreshCookie(tls)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
      const plain = await register(server, {});
      expect(plain.statusCode).toBe(201);
      expect(refreshCookie(plain)?.secure).toBeFalsy();
    });

    it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
      const forged = await register(untrusted, { 'x-forwarded-proto': 'https' });
      expect(forged.statusCode).toBe(201);
      expect(refreshCookie(forged)?.secure).toBeFalsy();
    });
  });
});
