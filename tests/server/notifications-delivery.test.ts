import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { MAIL_WINDOW_MS } from '../../server/notifications/mail';
import { addMember, board, createTeam, item, newId, type SignedIn } from './sync-fixtures';

/**
 * Delivery beyond the app: the batched mail (at most one per user per window, with what happened
 * since, read ones left out, per-type choice respected) with a moved clock; and Web Push to a real
 * HTTP push service on loopback (allowed here by the web push feature's private setting of the
 * outbound client, WEB_PUSH_ALLOW_PRIVATE_TARGETS or PUSH_ALLOW_INSECURE_ENDPOINTS), whose requests
 * are VAPID-signed and aes128gcm-encrypted to the subscription's keys — the test decrypts them as
 * a browser would — and a subscription the push service forgot is removed.
 */

describe('notification delivery: mail and push', () => {
  let server: TestServer;
  let teamId: number;
  let alice: SignedIn;
  let bob: SignedIn;
  const b = board({ name: 'Launch' });
  const task = item(b.id, { name: 'Press release' });

  async function save(route: string, body: Record<string, unknown>, who: SignedIn) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
  }
  const mentionBob = (words: string) => save('comments', { id: newId(), board_id: b.id, item_id: task.id, text: { html: `<p><span data-mention="${bob.user.id}">@Bob</span> ${words}</p>` }, row_version: 1 }, alice);
  const mailsTo = async (who: SignedIn) => (await server.outbox()).filter((m) => m.to === who.user.email);
  /** Moves the clock to just after the start of the next mail window. */
  function toNextWindow() {
    const now = server.ctx.now().getTime();
    server.advance(MAIL_WINDOW_MS - (now % MAIL_WINDOW_MS) + 1000);
  }

  beforeAll(async () => {
    server = await createTestServer({ config: { publicUrl: 'https://cairn.example.com', outbound: { features: { webPush: { allowPrivate: true } } } } });
    // The tests move the clock window by window, 6 windows (an hour) in all: start them at the very
    // beginning of a window, so the minute the run happens to start at changes nothing.
    server.advance(MAIL_WINDOW_MS - (server.ctx.now().getTime() % MAIL_WINDOW_MS));
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    teamId = await createTeam(server.ctx, alice.user.id);
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    await save('folders', b, alice);
    await save('items', task, alice);
    await server.ctx.jobs.drain();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('batched mail', () => {
    it('sends one mail per window with everything unread since, and the next one a window later', async () => {
      toNextWindow();
      await mentionBob('first');
      await mentionBob('second');
      await mentionBob('read in the app before the mail');
      await server.ctx.jobs.drain();
      expect(await mailsTo(bob), 'nothing before the window ends').toEqual([]);
      const unread = (await api(server.app, 'GET', '/api/notifications', { token: bob.token })).json().data;
      await api(server.app, 'PUT', '/api/notifications/read', { token: bob.token, body: { notification_ids: [unread[0].id] } });

      server.advance(5 * 60_000);
      await server.ctx.jobs.drain();
      expect(await mailsTo(bob), 'still inside the window').toEqual([]);
      await mentionBob('third');
      toNextWindow();
      await server.ctx.jobs.drain();
      const mails = await mailsTo(bob);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('3 new notifications in Cairn');
      expect(mails[0]!.text).toContain('Alice mentioned you on Press release');
      for (const words of ['first', 'second', 'third']) expect(mails[0]!.text).toContain(`@Bob ${words}`);
      expect(mails[0]!.text).not.toContain('read in the app');
      expect(mails[0]!.text).toMatch(new RegExp(`https://cairn\\.example\\.com/b/${b.id}/${b.id}/${task.id}\\?t=comments&comment=[^&\\s]+&notification=\\d+`));
      expect(await mailsTo(alice), 'nobody is mailed their own action').toEqual([]);

      // Mailed ones are not mailed again; a new one goes out at the end of its own window.
      await mentionBob('fourth');
      await server.ctx.jobs.drain();
      expect(await mailsTo(bob)).toHaveLength(1);
      toNextWindow();
      await server.ctx.jobs.drain();
      const again = await mailsTo(bob);
      expect(again).toHaveLength(2);
      expect(again[1]!.subject).toBe('Alice mentioned you on Press release');
      expect(again[1]!.text).toContain('@Bob fourth');
      expect(again[1]!.text).not.toContain('@Bob first');
    });

    it('mails nothing of a type switched off for mail (it still shows in the app)', async () => {
      await api(server.app, 'PUT', '/api/me/notification-settings', { token: bob.token, body: { comment_mentioned: { email: false } } });
      const before = (await mailsTo(bob)).length;
      const count = (await api(server.app, 'GET', '/api/notifications/unread-count', { token: bob.token })).json().unread_count;
      await mentionBob('no mail please');
      toNextWindow();
      await server.ctx.jobs.drain();
      expect(await mailsTo(bob)).toHaveLength(before);
      expect((await api(server.app, 'GET', '/api/notifications/unread-count', { token: bob.token })).json().unread_count).toBe(count + 1);
      await api(server.app, 'PUT', '/api/me/notification-settings', { token: bob.token, body: { comment_mentioned: { email: true } } });
    });
  });

  describe('Web Push', () => {
    let push: http.Server;
    let base: string;
    const received: { path: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    /** A browser's push keys: an ECDH P-256 pair and an auth secret. */
    const browser = crypto.createECDH('prime256v1');
    browser.generateKeys();
    const authSecret = crypto.randomBytes(16);
    const subscription = (path: string) => JSON.stringify({ endpoint: `${base}${path}`, expirationTime: null, keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') } });

    beforeAll(async () => {
      push = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
          res.statusCode = req.url?.startsWith('/gone') ? 410 : 201;
          res.end();
        });
      });
      await new Promise<void>((resolve) => push.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(push.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => push.close(() => resolve())));

    /** RFC 8291 / 8188 decryption, as the browser does it. */
    function decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const serverKey = body.subarray(21, 21 + idLength);
      const cipher = body.subarray(21 + idLength);
      const shared = browser.computeSecret(serverKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.getPublicKey(), serverKey]);
      const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, authSecret, keyInfo, 32));
      const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(cipher.subarray(cipher.length - 16));
      const plain = Buffer.concat([decipher.update(cipher.subarray(0, cipher.length - 16)), decipher.final()]);
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end--;
      expect(plain[end], 'last-record padding delimiter').toBe(2);
      return plain.subarray(0, end).toString('utf8');
    }

    it('pushes an encrypted, VAPID-signed message to each device and forgets a device the push service no longer knows', async () => {
      for (const path of ['/send/ok', '/gone/old-device']) {
        const res = await api(server.app, 'POST', '/api/notifications/device-tokens', { token: bob.token, body: { token: subscription(path) } });
        expect(res.statusCode, res.body).toBe(204);
      }
      const publicKey = (await api(server.app, 'GET', '/api/notifications/vapid-public-key', { token: bob.token })).json().public_key;
      received.length = 0;
      await mentionBob('pushed');
      await server.ctx.jobs.drain();

      expect(received.map((r) => r.path).sort()).toEqual(['/gone/old-device', '/send/ok']);
      const ok = received.find((r) => r.path === '/send/ok')!;
      expect(ok.headers['content-encoding']).toBe('aes128gcm');
      expect(ok.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
      const message = JSON.parse(decrypt(ok.body));
      expect(message).toMatchObject({ title: 'Alice mentioned you on Press release', body: '@Bob pushed', notification: { notification_type: 'comment_mentioned', item_id: task.id } });
      expect(message.url).toBe(`/b/${b.id}/${b.id}/${task.id}?t=comments&comment=${message.notification.comment_id}&notification=${message.notification.id}`);
      expect(message.tag).toBe(`notification-${message.notification.id}`);

      const left = await server.ctx.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', bob.user.id).execute();
      expect(left.map((r) => r.endpoint)).toEqual([`${base}/send/ok`]);
    });

    it('pushes nothing of a type switched off for push, and nothing to the one who acted', async () => {
      await api(server.app, 'POST', '/api/notifications/device-tokens', { token: alice.token, body: { token: subscription('/send/alice') } });
      await api(server.app, 'PUT', '/api/me/notification-settings', { token: bob.token, body: { comment_mentioned: { push: false } } });
      received.length = 0;
      await mentionBob('not pushed');
      await server.ctx.jobs.drain();
      expect(received).toEqual([]);
    });
  });

  describe('in the recipient’s language', () => {
    it('a German user’s mail is German (subject, greeting, lines, plural), from users.locale', async () => {
      await server.ctx.db.updateTable('users').set({ locale: 'de-DE' }).where('id', '=', bob.user.id).execute();
      // Earlier tests left unread ones that were never mailed: read, they stay out of this mail.
      await api(server.app, 'PUT', '/api/notifications/read-all', { token: bob.token, body: {} });
      try {
        toNextWindow();
        const before = (await mailsTo(bob)).length;
        await mentionBob('eins');
        await server.ctx.jobs.drain();
        toNextWindow();
        await server.ctx.jobs.drain();
        const one = (await mailsTo(bob)).slice(before);
        expect(one).toHaveLength(1);
        expect(one[0]!.subject).toBe('Alice hat dich in Press release erwähnt');
        expect(one[0]!.text).toContain('Hallo Bob,');
        expect(one[0]!.text).toContain('Das ist seit unserer letzten Nachricht passiert:');
        expect(one[0]!.text).toContain('- Alice hat dich in Press release erwähnt');
        expect(one[0]!.text).toContain('Wähle, welche Benachrichtigungen du per E-Mail bekommst: https://cairn.example.com/profile/notifications');
        expect(one[0]!.text).not.toMatch(/Hello|mentioned you/);

        await mentionBob('zwei');
        await mentionBob('drei');
        await server.ctx.jobs.drain();
        toNextWindow();
        await server.ctx.jobs.drain();
        const two = (await mailsTo(bob)).slice(before + 1);
        expect(two.map((m) => m.subject)).toEqual(['2 neue Benachrichtigungen in Cairn']);
      } finally {
        await server.ctx.db.updateTable('users').set({ locale: 'en-US' }).where('id', '=', bob.user.id).execute();
      }
    });
  });

});
