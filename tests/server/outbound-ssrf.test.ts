import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { loadOutboundConfig, outboundFetch, outboundRule, OUTBOUND_FEATURES, OutboundFailed, refusedAddressReason, TargetRefused, type AddressRule, type OutboundFeature, type Resolver } from '../../server/outbound';

/**
 * The outbound client's address guard as a table (issue #26 part 4/11, decision 0355): every
 * refused range, IPv6 and odd IPv4 spellings, DNS answers that are inside addresses (an injected
 * resolver), redirects to inside addresses, DNS rebinding (one lookup, the socket goes to the
 * checked address), size and time limits, and the per-feature allow-lists. A real listener on
 * loopback stands behind every refused address that could reach it: it must hear nothing.
 * Then N4 of the security review, step by step, through the real server.
 */

type Heard = { path: string; headers: IncomingMessage['headers'] };

describe('outbound client: SSRF table', () => {
  let listener: Server;
  let port: number;
  const heard: Heard[] = [];
  /** What the injected resolver answers, per name, and how often it was asked. */
  const dns = new Map<string, string[]>();
  const asked = new Map<string, number>();
  const resolve: Resolver = async (hostname) => {
    asked.set(hostname, (asked.get(hostname) ?? 0) + 1);
    const answers = dns.get(hostname);
    if (!answers) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const n = asked.get(hostname)!;
    // "rebind.test" answers loopback first, then an address nothing listens on.
    const list = hostname === 'rebind.test' && n > 1 ? ['10.255.255.1'] : answers;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const closed: AddressRule = { allowPrivate: false, resolve };
  const opened = (...hosts: string[]): AddressRule => ({ allowPrivate: false, allowedHosts: hosts, resolve });

  beforeAll(async () => {
    listener = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      heard.push({ path: req.url!, headers: req.headers });
      const to = url.searchParams.get('to');
      if (url.pathname === '/redirect' && to) {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to.replace('PORT', String(port)) });
        return res.end();
      }
      if (url.pathname === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      if (url.pathname === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(Buffer.alloc(2 * 1024 * 1024, 97));
      }
      if (url.pathname === '/slow') return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, path: req.url, auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    port = (listener.address() as AddressInfo).port;
    dns.set('loopback.test', ['127.0.0.1']);
    dns.set('mapped.test', ['::ffff:127.0.0.1']);
    dns.set('private.test', ['10.0.0.5']);
    dns.set('metadata.test', ['169.254.169.254']);
    dns.set('mixed.test', ['93.184.216.34', '127.0.0.1']);
    dns.set('ula.test', ['fd00:ec2::254']);
    dns.set('allowed.test', ['127.0.0.1']);
    dns.set('allowed2.test', ['127.0.0.1']);
    dns.set('rebind.test', ['127.0.0.1']);
  });
  afterAll(async () => {
    await new Promise((r) => listener?.close(r));
  });

  const refused = async (rule: AddressRule, url: string) => {
    const before = heard.length;
    const error = await outboundFetch(rule, url, { timeoutMs: 3000 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error, url).toBeInstanceOf(TargetRefused);
    expect(heard.length, `${url} reached the listener`).toBe(before);
    return error as TargetRefused;
  };

  it('refuses every inside range by address (ipaddr.js ranges)', () => {
    const table: [string, string][] = [
      ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'], ['100.64.0.1', 'carrierGradeNat'], ['100.127.255.254', 'carrierGradeNat'], ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'], ['255.255.255.255', 'broadcast'], ['0.0.0.0', 'unspecified'], ['192.0.2.1', ''], ['198.18.0.1', ''],
      ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'linkLocal'], ['fc00::1', 'uniqueLocal'], ['fd00:ec2::254', 'uniqueLocal'], ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.1', 'private'], ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['64:ff9b::7f00:1', ''], ['64:ff9b::a9fe:a9fe', ''], ['2002:7f00:1::', ''], ['2001::1', ''], ['2001:db8::1', ''],
    ];
    for (const [address, range] of table) {
      const reason = refusedAddressReason(address);
      expect(reason, address).not.toBeNull();
      if (range) expect(reason, address).toContain(range);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(refusedAddressReason(address), address).toBeNull();
  });

  it('refuses inside addresses however the URL spells them, before connecting', async () => {
    const urls = [
      `http://127.0.0.1:${port}/x`, `http://2130706433:${port}/x`, `http://0177.0.0.1:${port}/x`, `http://0x7f.0.0.1:${port}/x`, `http://0x7f000001:${port}/x`,
      `http://017700000001:${port}/x`, `http://127.1:${port}/x`, `http://[::1]:${port}/x`, `http://[::ffff:127.0.0.1]:${port}/x`, `http://[::ffff:7f00:1]:${port}/x`,
      `http://[64:ff9b::7f00:1]:${port}/x`, 'http://[fe80::1]/x', 'http://[fc00::1]/x', 'http://10.0.0.1/x', 'http://172.16.0.1/x', 'http://192.168.0.1/x',
      'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]/', 'http://100.64.0.1/', 'http://224.0.0.1/', 'http://240.0.0.1/', 'http://0.0.0.0/', 'http://[::]/',
    ];
    for (const url of urls) await refused(closed, url);
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1/', 'ftp://example.test/', `http://user:pw@127.0.0.1:${port}/`, 'not a url']) await refused(closed, url);
  });

  it('refuses a name whose DNS answer is inside (any answer of several), and a name that does not resolve', async () => {
    for (const name of ['loopback.test', 'mapped.test', 'private.test', 'metadata.test', 'mixed.test', 'ula.test', 'localhost', 'nowhere.test']) {
      const error = await refused(closed, `http://${name}:${port}/x`);
      expect(error.message).toMatch(/not allowed|could not be resolved/);
    }
  });

  it('resolves once and connects to the checked address (DNS rebinding)', async () => {
    asked.delete('rebind.test');
    const res = await outboundFetch(opened('rebind.test'), `http://rebind.test:${port}/pinned`, { timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(asked.get('rebind.test')).toBe(1);
    // The name was resolved by the injected resolver only: the system resolver knows no "rebind.test".
    expect(heard.at(-1)).toMatchObject({ path: '/pinned' });
    expect(heard.at(-1)!.headers.host).toBe(`rebind.test:${port}`);
  });

  it('follows redirects by hand, checking every hop: none to an inside address, a cap on hops', async () => {
    const allowed = opened('allowed.test', 'allowed2.test');
    const via = (to: string, status = 302) => `http://allowed.test:${port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
    for (const to of ['http://127.0.0.1:PORT/secret', 'http://[::ffff:7f00:1]:PORT/secret', 'http://2130706433:PORT/secret', 'http://private.test/secret', 'http://169.254.169.254/latest/meta-data/', 'http://[64:ff9b::7f00:1]:PORT/secret']) {
      for (const status of [301, 302, 303, 307, 308]) {
        const before = heard.length;
        const error = await outboundFetch(allowed, via(to, status), { maxRedirects: 3, timeoutMs: 5000 }).catch((e: Error) => e);
        expect(error, `${status} → ${to}`).toBeInstanceOf(TargetRefused);
        expect(heard.slice(before).map((h) => h.path.split('?')[0])).toEqual(['/redirect']);
      }
    }
    // Allowed hops are followed; the credentials header stays on its origin.
    const same = await outboundFetch(allowed, via(`http://allowed.test:PORT/ok`), { maxRedirects: 2, headers: { authorization: 'Bearer t' } });
    expect(await same.json()).toMatchObject({ path: '/ok', auth: 'Bearer t' });
    const cross = await outboundFetch(allowed, via(`http://allowed2.test:PORT/ok`), { maxRedirects: 2, headers: { authorization: 'Bearer t' } });
    expect(await cross.json()).toMatchObject({ path: '/ok', auth: null });
    // No following unless asked: the 3xx is the answer.
    expect((await outboundFetch(allowed, via('http://127.0.0.1:PORT/secret'))).status).toBe(302);
    // A loop ends at the cap.
    await expect(outboundFetch(allowed, `http://allowed.test:${port}/loop`, { maxRedirects: 50 })).rejects.toBeInstanceOf(OutboundFailed);
  });

  it('caps the answer size and the time', async () => {
    const allowed = opened('allowed.test');
    await expect(outboundFetch(allowed, `http://allowed.test:${port}/big`, { maxBytes: 1024 * 1024 })).rejects.toThrow(/larger than/);
    const cut = await outboundFetch(allowed, `http://allowed.test:${port}/big`, { maxBytes: 1000, overflow: 'truncate' });
    expect((await cut.arrayBuffer()).byteLength).toBe(1000);
    // /slow never answers: only the time cap can end this call, so no wall-clock check is needed
    // (one failed on a busy machine); a cap that did not work would meet the test's outer limit.
    await expect(outboundFetch(allowed, `http://allowed.test:${port}/slow`, { timeoutMs: 300 })).rejects.toThrow(/timeout/);
  });

  it('opens only the feature whose setting names it, never another', async () => {
    const features = Object.keys(OUTBOUND_FEATURES) as OutboundFeature[];
    for (const feature of features) {
      const prefix = OUTBOUND_FEATURES[feature];
      const config = { outbound: { ...loadOutboundConfig({ [`${prefix}_ALLOW_PRIVATE_TARGETS`]: 'true', [`${prefix}_ALLOWED_HOSTS`]: 'inside.test, gitlab.corp:8443' }), resolve } };
      for (const other of features) {
        const rule = outboundRule(config, other);
        expect(rule.allowPrivate, `${prefix} opens ${other}`).toBe(other === feature);
        expect(rule.allowedHosts, `${prefix} lists hosts for ${other}`).toEqual(other === feature ? ['inside.test', 'gitlab.corp:8443'] : []);
      }
    }
    // Through the client: the Gitlab import's host list opens that host (at that port) for the Gitlab import only.
    const config = { webhooks: { allowPrivateTargets: true }, outbound: { ...loadOutboundConfig({ GITLAB_IMPORT_ALLOWED_HOSTS: `allowed.test:${port}` }), resolve } };
    expect((await outboundFetch(outboundRule(config, 'gitlabImport'), `http://allowed.test:${port}/g`)).status).toBe(200);
    await refused(outboundRule(config, 'gitlabImport'), `http://allowed.test:${port + 1 === 65536 ? 1 : port + 1}/g`);
    await refused(outboundRule(config, 'gitlabImport'), `http://127.0.0.1:${port}/g`);
    for (const other of ['trelloImport', 'sso', 'webPush', 'botCheck', 'whitelabelSmtp'] as const) await refused(outboundRule(config, other), `http://allowed.test:${port}/g`);
    // WEBHOOKS_ALLOW_PRIVATE_TARGETS (set above) opens webhooks and nothing else.
    expect((await outboundFetch(outboundRule(config, 'webhooks'), `http://127.0.0.1:${port}/w`)).status).toBe(200);
  });
});

describe('N4: the Gitlab import fetches no inside address, checks permissions first, keeps only scheme, host and port', () => {
  let server: TestServer;
  let t: TeamFixture;
  let internal: Server;
  let port: number;
  const heard: string[] = [];
  const b = board({ name: 'Sec board' });
  const g = folder(b.id, { name: 'G' });

  beforeAll(async () => {
    // Webhooks may reach inside addresses on this server: that must not open the Gitlab import.
    server = await createTestServer({ config: { webhooks: { allowPrivateTargets: true } } });
    t = await teamWithRoles(server.ctx);
    for (const [route, body] of [['folders', b], ['folders', g]] as const) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${body.id}`, { token: t.owner.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
    internal = createServer((req, res) => {
      heard.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 1, iid: 1, title: 'INTERNAL-ONLY: db password = hunter2', description: 'secret', state: 'opened', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', labels: [], assignees: [], web_url: 'http://x/1' }]));
    });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', () => r()));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => internal?.close(r));
    await server?.close();
  });

  const gitlab = (url: string, token = t.full.token) => api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/gitlab`, { token, body: { folder_id: g.id, url, project: 'grp/proj', token: 'glpat-xyz' } });

  it('refuses loopback, localhost and the mapped metadata address with a 422 naming url; the listener hears nothing', async () => {
    for (const url of [`http://127.0.0.1:${port}/internal/admin?secret=1#`, `http://localhost:${port}`, 'http://169.254.169.254', 'http://[::ffff:169.254.169.254]', 'http://[::ffff:a9fe:a9fe]', `http://[::ffff:7f00:1]:${port}`, `http://2130706433:${port}`]) {
      const res = await gitlab(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().message, url).toMatch(/^url: /);
      expect(res.body, url).not.toContain('token');
    }
    expect(heard).toEqual([]);
  });

  it('checks permissions before any fetch: a restricted member gets 403 and the server fetches nothing, even from an allowed host', async () => {
    server.ctx.config.outbound.features.gitlabImport = { allowedHosts: ['127.0.0.1'] };
    try {
      const res = await gitlab(`http://127.0.0.1:${port}/internal/admin?secret=1#`, t.restricted.token);
      expect(res.statusCode, res.body).toBe(403);
      expect(heard).toEqual([]);
      // With the operator's allow-list, a member's import reaches the host, at the API path only: the
      // path, query and fragment of the given address are dropped.
      const ok = await gitlab(`http://127.0.0.1:${port}/internal/admin?secret=1#`);
      expect(ok.statusCode, ok.body).toBe(202);
      expect(heard.length).toBe(1);
      expect(heard[0]).toMatch(/^\/api\/v4\/projects\/grp%2Fproj\/issues\?/);
      expect(heard[0]).not.toContain('internal');
      expect(heard[0]).not.toContain('secret');
    } finally {
      server.ctx.config.outbound.features.gitlabImport = {};
    }
  });
});
