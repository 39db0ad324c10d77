import crypto from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { loadOutboundConfig, outboundRule, type Resolver } from '../../server/outbound';
import { sendPush } from '../../server/notifications/push';
import webPush from 'web-push';
import type { SignedIn } from './sync-fixtures';

/**
 * Web Push has no guard of its own (issue #26): a device's endpoint is judged by the outbound
 * client's web push rule, when the token is saved (its form) and at each send (its DNS answer,
 * the socket pinned to the checked address). A loopback listener stands behind every refused
 * endpoint that could reach it: it must hear nothing.
 */

const browser = crypto.createECDH('prime256v1');
browser.generateKeys();
const keys = { p256dh: browser.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
const vapidPair = () => ({ ...webPush.generateVAPIDKeys(), subject: 'mailto:ops@example.com' });
const token = (endpoint: string) => JSON.stringify({ endpoint, expirationTime: null, keys });

describe('web push through the outbound client only', () => {
  let server: TestServer;
  let user: SignedIn;
  let listener: Server;
  let port: number;
  const heard: string[] = [];
  /** Names the injected resolver answers. */
  const dns = new Map<string, string[]>([
    ['push.example.com', ['93.184.216.34']],
    ['push.evil.test', ['127.0.0.1']],
    ['mixed.evil.test', ['93.184.216.34', '10.0.0.5']],
    ['push.corp.test', ['127.0.0.1']],
  ]);
  const resolve: Resolver = async (hostname) => {
    const answers = dns.get(hostname);
    if (!answers) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  beforeAll(async () => {
    listener = createServer((req, res) => {
      heard.push(req.url!);
      res.writeHead(201);
      res.end();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    port = (listener.address() as AddressInfo).port;
    // Webhooks may reach inside addresses on this server: that must not open web push.
    server = await createTestServer({ config: { webhooks: { allowPrivateTargets: true }, outbound: { ...loadOutboundConfig({}), resolve } } });
    user = await createUserWithToken(server.ctx);
  }, 180_000);
  afterAll(async () => {
    await new Promise((r) => listener?.close(r));
    await server?.close();
  });

  it('refuses at save an endpoint that is not https, an inside address in any spelling, or a local name (422 naming token)', async () => {
    const refused = [
      `http://push.example.com/x`,
      `https://127.0.0.1:${port}/x`,
      `https://2130706433/x`,
      `https://0x7f.1/x`,
      `https://[::1]/x`,
      `https://[::ffff:127.0.0.1]/x`,
      `https://[::ffff:a9fe:a9fe]/x`,
      `https://[64:ff9b::a9fe:a9fe]/x`,
      `https://169.254.169.254/latest`,
      `https://10.0.0.1/x`,
      `https://100.64.0.1/x`,
      `https://[fd00:ec2::254]/x`,
      `https://localhost/x`,
      `https://push.localhost/x`,
      `https://metadata.internal/x`,
      `https://printer.local/x`,
      `https://pushhost/x`,
      `https://user:pw@push.example.com/x`,
      `ftp://push.example.com/x`,
    ];
    for (const endpoint of refused) {
      const res = await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token: token(endpoint) } });
      expect(res.statusCode, `${endpoint}: ${res.body}`).toBe(422);
      expect(res.body, endpoint).toContain('token:');
    }
    const ok = await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token: token('https://push.example.com/send/abc') } });
    expect(ok.statusCode, ok.body).toBe(204);
    const rows = await server.ctx.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', user.user.id).execute();
    expect(rows.map((r) => r.endpoint)).toEqual(['https://push.example.com/send/abc']);
    expect(heard).toEqual([]);
  });

  it('refuses at send a name whose DNS answer is inside (any answer of several): the subscription is gone, nothing is sent', async () => {
    const vapid = vapidPair();
    const rule = outboundRule(server.ctx.config, 'webPush');
    expect(rule).toMatchObject({ allowPrivate: false, httpsOnly: true });
    for (const host of ['push.evil.test', 'mixed.evil.test']) {
      const result = await sendPush(vapid, { endpoint: `https://${host}:${port}/send`, keys }, '{}', rule);
      expect(result, host).toMatchObject({ outcome: 'gone', detail: expect.stringContaining('not allowed') });
    }
    // http is refused at send too (a row saved before the rule, or by hand).
    expect(await sendPush(vapid, { endpoint: `http://127.0.0.1:${port}/send`, keys }, '{}', rule)).toMatchObject({ outcome: 'gone' });
    expect(heard).toEqual([]);
  });

  it('opens only through the web push feature’s own settings', async () => {
    const vapid = vapidPair();
    // WEB_PUSH_ALLOWED_HOSTS: the named push service on the operator's network is reached (over https,
    // which the plain listener does not speak: the request is sent, the answer fails, so 'failed', not 'gone').
    const listed = outboundRule({ outbound: { ...loadOutboundConfig({ WEB_PUSH_ALLOWED_HOSTS: 'push.corp.test' }), resolve } }, 'webPush');
    expect((await sendPush(vapid, { endpoint: `https://push.corp.test:${port}/send`, keys }, '{}', listed)).outcome).toBe('failed');
    expect((await sendPush(vapid, { endpoint: `https://push.evil.test:${port}/send`, keys }, '{}', listed)).outcome).toBe('gone');
    // The older setting PUSH_ALLOW_INSECURE_ENDPOINTS is the feature's private setting: http and inside addresses.
    const insecure = outboundRule({ outbound: { ...loadOutboundConfig({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' }), resolve } }, 'webPush');
    expect(insecure).toMatchObject({ allowPrivate: true, httpsOnly: false });
    const before = heard.length;
    expect(await sendPush(vapid, { endpoint: `http://127.0.0.1:${port}/send/ok`, keys }, '{}', insecure)).toEqual({ outcome: 'sent' });
    expect(heard.slice(before)).toEqual(['/send/ok']);
    // Another feature's setting never opens web push.
    for (const other of ['WEBHOOKS', 'GITLAB_IMPORT', 'TRELLO_IMPORT', 'SSO', 'BOT_CHECK', 'WHITELABEL_SMTP']) {
      const rule = outboundRule({ outbound: { ...loadOutboundConfig({ [`${other}_ALLOW_PRIVATE_TARGETS`]: 'true', [`${other}_ALLOWED_HOSTS`]: 'push.evil.test' }), resolve } }, 'webPush');
      expect(await sendPush(vapid, { endpoint: `https://push.evil.test:${port}/send`, keys }, '{}', rule), other).toMatchObject({ outcome: 'gone' });
    }
    expect(heard.length).toBe(before + 1);
  });
});
