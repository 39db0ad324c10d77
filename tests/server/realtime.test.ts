import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import Pusher from 'pusher-js';
import PusherServer from 'pusher';
import { createTestServer, TEST_REALTIME_SECRET, type TestServer } from '../helpers/test-server';
import { signSubscription } from '../../server/realtime/signature';
import { PusherBroadcaster, embeddedServerOf } from '../../server/realtime/broadcaster';
import type { RealtimeTuning } from '../../server/realtime/broadcaster';

/**
 * The embedded Pusher-protocol server, driven by the real pusher-js client (and raw WebSockets
 * where a misbehaving client is needed) over a real port, and by the real `pusher` SDK.
 */

const KEY = 'cairn-key';
const SECRET = TEST_REALTIME_SECRET;

type Frame = { event: string; channel?: string; data?: any; user_id?: string };

/** A raw protocol client that records every frame and the close code. */
class RawClient {
  /** Every frame received, in order. */
  readonly frames: Frame[] = [];
  /** Frames not yet taken by next(). */
  private pending: Frame[] = [];
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (typeof frame.data === 'string') {
        try {
          frame.data = JSON.parse(frame.data);
        } catch {}
      }
      this.frames.push(frame);
      this.pending.push(frame);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  static async open(url: string): Promise<RawClient> {
    const client = new RawClient(new WebSocket(url));
    await client.next((f) => f.event === 'pusher:connection_established' || f.event === 'pusher:error');
    return client;
  }
  get socketId(): string {
    return this.frames.find((f) => f.event === 'pusher:connection_established')!.data.socket_id;
  }
  send(frame: Frame | string) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
  async next(match: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      for (; seen < this.pending.length; seen++) if (match(this.pending[seen]!)) return this.pending.splice(seen, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a frame; got ' + JSON.stringify(this.frames));
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(t), resolve()));
      });
    }
  }
  async closed(timeoutMs = 3000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > deadline) throw new Error('connection not closed');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closeCode;
  }
}

async function serverWith(tuning: RealtimeTuning = {}) {
  const server = await createTestServer({ realtime: tuning });
  const base = await server.listen();
  const port = Number(new URL(base).port);
  return { server, base, port, wsUrl: `ws://127.0.0.1:${port}/app/${KEY}?protocol=7&client=js&version=8.6.0&flash=false` };
}

function pusherClient(port: number, extra: Partial<ConstructorParameters<typeof Pusher>[1]> = {}) {
  return new Pusher(KEY, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        if (channelName.startsWith('presence-')) {
          const channelData = JSON.stringify({ user_id: 'u-' + socketId, user_info: { name: 'Ann ' + socketId } });
          callback(null, { auth: signSubscription(KEY, SECRET, socketId, channelName, channelData), channel_data: channelData });
        } else callback(null, { auth: signSubscription(KEY, SECRET, socketId, channelName) });
      },
    },
    ...extra,
  });
}

const clients: Array<{ disconnect(): void }> = [];
function track<T extends { disconnect(): void }>(client: T): T {
  clients.push(client);
  return client;
}
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

function connected(client: Pusher): Promise<string> {
  return new Promise((resolve, reject) => {
    if (client.connection.state === 'connected') return resolve(client.connection.socket_id);
    client.connection.bind('connected', () => resolve(client.connection.socket_id));
    client.connection.bind('failed', () => reject(new Error('failed')));
  });
}

function subscribed(client: Pusher, name: string): Promise<any> {
  const channel = client.subscribe(name);
  return new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve);
    channel.bind('pusher:subscription_error', (e: unknown) => reject(Object.assign(new Error('subscription_error'), { detail: e })));
  });
}

