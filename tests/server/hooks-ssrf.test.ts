import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { board, createTeam, item, newId, type SignedIn } from './sync-fixtures';
import { startReceiver, type Receiver } from './hooks-receiver';
import { refusedAddressReason, type Resolver } from '../../server/outbound';
import { deliverToUrl } from '../../server/hooks/send';
import { enqueueUrlDelivery } from '../../server/hooks/url-delivery';
import type { Hook } from '../../schema/hooks';

/**
 * Webhook targets and SSRF (decision 0140), with the address rules on (the default): inside
 * addresses are refused when a hook is saved and again when a delivery connects, whether the
 * URL names them directly (IPv4, IPv6, IPv4-mapped IPv6) or through a DNS name (an injected
 * resolver answers like DNS would, including a name that changes its answer after the save).
 */

const PUBLIC = '93.184.216.34';

describe('webhook targets (SSRF)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let teamId: number;
  let alice: SignedIn;
  /** What the injected resolver answers, per host name. */
  const dns = new Map<string, string[]>();
  const resolve: Resolver = async (hostname) => {
    const answers = dns.get(hostname);
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const put = (url: string) => api(server.app, 'PUT', `/api/${teamId}/hooks/${newId()}`, { token: alice.token, body: { url, events: ['item.created'] } });

  beforeAll(async () => {
    server = await createTestServer({ config: { webhooks: { allowPrivateTargets: false }, outbound: { features: {}, resolve } } });
    receiver = await startReceiver();
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    teamId = await createTeam(server.ctx, alice.user.id);
    dns.set('public.example.test', [PUBLIC]);
    dns.set('internal.example.test', ['10.0.0.5']);
    dns.set('metadata.example.test', ['169.254.169.254']);
    dns.set('v6-internal.example.test', ['fd00:ec2::254']);
    dns.set('mapped.example.test', ['::ffff:127.0.0.1']);
    dns.set('mixed.example.test', [PUBLIC, '127.0.0.1']);
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('classifies addresses with ipaddr.js: only public unicast passes', () => {
    const refused = [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1', '192.0.2.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1', '2002:7f00:1::', 'ff02::1',
    ];
    for (const address of refused) expect(refusedAddressReason(address), address).not.toBeNull();
    for (const address of [PUBLIC, '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(refusedAddressReason(address), address).toBeNull();
    expect(refusedAddressReason('169.254.169.254')).toContain('linkLocal');
    expect(refusedAddressReason('100.64.0.1')).toContain('carrierGradeNat');
  });

  it('refuses inside targets when a hook is saved: literals, IPv6, mapped IPv6 and names resolving inside', async () => {
    const targets = [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook', // resolved by the injected resolver: unknown → refused, never the real one
      'http://2130706433/hook', // 127.0.0.1 written as one number (the URL parser makes it dotted)
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.1.1/',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://internal.example.test/hook',
      'http://metadata.example.test/hook',
      'http://v6-internal.example.test/hook',
      'http://mapped.example.test/hook',
      'http://mixed.example.test/hook',
      'http://nowhere.example.test/hook',
    ];
    for (const url of targets) {
      const res = await put(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().message, url).toMatch(/not allowed|could not be resolved/);
    }
    const ok = await put('https://public.example.test/hook');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('checks again when connecting: a name that resolves inside after the save reaches nothing', async () => {
    dns.set('rebind.example.test', [PUBLIC]);
    const created = await put(`http://rebind.example.test:${receiver.port}/hook`);
    expect(created.statusCode, created.body).toBe(200);
    const hook: Hook = created.json().data;
    // DNS now answers loopback, where the receiver listens.
    dns.set('rebind.example.test', ['127.0.0.1']);
    const test = await api(server.app, 'POST', `/api/${teamId}/hooks/${hook.id}/test`, { token: alice.token });
    expect(test.statusCode).toBe(422);
    expect(test.json().message).toContain('not allowed');

    // The same for event deliveries: the attempt is logged as refused, the receiver hears nothing.
    const b = board({ name: 'B' });
    expect((await api(server.app, 'PUT', `/api/${teamId}/folders/${b.id}`, { token: alice.token, body: b })).statusCode).toBe(200);
    const it = item(b.id, { name: 'x' });
    expect((await api(server.app, 'PUT', `/api/${teamId}/items/${it.id}`, { token: alice.token, body: it })).statusCode).toBe(200);
    await server.ctx.jobs.drain();
    const logs = (await api(server.app, 'GET', `/api/${teamId}/hooks/${hook.id}/logs`, { token: alice.token })).json().data as { event: string; status: string; error: string; response_status: number | null }[];
    const delivery = logs.find((l) => l.event === 'item.created')!;
    expect(delivery).toMatchObject({ status: 'retrying', response_status: null });
    expect(delivery.error).toContain('not allowed');
    expect(receiver.received).toEqual([]);
  });

  it('refuses at connect time for a one-off send and for bare-URL deliveries too', async () => {
    const body = { id: newId(), event: 'automation.run', team_id: teamId, board_id: null, data: {}, created_at: new Date().toISOString() };
    const literal = await deliverToUrl({ url: `http://127.0.0.1:${receiver.port}/x` }, body, { allowPrivate: false, resolve });
    expect(literal).toMatchObject({ ok: false, status: null });
    expect(literal.error).toContain('not allowed');
    const v6 = await deliverToUrl({ url: `http://[::ffff:127.0.0.1]:${receiver.port}/x` }, body, { allowPrivate: false, resolve });
    expect(v6.error).toContain('not allowed');
    await expect(enqueueUrlDelivery(server.ctx, { url: 'http://internal.example.test/x', event: 'automation.run', teamId, boardId: null, data: {}, key: newId() })).rejects.toThrow(/not allowed/);
    await expect(enqueueUrlDelivery(server.ctx, { url: 'gopher://x', event: 'automation.run', teamId, boardId: null, data: {}, key: newId() })).rejects.toThrow('not a valid URL format');
    expect(receiver.received).toEqual([]);
  });
});
