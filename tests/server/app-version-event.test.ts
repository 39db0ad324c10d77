import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { waitFor } from '../helpers/wait';
import { createRealtime, type PusherConstructor, type RealtimeEvent } from '../../sync-worker/realtime';
import { APP_VERSION_EVENT } from '../../schema/app-version-event';
import { createTeam } from './sync-fixtures';

/**
 * S4.11: the server announces its version by a push event. Each subscription to a user's channel
 * (so each connection and reconnection of the app) is followed by AppVersion {version}; other
 * channels get none.
 */
describe('the server pushes its version', () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
  });
  afterAll(() => server?.close());

  it('sends AppVersion on the user channel right after the subscription, and on no other channel', async () => {
    const user = await createUserWithToken(server.ctx, { name: 'Vera Version' });
    const teamId = await createTeam(server.ctx, user.user.id);
    const events: RealtimeEvent[] = [];
    const realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port: Number(new URL(url).port), useTLS: false } },
      apiBase: url,
      getToken: () => user.token,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => events.push(event),
      onError: () => {},
      onConnectionChange: () => {},
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 5,
      origin: null,
    });
    try {
      await realtime.subscribeTeam(teamId);
      await realtime.subscribeUser(user.user.id);
      await waitFor(() => events.some((e) => e.event === APP_VERSION_EVENT), 20_000, 'AppVersion event');
      const pushed = events.filter((e) => e.event === APP_VERSION_EVENT);
      expect(pushed).toHaveLength(1);
      expect(pushed[0]).toMatchObject({ scope: 'user', userId: user.user.id });
      const data = typeof pushed[0]!.data === 'string' ? JSON.parse(pushed[0]!.data) : pushed[0]!.data;
      expect(data).toEqual({ version: server.ctx.config.appVersion });
      expect(server.ctx.config.appVersion).toMatch(/\S/);
    } finally {
      realtime.stop();
    }
  });
});
