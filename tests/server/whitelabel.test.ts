import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { setTxtResolver } from '../../server/whitelabel/routes';
import { teamMailer } from '../../server/whitelabel/mail';
import { forgetTenants } from '../../server/whitelabel/tenant';
import { secretsKey, unseal } from '../../server/secret-box';

/**
 * White label (issue #18, decision 0265) on a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): eligibility by each of the spec's three rules and its refusal, owner only,
 * settings checks, image uploads, DNS TXT verification through an injected resolver, the custom
 * SMTP server (a small SMTP listener on loopback answers like a real one), tenant resolution by Host.
 */

/** A minimal SMTP server on loopback: accepts every message and keeps what it received. */
async function startSmtp(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let data: string | null = null;
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 2.0.0 queued\r\n');
          } else data += line + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-test.local\r\n250 AUTH PLAIN LOGIN\r\n');
        else if (verb === 'HELO') socket.write('250 test.local\r\n');
        else if (verb === 'AUTH') socket.write('235 2.7.0 ok\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

describe('white label', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof createUserWithToken>>;
  let admin: Awaited<ReturnType<typeof createUserWithToken>>;
  let teamId: number;
  let subscriptionId: number;
  let webDir: string;
  const txt = new Map<string, string[][]>();

  const wl = (method: 'GET' | 'PUT' | 'POST', suffix = '', body?: unknown, token = owner.token) => api(server.app, method, `/api/teams/whitelabel/${teamId}${suffix}`, { token, body });
  const setSubscription = (values: Record<string, unknown>) => server.ctx.db.updateTable('subscriptions').set(values as never).where('id', '=', subscriptionId).execute();
  const upload = (field: string, data: Buffer, token = owner.token) => {
    const boundary = '----cairnwl';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return server.app.inject({ method: 'POST', url: `/api/teams/whitelabel/${teamId}/assets`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
  };
  const page = (host: string, url = '/home') => server.app.inject({ method: 'GET', url, headers: { host } });

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-wl-web-'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html>\n<html lang="en" dir="ltr">\n  <head>\n    <meta name="description" content="Cairn: local-first" />\n    <meta name="theme-color" content="#2f5d8a" />\n    <link rel="icon" type="image/png" sizes="32x32" href="/icons/favicon-32.png" />\n    <link rel="apple-touch-icon" href="/icons/icon-192.png" />\n    <title>Cairn</title>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
    );
    fs.writeFileSync(path.join(webDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Cairn', short_name: 'Cairn', start_url: '/home', theme_color: '#2f5d8a', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] }));
    server = await createTestServer({ config: { webDir, publicUrl: 'https://cairn.example', outbound: { features: { whitelabelSmtp: { allowPrivate: true } } } } });
    setTxtResolver(server.ctx, async (name) => {
      const found = txt.get(name);
      if (!found) throw Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' });
      return found;
    });
    owner = await createUserWithToken(server.ctx);
    admin = await createUserWithToken(server.ctx);
    const created = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Acme' } });
    expect(created.statusCode).toBe(201);
    teamId = created.json().data.id;
    subscriptionId = created.json().data.subscription_id;
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: admin.user.id, role: 'admin', verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('refuses a free workspace with the spec’s words, and lets each of the three rules in', async () => {
    const state = await wl('GET');
    expect(state.statusCode).toBe(200);
    expect(state.json().data).toMatchObject({ workspaceId: teamId, eligible: false, reason: 'not_eligible' });
    const refused = await wl('PUT', '', { settings: { 'app.name': 'Acme Work' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: 'White label needs a lifetime-deal workspace.', type: 'whitelabel_not_eligible' });
    expect((await upload('logo', PNG)).statusCode).toBe(422);

    // 1. An old plan version (below 8).
    await setSubscription({ version: 7 });
    expect((await wl('GET')).json().data).toMatchObject({ eligible: true, reason: 'plan_version' });
    // An old plan that has ended keeps nothing.
    await setSubscription({ ends_at: new Date(Date.now() - 86_400_000) });
    expect((await wl('GET')).json().data.eligible).toBe(false);
    await setSubscription({ version: 8, ends_at: null });

    // 2. A custom-plan deal.
    await server.ctx.db.insertInto('plans').values({ id: 'custom-acme', version: 8, level: 2, tier: 0, name: 'Acme deal', prices: JSON.stringify([]), limits: JSON.stringify({ workspaces: 3, members: 10 }), is_upgradable: false }).execute();
    await setSubscription({ deal: 'custom-acme' });
    expect((await wl('GET')).json().data).toMatchObject({ eligible: true, reason: 'custom_deal' });
    await setSubscription({ deal: 'free' });

    // 3. A positive WhitelabelLimit (the lifetime deal's).
    await setSubscription({ deal: 'ltd', limits: JSON.stringify({ workspaces: 3, members: 25, storage: 50, AutomationRunsLimit: 10000, WhitelabelLimit: 1, proViews: true }) });
    expect((await wl('GET')).json().data).toMatchObject({ eligible: true, reason: 'limit' });
    expect((await wl('PUT', '', { settings: { 'app.name': 'Acme Work' } })).statusCode).toBe(200);

    // The limit counts white-labelled workspaces of the subscription: a second one is over it.
    const second = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Acme 2' } });
    expect(second.statusCode).toBe(201);
    const over = await api(server.app, 'PUT', `/api/teams/whitelabel/${second.json().data.id}`, { token: owner.token, body: { settings: { 'app.name': 'Two' } } });
    expect(over.statusCode).toBe(422);
    expect(over.json().type).toBe('whitelabel_limit_exceeded');
  });

  it('is the owner’s alone: an admin and an outsider get 403, anonymous 401', async () => {
    const outsider = await createUserWithToken(server.ctx);
    for (const [method, suffix, body] of [['GET', '', undefined], ['PUT', '', { settings: { 'app.name': 'Hijack' } }], ['POST', '/verify', {}], ['POST', '/test-mail', { email: 'a@b.test' }]] as const) {
      expect((await wl(method, suffix, body, admin.token)).statusCode, `${method} ${suffix} as admin`).toBe(403);
      expect((await wl(method, suffix, body, outsider.token)).statusCode, `${method} ${suffix} as outsider`).toBe(403);
      expect((await api(server.app, method, `/api/teams/whitelabel/${teamId}${suffix}`, { body })).statusCode).toBe(401);
    }
    expect((await upload('logo', PNG, admin.token)).statusCode).toBe(403);
    expect((await wl('GET')).json().data.settings['app.name']).toBe('Acme Work');
  });

  it('checks the settings: names, colours, the font URL; each problem named and nothing stored', async () => {
    const bad = [
      { settings: { 'app.name': '' } },
      { settings: { 'app.name': '<script>' } },
      { settings: { 'app.customization.colors.primary': 'red; background: url(x)' } },
      { settings: { 'app.customization.colors.nope': '#fff' } },
      { settings: { 'app.customization.font': 'http://fonts.example/css' } },
      { settings: { 'app.customization.font': 'https://fonts.example/css?family=A")' } },
      { domain: 'not a domain' },
      { smtp: { host: 'smtp.example', port: 70000, from: 'x@y.z' } },
      {},
    ];
    for (const body of bad) {
      const res = await wl('PUT', '', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toMatch(/^Validation Error: /);
    }
    const good = await wl('PUT', '', {
      settings: { 'app.customization.colors.primary': '#c2185b', 'app.customization.colors.sidebar': 'rgb(20 20 40)', 'app.customization.font': 'https://fonts.example/css2?family=Open+Sans:wght@400;700' },
    });
    expect(good.statusCode).toBe(200);
    expect(good.json().data.settings).toEqual({
      'app.name': 'Acme Work',
      'app.customization.colors.primary': '#c2185b',
      'app.customization.colors.sidebar': 'rgb(20 20 40)',
      'app.customization.font': 'https://fonts.example/css2?family=Open+Sans:wght@400;700',
    });
    // null removes one key; the others stay.
    const removed = await wl('PUT', '', { settings: { 'app.customization.colors.sidebar': null } });
    expect(Object.keys(removed.json().data.settings)).not.toContain('app.customization.colors.sidebar');
    // Members see the public part on the workspace.
    const team = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: admin.token });
    expect(team.json().data.whitelabel_settings.settings['app.name']).toBe('Acme Work');
  });

  it('stores logo, loader and wide logo through the file store: images only, size-limited, replaced and removed', async () => {
    const logo = await upload('logo', PNG);
    expect(logo.statusCode).toBe(200);
    const url = logo.json().data.logo as string;
    expect(url).toMatch(/^\/api\/files\/whitelabel\/[\w-]+\.png$/);
    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await upload('logoWide', PNG)).json().data.logoWide).toMatch(/^\/api\/files\/whitelabel\//);

    const notImage = await upload('loader', Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().message).toContain('loader: must be a PNG, JPEG, GIF or WebP image');
    const big = await upload('loader', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect((await upload('favicon', PNG)).statusCode).toBe(422);

    // A new logo replaces the old file; the old one is gone.
    const again = await upload('logo', PNG);
    expect(again.json().data.logo).not.toBe(url);
    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    // remove=logoWide clears it.
    const boundary = '----cairnrm';
    const res = await server.app.inject({
      method: 'POST', url: `/api/teams/whitelabel/${teamId}/assets`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="remove"\r\n\r\nlogoWide\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.logoWide).toBeNull();
  });

  it('verifies the domain by its TXT record through the injected resolver: missing, wrong value, then the right one', async () => {
    const set = await wl('PUT', '', { domain: 'Work.Acme.TEST' });
    expect(set.statusCode).toBe(200);
    const domain = set.json().data.domain;
    expect(domain).toMatchObject({ name: 'work.acme.test', record: '_cairn-verification.work.acme.test', verified: false });
    expect(domain.value).toMatch(/^cairn-verification=[\w-]{20,}$/);

    const missing = await wl('POST', '/verify');
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ type: 'domain_not_verified' });
    expect(missing.json().message).toContain('No TXT record _cairn-verification.work.acme.test was found.');

    txt.set('_cairn-verification.work.acme.test', [['cairn-verification=someone-else']]);
    const mismatch = await wl('POST', '/verify');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().message).toContain('holds another value');
    expect(mismatch.json().data.domain.verified).toBe(false);
    // Not served as a tenant while unverified.
    expect((await api(server.app, 'GET', '/api/app-vars', { headers: { host: 'work.acme.test' } })).json().appConfig.whitelabel).toBe(false);

    // TXT strings may come in chunks; they are joined.
    const value: string = domain.value;
    txt.set('_cairn-verification.work.acme.test', [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
    const ok = await wl('POST', '/verify');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.domain).toMatchObject({ verified: true, problem: null });
    // The link is this server's scheme (PUBLIC_URL) with the domain: members' navigation opens it.
    expect(ok.json().data.link).toBe('https://work.acme.test');
    const team = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: admin.token });
    expect(team.json().data).toMatchObject({ domain: 'work.acme.test', whitelabel_settings: { link: 'https://work.acme.test' } });
  });

  it('resolves the tenant by Host: the verified domain gets its settings in app-vars and in the page before first paint; others do not', async () => {
    const vars = (await api(server.app, 'GET', '/api/app-vars', { headers: { host: 'work.acme.test:443' } })).json();
    expect(vars.tenantKey).toMatch(/^t_/);
    expect(vars.settings).toMatchObject({ 'app.name': 'Acme Work', 'app.customization.colors.primary': '#c2185b' });
    expect(vars.appConfig).toMatchObject({ workspaceId: teamId, common: false, whitelabel: true, name: 'Acme Work', color: '#c2185b' });
    expect(vars.appConfig.logo).toMatch(/^\/api\/files\/whitelabel\//);

    const common = (await api(server.app, 'GET', '/api/app-vars', { headers: { host: 'cairn.example' } })).json();
    expect(common.settings).toBeNull();
    expect(common.appConfig).toMatchObject({ common: true, whitelabel: false, name: null });
    expect((await api(server.app, 'GET', '/api/app-vars', { headers: { host: 'other.acme.test' } })).json().appConfig.whitelabel).toBe(false);

    const html = await page('work.acme.test');
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<title>Acme Work</title>');
    expect(html.body).toContain(`<html data-tenant="${vars.tenantKey}"`);
    expect(html.body).toContain('<meta name="theme-color" content="#c2185b"');
    expect(html.body).toContain(`<link rel="icon" href="${vars.appConfig.logo}" />`);
    expect(html.body).toMatch(/<link rel="stylesheet" href="\/api\/tenant\.css\?v=\d+" \/>/);
    expect(html.body).toContain('<link rel="stylesheet" href="https://fonts.example/css2?family=Open+Sans:wght@400;700" />');
    const data = JSON.parse(/<script id="cairn-tenant" type="application\/json">(.*?)<\/script>/.exec(html.body)![1]!);
    expect(data).toMatchObject({ name: 'Acme Work', workspaceId: teamId });
    // The font's origin is allowed for styles on this page only.
    expect(html.headers['content-security-policy']).toMatch(/style-src 'self' https:\/\/fonts\.example/);

    const css = await server.app.inject({ method: 'GET', url: '/api/tenant.css', headers: { host: 'work.acme.test' } });
    expect(css.headers['content-type']).toContain('text/css');
    expect(css.body).toContain('--color-primary: #c2185b;');
    expect(css.body).toContain('--font-sans: "Open Sans"');

    // Installing the app from the domain installs the brand.
    const manifest = await server.app.inject({ method: 'GET', url: '/manifest.webmanifest', headers: { host: 'work.acme.test' } });
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    expect(manifest.json()).toMatchObject({ name: 'Acme Work', theme_color: '#c2185b', start_url: '/home', icons: [{ src: vars.appConfig.logo }] });

    const plain = await page('cairn.example');
    expect(plain.body).toContain('<title>Cairn</title>');
    expect(plain.body).not.toContain('cairn-tenant');
    expect(plain.headers['content-security-policy']).not.toContain('fonts.example');
    expect((await server.app.inject({ method: 'GET', url: '/api/tenant.css', headers: { host: 'cairn.example' } })).body).not.toContain('--color');

    // A plan that no longer includes white label stops the branding on the domain.
    await setSubscription({ deal: 'free', limits: JSON.stringify({ workspaces: 1, members: 5, WhitelabelLimit: 0 }) });
    forgetTenants(server.ctx);
    expect((await page('work.acme.test')).body).toContain('<title>Cairn</title>');
    await setSubscription({ deal: 'ltd', limits: JSON.stringify({ workspaces: 3, members: 25, WhitelabelLimit: 1 }) });
  });

  it('keeps the SMTP password sealed, says “SMTP configuration error” when the server fails, and sends the workspace’s mail through it', async () => {
    const dead = await closedPort();
    const put = await wl('PUT', '', { smtp: { host: '127.0.0.1', port: dead, user: 'mailer', password: 's3cret-pass', from: 'Acme <no-reply@acme.test>' } });
    expect(put.statusCode).toBe(200);
    expect(put.json().data.smtp).toEqual({ host: '127.0.0.1', port: dead, secure: false, user: 'mailer', from: 'Acme <no-reply@acme.test>', hasPassword: true });
    expect(JSON.stringify(put.json())).not.toContain('s3cret-pass');
    const row = await server.ctx.db.selectFrom('team_whitelabel').select(['smtp_password', 'smtp']).where('team_id', '=', teamId).executeTakeFirstOrThrow();
    expect(row.smtp_password).not.toContain('s3cret');
    expect(unseal(secretsKey(server.ctx.config.dataDir), row.smtp_password!)).toBe('s3cret-pass');

    const failed = await wl('POST', '/test-mail', { email: 'owner@acme.test' });
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toMatchObject({ message: 'SMTP configuration error', type: 'smtp_error' });
    expect(failed.json().data.detail).toMatch(/ECONNREFUSED|connect/i);
    expect((await wl('POST', '/test-mail', { email: 'nope' })).statusCode).toBe(422);

    const smtp = await startSmtp();
    try {
      // Omitting the password keeps the stored one.
      expect((await wl('PUT', '', { smtp: { host: '127.0.0.1', port: smtp.port, user: 'mailer', from: 'Acme <no-reply@acme.test>' } })).json().data.smtp.hasPassword).toBe(true);
      const sent = await wl('POST', '/test-mail', { email: 'owner@acme.test' });
      expect(sent.statusCode).toBe(200);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]).toContain('Subject: Acme Work: test mail');
      // The workspace's own mail (invitations) goes through it too, not through the server's outbox.
      const before = (await server.outbox()).length;
      const invite = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: 'newcomer@acme.test', role: 'full-member' }] } });
      expect(invite.statusCode).toBeLessThan(300);
      await expect.poll(() => smtp.messages.length).toBe(2);
      expect(smtp.messages[1]).toContain('newcomer@acme.test');
      // Its link is the workspace's own address (verified above), not PUBLIC_URL.
      expect(smtp.messages[1].replace(/=\n/g, '')).toContain('https://work.acme.test/register/invitation?token=');
      expect((await server.outbox()).length).toBe(before);
      expect(await teamMailer(server.ctx, teamId)).not.toBe(server.ctx.mailer);
    } finally {
      await smtp.close();
    }
  });

  it('refuses an SMTP host on an inside address unless the server allows private targets', async () => {
    const strict = await createTestServer();
    try {
      const o = await createUserWithToken(strict.ctx);
      const t = (await api(strict.app, 'POST', '/api/teams', { token: o.token, body: { name: 'Strict' } })).json().data;
      await strict.ctx.db.updateTable('subscriptions').set({ version: 5 }).where('id', '=', t.subscription_id).execute();
      expect((await api(strict.app, 'PUT', `/api/teams/whitelabel/${t.id}`, { token: o.token, body: { smtp: { host: '127.0.0.1', port: 25, from: 'a@b.test' } } })).statusCode).toBe(200);
      const res = await api(strict.app, 'POST', `/api/teams/whitelabel/${t.id}/test-mail`, { token: o.token, body: { email: 'a@b.test' } });
      expect(res.json()).toMatchObject({ message: 'SMTP configuration error' });
      expect(res.json().data.detail).toContain('not allowed');
    } finally {
      await strict.close();
    }
  });
});