function nextEvent(client: Pusher, channel: string, event: string, timeoutMs = 3000): Promise<any> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${event} on ${channel}`)), timeoutMs);
    client.channel(channel).bind(event, (data: unknown, meta: unknown) => {
      clearTimeout(t);
      resolve({ data, meta });
    });
  });
}

describe('embedded realtime server with pusher-js', () => {
  let env: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    env = await serverWith();
  });
  afterAll(() => env.server.close());

  it('connects and hands out a socket id and the activity timeout', async () => {
    const raw = await RawClient.open(env.wsUrl);
    track({ disconnect: () => raw.ws.close() });
    const established = raw.frames[0]!;
    expect(established.event).toBe('pusher:connection_established');
    expect(established.data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(established.data.activity_timeout).toBe(120);

    const client = track(pusherClient(env.port));
    expect(await connected(client)).toMatch(/^\d+\.\d+$/);
  });

  it('subscribes to public and correctly signed private channels', async () => {
    const client = track(pusherClient(env.port));
    await connected(client);
    await subscribed(client, 'news');
    await subscribed(client, 'private-team.1.users');
    expect(embeddedServerOf(env.server.ctx.broadcaster)!.registry.subscribers('private-team.1.users')?.size).toBe(1);
  });

  it('refuses a private subscription with a bad signature, with a status', async () => {
    const client = track(
      pusherClient(env.port, {
        channelAuthorization: { customHandler: ({ socketId }, cb) => cb(null, { auth: signSubscription(KEY, 'wrong-secret', socketId, 'private-team.1.users') }) },
      }),
    );
    await connected(client);
    const error = await subscribed(client, 'private-team.1.users').then(
      () => null,
      (e) => e.detail,
    );
    expect(error).toMatchObject({ type: 'AuthError', status: 401 });
    expect(embeddedServerOf(env.server.ctx.broadcaster)!.registry.subscribers('private-team.1.users')).toBeUndefined();
  });

  it('refuses a private subscription signed for another socket', async () => {
    const raw = await RawClient.open(env.wsUrl);
    track({ disconnect: () => raw.ws.close() });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'private-x', auth: signSubscription(KEY, SECRET, '1.2', 'private-x') } });
    const error = await raw.next((f) => f.event === 'pusher:subscription_error');
    expect(error).toMatchObject({ channel: 'private-x', data: { type: 'AuthError', status: 401 } });
  });

  it('tracks presence members: subscription data, member_added and member_removed', async () => {
    const a = track(pusherClient(env.port));
    const aId = await connected(a);
    const first = await subscribed(a, 'presence-team.1.board.b1');
    expect(first.count).toBe(1);
    expect(first.me.id).toBe('u-' + aId);

    const added = nextEvent(a, 'presence-team.1.board.b1', 'pusher:member_added');
    const b = pusherClient(env.port);
    const bId = await connected(b);
    const second = await subscribed(b, 'presence-team.1.board.b1');
    expect(second.count).toBe(2);
    expect((await added).data).toMatchObject({ id: 'u-' + bId, info: { name: 'Ann ' + bId } });

    const removed = nextEvent(a, 'presence-team.1.board.b1', 'pusher:member_removed');
    b.disconnect();
    expect((await removed).data.id).toBe('u-' + bId);
  });

  it('refuses presence channel data that was not signed', async () => {
    const raw = await RawClient.open(env.wsUrl);
    track({ disconnect: () => raw.ws.close() });
    const signed = JSON.stringify({ user_id: '1' });
    const forged = JSON.stringify({ user_id: '2' });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'presence-p', auth: signSubscription(KEY, SECRET, raw.socketId, 'presence-p', signed), channel_data: forged } });
    expect((await raw.next((f) => f.event === 'pusher:subscription_error')).data.status).toBe(401);
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const raw = await RawClient.open(env.wsUrl);
    track({ disconnect: () => raw.ws.close() });
    raw.send({ event: 'pusher:ping', data: {} });
    expect((await raw.next((f) => f.event === 'pusher:pong')).event).toBe('pusher:pong');
  });

  it('delivers events published in-process, excluding the writer socket', async () => {
    // A channel without records: record channels are judged per reader (realtime-scope.test.ts).
    const channel = 'private-team.1.users';
    const writer = track(pusherClient(env.port));
    const reader = track(pusherClient(env.port));
    const writerId = await connected(writer);
    await connected(reader);
    await subscribed(writer, channel);
    await subscribed(reader, channel);
    const writerGot: unknown[] = [];
    writer.channel(channel).bind('member.saved', (d: unknown) => writerGot.push(d));
    const arrived = nextEvent(reader, channel, 'member.saved');
    await env.server.ctx.broadcaster.publish(channel, 'member.saved', { team_id: 1, member: { id: 5 } }, { excludeSocketId: writerId });
    expect((await arrived).data).toEqual({ team_id: 1, member: { id: 5 } });
    // A later event reaches the writer too, so the first one was excluded, not just slow.
    const later = nextEvent(writer, channel, 'team.saved');
    await env.server.ctx.broadcaster.publish(channel, 'team.saved', { team: { id: 1 } });
    await later;
    expect(writerGot).toEqual([]);
  });

  it('relays client events on private channels to the other subscribers only', async () => {
    const a = track(pusherClient(env.port));
    const b = track(pusherClient(env.port));
    await connected(a);
    await connected(b);
    await subscribed(a, 'private-chat');
    await subscribed(b, 'private-chat');
    const echoed: unknown[] = [];
    a.channel('private-chat').bind('client-typing', (d: unknown) => echoed.push(d));
    const got = nextEvent(b, 'private-chat', 'client-typing');
    expect(a.channel('private-chat').trigger('client-typing', { who: 'a' })).toBe(true);
    expect((await got).data).toEqual({ who: 'a' });
    expect(echoed).toEqual([]);
  });

  it('refuses client events on public channels and on channels not subscribed', async () => {
    const raw = await RawClient.open(env.wsUrl);
    track({ disconnect: () => raw.ws.close() });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await raw.next((f) => f.event === 'pusher_internal:subscription_succeeded');
    raw.send({ event: 'client-x', channel: 'news', data: {} });
    expect((await raw.next((f) => f.event === 'pusher:error')).data).toMatchObject({ code: 4301, message: expect.stringContaining('private and presence') });
    raw.send({ event: 'client-x', channel: 'private-elsewhere', data: {} });
    expect((await raw.next((f) => f.event === 'pusher:error')).data.message).toContain('not subscribed');
  });

  it('refuses a wrong app key (4001) and a missing protocol version (4008)', async () => {
    const wrong = await RawClient.open(`ws://127.0.0.1:${env.port}/app/nope?protocol=7`);
    expect((wrong.frames[0]!).data.code).toBe(4001);
    expect(await wrong.closed()).toBe(4001);
    const noVersion = await RawClient.open(`ws://127.0.0.1:${env.port}/app/${KEY}`);
    expect(await noVersion.closed()).toBe(4008);
    const old = await RawClient.open(`ws://127.0.0.1:${env.port}/app/${KEY}?protocol=3`);
    expect(await old.closed()).toBe(4007);
  });
});

