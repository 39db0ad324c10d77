import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import Pusher from 'pusher-js';
import { createTestServer, TEST_REALTIME_SECRET, type TestServer } from '../helpers/test-server';
import { PusherBroadcaster } from '../../server/realtime/broadcaster';
import { signSubscription } from '../../server/realtime/signature';
import { waitFor } from '../helpers/wait';

/**
 * Publishing to an external realtime service (a Cairn hub; decision 0192): a write's answer does
 * not wait for the service, events go out in order, and the board pings of writes made while a
 * batch is on its way are merged into one.
 */
describe('realtime: the queue towards an external service', () => {
  let hub: TestServer;
  let port: number;
  const KEY = 'cairn-key';
  const board = 'private-team.1.board.queued';
  const pusher = (p: number) => ({ appId: 'cairn', key: KEY, secret: TEST_REALTIME_SECRET, host: '127.0.0.1', port: p, useTLS: false });

  beforeAll(async () => {
    hub = await createTestServer({ realtime: true });
    port = Number(new URL(await hub.listen()).port);
  });
  afterAll(() => hub?.close());

  it('merges the pings of many writes to one board and keeps the order of other events', async () => {
    const client = new Pusher(KEY, {
      cluster: 'local',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: { customHandler: ({ socketId, channelName }, cb) => cb(null, { auth: signSubscription(KEY, TEST_REALTIME_SECRET, socketId, channelName) }) },
    });
    try {
      const got: string[] = [];
      const channel = client.subscribe(board);
      await new Promise((resolve) => channel.bind('pusher:subscription_succeeded', resolve));
      channel.bind('changed', () => got.push('changed'));
      channel.bind('refresh', () => got.push('refresh'));
      const external = new PusherBroadcaster(pusher(port));
      for (let n = 0; n < 50; n += 1) await external.publishMany([{ channel: board, event: 'saved', data: { collection: 'item', data: { id: `i${n}` } } }]);
      await external.publishMany([{ channel: board, event: 'refresh', data: { collection: 'folder', data: { id: 'f' } } }]);
      await external.idle();
      await waitFor(() => got.includes('refresh'), 5000, 'the refresh');
      // The first write's ping goes alone; the 49 made meanwhile ride in one.
      expect(got.filter((e) => e === 'changed').length).toBeGreaterThanOrEqual(1);
      expect(got.filter((e) => e === 'changed').length).toBeLessThanOrEqual(3);
      expect(got[got.length - 1]).toBe('refresh');
    } finally {
      client.disconnect();
    }
  });

  it('never makes a write wait for a service that does not answer', async () => {
    // A port that accepts connections and never answers: the SDK would wait its 10 s timeout.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const errors: unknown[] = [];
    const external = new PusherBroadcaster(pusher((silent.address() as net.AddressInfo).port), (error) => errors.push(error));
    try {
      for (let n = 0; n < 20; n += 1) await external.publishMany([{ channel: board, event: 'saved', data: { collection: 'item', data: { id: `s${n}` } } }]);
      // The service never answers, so a publish that waited for it would end only with the SDK's
      // timeout, reported as an error: all 20 writes went on while none had been reported, so
      // none waited for the service (a state, not a time budget: any speed of machine).
      expect(errors, 'a write waited for the silent service until its timeout').toEqual([]);
    } finally {
      silent.close();
    }
  });
});