describe('HTTP publish API through the pusher SDK', () => {
  let env: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    env = await serverWith();
  });
  afterAll(() => env.server.close());

  const sdk = (secret = SECRET) => new PusherServer({ appId: 'cairn', key: KEY, secret, host: '127.0.0.1', port: String(env.port), useTLS: false });

  it('delivers an SDK trigger and batch, excluding socket_id', async () => {
    const reader = track(pusherClient(env.port));
    const writer = track(pusherClient(env.port));
    await connected(reader);
    const writerId = await connected(writer);
    await subscribed(reader, 'private-team.7.users');
    await subscribed(writer, 'private-team.7.users');
    const writerGot: unknown[] = [];
    writer.channel('private-team.7.users').bind('member.saved', (d: unknown) => writerGot.push(d));

    const got = nextEvent(reader, 'private-team.7.users', 'member.saved');
    const response = await sdk().trigger('private-team.7.users', 'member.saved', { id: 5 }, { socket_id: writerId });
    expect(response.status).toBe(200);
    expect((await got).data).toEqual({ id: 5 });

    const batched = nextEvent(writer, 'private-team.7.users', 'member.deleted');
    await sdk().triggerBatch([{ channel: 'private-team.7.users', name: 'member.deleted', data: { id: 6 } }]);
    expect((await batched).data).toEqual({ id: 6 });
    expect(writerGot).toEqual([]);
  });

  it('publishes through the PusherBroadcaster (external mode) with exclusion', async () => {
    const reader = track(pusherClient(env.port));
    await connected(reader);
    await subscribed(reader, 'private-App.User.3');
    const got = nextEvent(reader, 'private-App.User.3', 'notification.saved');
    const broadcaster = new PusherBroadcaster({ appId: 'cairn', key: KEY, secret: SECRET, host: '127.0.0.1', port: env.port, useTLS: false });
    await broadcaster.publish('private-App.User.3', 'notification.saved', { id: 1 }, { excludeSocketId: 'not-a-socket-id' });
    expect((await got).data).toEqual({ id: 1 });
  });

  it('refuses a request signed with the wrong secret, in the error shape', async () => {
    const error = await sdk('bad-secret')
      .trigger('news', 'x', {})
      .then(
        () => null,
        (e: { status: number; body: string }) => e,
      );
    expect(error?.status).toBe(401);
    expect(JSON.parse(error!.body)).toEqual({ message: 'Unauthorized publish request: invalid auth_signature.', type: 'unauthenticated' });
  });

  it('refuses unsigned, stale and tampered requests', async () => {
    const unsigned = await fetch(`${env.base}/apps/cairn/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', channels: ['a'], data: '{}' }) });
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).message).toContain('auth_key is missing');

    // The SDK's own signing of one body, sent with another: body_md5 no longer matches.
    const { createSignedQueryString } = (await import('pusher/lib/requests.js' as string)) as { createSignedQueryString: Function };
    const Token = ((await import('pusher/lib/token.js' as string)) as { default: new (k: string, s: string) => unknown }).default;
    const signed = createSignedQueryString(new Token(KEY, SECRET), { method: 'POST', path: '/apps/cairn/events', body: '{"name":"x","channels":["a"],"data":"{}"}' });
    const tampered = await fetch(`${env.base}/apps/cairn/events?${signed}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"y","channels":["a"],"data":"{}"}' });
    expect(tampered.status).toBe(401);
    expect((await tampered.json()).message).toContain('body_md5');

    const server = embeddedServerOf(env.server.ctx.broadcaster)!;
    const realNow = server.options.now;
    server.options.now = () => realNow() + 3_600_000;
    try {
      const stale = await sdk().trigger('news', 'x', {}).then(() => null, (e: { status: number; body: string }) => e);
      expect(stale?.status).toBe(401);
      expect(stale?.body).toContain('auth_timestamp');
    } finally {
      server.options.now = realNow;
    }
  });

  it('answers bad bodies with 422 and oversized data with 413', async () => {
    const server = embeddedServerOf(env.server.ctx.broadcaster)!;
    const big = 'x'.repeat(server.options.maxPublishBytes + 1);
    const tooLarge = await sdk().trigger('news', 'x', big).then(() => null, (e: { status: number; body: string }) => e);
    expect(tooLarge?.status).toBe(413);
    expect(JSON.parse(tooLarge!.body).type).toBe('too_large');
    const invalid = await sdk().triggerBatch([{ channel: 'news', name: '', data: '{}' }]).then(() => null, (e: { status: number; body: string }) => e);
    expect(invalid?.status).toBe(422);
  });

  it('tells through the SDK how many connections a channel has, signed requests only', async () => {
    const info = async (name: string) => (await (await sdk().get({ path: `/channels/${name}`, params: { info: 'subscription_count' } })).json()) as { occupied: boolean; subscription_count?: number };
    expect(await info('private-team.8.users')).toEqual({ occupied: false, subscription_count: 0 });
    const one = track(pusherClient(env.port));
    const two = track(pusherClient(env.port));
    await Promise.all([connected(one), connected(two)]);
    await subscribed(one, 'private-team.8.users');
    expect(await info('private-team.8.users')).toEqual({ occupied: true, subscription_count: 1 });
    await subscribed(two, 'private-team.8.users');
    expect(await info('private-team.8.users')).toEqual({ occupied: true, subscription_count: 2 });
    // Without info=subscription_count only whether it is occupied, as Pusher answers.
    expect(await (await sdk().get({ path: '/channels/private-team.8.users' })).json()).toEqual({ occupied: true });
    const wrong = await sdk('bad-secret').get({ path: '/channels/private-team.8.users' }).then(() => null, (e: { status: number }) => e);
    expect(wrong?.status).toBe(401);
    const unsigned = await fetch(`${env.base}/apps/cairn/channels/private-team.8.users`);
    expect(unsigned.status).toBe(401);
  });
});

describe('timeouts and limits', () => {
  it('pings a silent client and drops it when no pong comes (4201)', async () => {
    const env = await serverWith({ activityTimeoutSec: 0.3, pongTimeoutMs: 300 });
    try {
      const raw = await RawClient.open(env.wsUrl);
      expect(raw.frames[0]!.data.activity_timeout).toBe(0.3);
      const started = Date.now();
      await raw.next((f) => f.event === 'pusher:ping');
      expect(await raw.closed()).toBe(4201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      await env.server.close();
    }
  });

  it('keeps a client that answers pings, and pusher-js pings and gets pongs', async () => {
    const env = await serverWith({ activityTimeoutSec: 0.3, pongTimeoutMs: 300 });
    try {
      const raw = await RawClient.open(env.wsUrl);
      // This client answers every ping, as a live one does.
      raw.ws.on('message', (m) => JSON.parse(m.toString()).event === 'pusher:ping' && raw.send({ event: 'pusher:pong', data: {} }));
      await raw.next((f) => f.event === 'pusher:ping');
      const client = pusherClient(env.port);
      await connected(client);
      const pong = new Promise<void>((resolve) => client.connection.bind('message', (m: { event: string }) => m.event === 'pusher:pong' && resolve()));
      await pong; // pusher-js sent pusher:ping after the 0.3 s activity timeout
      await new Promise((r) => setTimeout(r, 1000));
      expect(raw.frames.filter((f) => f.event === 'pusher:ping').length).toBeGreaterThan(1);
      expect(raw.closeCode).toBeNull();
      raw.ws.close();
      client.disconnect();
    } finally {
      await env.server.close();
    }
  });

  it('limits connections per address (4100), message size (4300) and subscriptions (429)', async () => {
    const env = await serverWith({ maxConnectionsPerIp: 2, maxMessageBytes: 512, maxSubscriptionsPerConnection: 2 });
    try {
      const a = await RawClient.open(env.wsUrl);
      const b = await RawClient.open(env.wsUrl);
      const c = await RawClient.open(env.wsUrl);
      expect(c.frames[0]).toMatchObject({ event: 'pusher:error', data: { code: 4100 } });
      expect(await c.closed()).toBe(4100);

      a.send({ event: 'client-big', channel: 'private-x', data: 'x'.repeat(600) });
      expect((await a.next((f) => f.event === 'pusher:error')).data).toMatchObject({ code: 4300, message: expect.stringContaining('512 bytes') });

      for (const channel of ['one', 'two']) {
        b.send({ event: 'pusher:subscribe', data: { channel } });
        await b.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === channel);
      }
      b.send({ event: 'pusher:subscribe', data: { channel: 'three' } });
      expect(await b.next((f) => f.event === 'pusher:subscription_error')).toMatchObject({ channel: 'three', data: { type: 'LimitReached', status: 429 } });

      // A closed connection frees its slot.
      a.ws.close();
      await a.closed();
      await new Promise((r) => setTimeout(r, 50));
      const d = await RawClient.open(env.wsUrl);
      expect(d.frames[0]!.event).toBe('pusher:connection_established');
      b.ws.close();
      d.ws.close();
    } finally {
      await env.server.close();
    }
  });

  it('closes open connections with 4200 when the app closes', async () => {
    const env = await serverWith();
    const raw = await RawClient.open(env.wsUrl);
    await env.server.close();
    expect([4200, 1006]).toContain(await raw.closed());
  });
});
