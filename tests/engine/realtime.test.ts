import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { ManualClock } from '../../sync-worker/clock';
import { AuthBatcher, createRealtime, socketAddress, RealtimeUnauthorizedError, type ConnectionSignal, type PusherConstructor, type Realtime, type RealtimeEvent, type RealtimeOptions } from '../../sync-worker/realtime';
import { AUTH_BATCH_MS } from '../../schema/constants';
import { embeddedServerOf, type RealtimeTuning } from '../../server/realtime/broadcaster';
import type { AppContext } from '../../server/context';
import { waitFor } from '../helpers/wait';

/**
 * The worker's realtime client (pusher-js, Node build) against the real server on a real port:
 * batched multi-auth, typed events, the Unauthorized error, connection signals, socket exclusion.
 * The only thing between client and server is a pass-through fetch that counts multi-auth calls.
 */

type User = Awaited<ReturnType<typeof createUserWithToken>>;

async function createTeam(ctx: AppContext, ownerId: number) {
  const row = await ctx.db
    .insertInto('teams')
    .values({ name: 'Team', owner_id: ownerId, permissions: JSON.stringify({}), use_custom_logo: false, row_version: 1, created_at: ctx.now(), updated_at: ctx.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function createBoard(ctx: AppContext, teamId: number, id: string, createdBy: number) {
  const data = { id, team_id: teamId, board_id: id, parent_id: null, name: 'Board ' + id, row_version: 1, created_at: ctx.now().toISOString() };
  await ctx.db
    .insertInto('records')
    .values({ collection: 'folder', id, team_id: teamId, board_id: id, row_version: 1, data: JSON.stringify(data), created_by: createdBy, created_at: ctx.now(), updated_at: ctx.now() })
    .execute();
}

interface Probe {
  realtime: Realtime;
  events: RealtimeEvent[];
  signals: ConnectionSignal[];
  errors: Error[];
  multiAuthCalls: { socketId: string; channelNames: string[] }[];
  clock: ManualClock | null;
}


describe('worker realtime client', () => {
  let server: TestServer;
  let base: string;
  let port: number;
  let owner: User;
  let other: User;
  let teamId: number;
  let otherTeamId: number;
  const probes: Probe[] = [];

  async function setup(tuning: RealtimeTuning = {}) {
    server = await createTestServer({ realtime: tuning });
    base = await server.listen();
    port = Number(new URL(base).port);
    owner = await createUserWithToken(server.ctx, { name: 'Owner' });
    other = await createUserWithToken(server.ctx, { name: 'Other' });
    teamId = await createTeam(server.ctx, owner.user.id);
    otherTeamId = await createTeam(server.ctx, other.user.id);
    await createBoard(server.ctx, teamId, 'boardA', owner.user.id);
    await createBoard(server.ctx, otherTeamId, 'boardX', other.user.id);
  }

  function probe(token: string | null, opts: Partial<RealtimeOptions> & { manualClock?: boolean } = {}): Probe {
    const clock = opts.manualClock ? new ManualClock(Date.now()) : null;
    const p: Probe = { realtime: null as never, events: [], signals: [], errors: [], multiAuthCalls: [], clock };
    p.realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port, useTLS: false } },
      apiBase: base,
      getToken: () => token,
      fetch: async (input, init) => {
        if (String(input).endsWith('/api/broadcasting/multi-auth')) p.multiAuthCalls.push(JSON.parse(String(init.body)));
        return fetch(input, init);
      },
      onEvent: (e) => p.events.push(e),
      onConnectionChange: (s) => p.signals.push(s),
      onError: (e) => p.errors.push(e),
      Pusher: Pusher as unknown as PusherConstructor,
      ...(clock ? { clock } : {}),
      ...opts,
    });
    probes.push(p);
    return p;
  }

  afterEach(() => {
    for (const p of probes.splice(0)) p.realtime.stop();
  });

  describe('on a default server', () => {
    beforeAll(() => setup());
    afterAll(() => server.close());

    it('batches every subscription asked within 2 s into one multi-auth call', async () => {
      const p = probe(owner.token, { manualClock: true });
      await waitFor(() => p.signals.includes('connected'), 5000, 'connected');
      const done = Promise.all([p.realtime.subscribeTeam(teamId), p.realtime.subscribeUser(owner.user.id), p.realtime.subscribeBoard(teamId, 'boardA')]);
      await new Promise((r) => setTimeout(r, 50));
      await p.clock!.advanceAsync(AUTH_BATCH_MS - 1);
      expect(p.multiAuthCalls).toHaveLength(0);
      await p.clock!.advanceAsync(1);
      await done;
      expect(p.multiAuthCalls).toHaveLength(1);
      expect(p.multiAuthCalls[0]!.socketId).toBe(p.realtime.socketId());
      expect(p.multiAuthCalls[0]!.channelNames.sort()).toEqual(
        [`private-team.${teamId}.users`, `private-team.${teamId}.permissions`, `private-App.User.${owner.user.id}`, `private-team.${teamId}.board.boardA`, `private-user.${teamId}.boardA.timeTracking`].sort(),
      );
      expect(p.errors).toEqual([]);
    });

    it('raises the Unauthorized error for a refused channel, and still subscribes the rest', async () => {
      const p = probe(owner.token, { authBatchMs: 20 });
      await waitFor(() => p.signals.includes('connected'));
      const refused = p.realtime.subscribeBoard(otherTeamId, 'boardX').then(
        () => null,
        (e: unknown) => e,
      );
      const allowed = p.realtime.subscribeTeam(teamId);
      const error = await refused;
      expect(error).toBeInstanceOf(RealtimeUnauthorizedError);
      expect(error).toMatchObject({ status: 403, message: 'This action is unauthorized.', name: 'Unauthorized' });
      await allowed;
      expect(p.errors.map((e) => (e as RealtimeUnauthorizedError).channel).sort()).toEqual([`private-team.${otherTeamId}.board.boardX`, `private-user.${otherTeamId}.boardX.timeTracking`]);
      expect(p.multiAuthCalls).toHaveLength(1);
    });

    it('treats a channel missing from the multi-auth answer as Unauthorized', async () => {
      const dropped = `private-team.${teamId}.permissions`;
      // The real answer, with one entry taken out on the way (as a truncating proxy would).
      const p = probe(owner.token, {
        authBatchMs: 10,
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const body = await res.json();
          delete body[dropped];
          return new Response(JSON.stringify(body), { status: res.status, headers: { 'content-type': 'application/json' } });
        },
      });
      await waitFor(() => p.signals.includes('connected'));
      const error = await p.realtime.subscribeTeam(teamId).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RealtimeUnauthorizedError);
      expect(error).toMatchObject({ channel: dropped, status: undefined });
      expect(p.realtime.channels()).toContain(`private-team.${teamId}.users`);
    });

    it('refuses a guest every channel without asking the server', async () => {
      const p = probe(null, { authBatchMs: 10 });
      await waitFor(() => p.signals.includes('connected'));
      await expect(p.realtime.subscribeUser(owner.user.id)).rejects.toBeInstanceOf(RealtimeUnauthorizedError);
      expect(p.multiAuthCalls).toHaveLength(0);
    });

    it('hands board, user and team events to the engine, and skips the writer socket', async () => {
      const writer = probe(owner.token, { authBatchMs: 10 });
      const reader = probe(owner.token, { authBatchMs: 10 });
      await waitFor(() => writer.signals.includes('connected') && reader.signals.includes('connected'));
      await Promise.all([writer.realtime.subscribeBoard(teamId, 'boardA'), reader.realtime.subscribeBoard(teamId, 'boardA'), reader.realtime.subscribeUser(owner.user.id), reader.realtime.subscribeTeam(teamId)]);
      const b = server.ctx.broadcaster;
      // Record events reach readers the read rule lets read them (decision 0090): real records of boardA.
      await b.publish(`private-team.${teamId}.board.boardA`, 'saved', { collection: 'item', data: { id: 'i1', board_id: 'boardA', folder_id: 'boardA', row_version: 2 } }, { excludeSocketId: writer.realtime.socketId()! });
      await b.publish(`private-App.User.${owner.user.id}`, 'notification.saved', { id: 9 });
      await b.publish(`private-team.${teamId}.users`, 'member.saved', { user_id: 4 });
      const entry = { id: 't1', board_id: 'boardA', item_id: null, attribute_id: null };
      await b.publish(`private-user.${teamId}.boardA.timeTracking`, 'TimeEntrySaved', { collection: 'time_entry', data: entry });
      // The server's own AppVersion on the user channel (S4.11) comes first; the published events follow.
      const published = () => reader.events.filter((e) => e.event !== 'AppVersion');
      await waitFor(() => published().length === 4, 3000, 'four events');
      expect(reader.events.filter((e) => e.event === 'AppVersion')).toEqual([{ scope: 'user', userId: owner.user.id, event: 'AppVersion', data: { version: server.ctx.config.appVersion } }]);
      expect(published()).toEqual([
        { scope: 'board', teamId, boardId: 'boardA', event: 'saved', collection: 'item', data: { id: 'i1', board_id: 'boardA', folder_id: 'boardA', row_version: 2 } },
        { scope: 'user', userId: owner.user.id, event: 'notification.saved', data: { id: 9 } },
        { scope: 'team.users', teamId, event: 'member.saved', data: { user_id: 4 } },
        { scope: 'timeTracking', teamId, boardId: 'boardA', event: 'TimeEntrySaved', data: { collection: 'time_entry', data: entry } },
      ]);
      // The writer got the time-tracking event (not excluded) but not its own save.
      await waitFor(() => writer.events.length === 1);
      expect(writer.events[0]!.event).toBe('TimeEntrySaved');
    });

    it('reports a drop and a reconnect, then resubscribes with a new socket id', async () => {
      const p = probe(owner.token, { authBatchMs: 10 });
      await waitFor(() => p.signals.includes('connected'));
      await p.realtime.subscribeBoard(teamId, 'boardA');
      const firstSocket = p.realtime.socketId();
      // The server side cuts this one connection (as a restart or a network blip would).
      const embedded = embeddedServerOf(server.ctx.broadcaster)!;
      const subs = embedded.registry.subscribers(`private-team.${teamId}.board.boardA`)!;
      [...subs].find((c) => c.socketId === firstSocket)!.ws.terminate();
      await waitFor(() => p.signals.includes('dropped'), 5000, 'dropped');
      await waitFor(() => p.signals.includes('reconnected'), 10000, 'reconnected');
      expect(p.realtime.socketId()).not.toBe(firstSocket);
      await waitFor(() => p.multiAuthCalls.length === 2, 5000, 'second multi-auth');
      expect(p.multiAuthCalls[1]!.socketId).toBe(p.realtime.socketId());
      await waitFor(() => [...(embedded.registry.subscribers(`private-team.${teamId}.board.boardA`) ?? [])].some((c) => c.socketId === p.realtime.socketId()), 3000, 'resubscribed');
    });
  });

  describe('with a short activity timeout', () => {
    beforeAll(() => setup({ activityTimeoutSec: 0.3, pongTimeoutMs: 2000 }));
    afterAll(() => server.close());

    it('turns pings and pongs into liveness signals', async () => {
      const p = probe(owner.token);
      await waitFor(() => p.signals.includes('connected'));
      await waitFor(() => p.signals.includes('pong'), 3000, 'pong');
      expect(p.signals[0]).toBe('connected');
      expect(p.signals).not.toContain('dropped');
    });
  });
});

describe('AuthBatcher', () => {
  it('drops requests made for a socket that has since been replaced, without a call', async () => {
    const clock = new ManualClock(Date.now());
    const calls: unknown[] = [];
    let current = '1.1';
    const batcher = new AuthBatcher({
      endpoint: 'http://127.0.0.1:9/api/broadcasting/multi-auth',
      fetch: async (input, init) => {
        calls.push(init.body);
        throw new TypeError('not reached');
      },
      getToken: () => 'token',
      clock,
      currentSocketId: () => current,
    });
    const answers: unknown[] = [];
    batcher.authorize({ socketId: '1.1', channelName: 'private-App.User.1' }, (error, auth) => answers.push(error ?? auth));
    current = '2.2';
    await clock.advanceAsync(AUTH_BATCH_MS);
    expect(calls).toEqual([]);
    expect(answers).toEqual([]);
  });
});

describe('socketAddress', () => {
  const vars = { key: 'k', host: '0.0.0.0', port: 8080, useTLS: false };
  it('reaches the embedded endpoint through the page origin (proxies, TLS termination)', () => {
    expect(socketAddress({ ...vars, embedded: true }, { hostname: 'cairn.example', port: '', protocol: 'https:' })).toEqual({ host: 'cairn.example', port: 443, tls: true });
    expect(socketAddress({ ...vars, embedded: true }, { hostname: 'localhost', port: '5173', protocol: 'http:' })).toEqual({ host: 'localhost', port: 5173, tls: false });
  });
  it('uses app-vars as given for an external service or without an origin', () => {
    expect(socketAddress({ ...vars, host: 'ws.example', port: 6001, useTLS: true, embedded: false }, { hostname: 'cairn.example', port: '', protocol: 'https:' })).toEqual({ host: 'ws.example', port: 6001, tls: true });
    expect(socketAddress({ ...vars, embedded: true }, undefined)).toEqual({ host: '0.0.0.0', port: 8080, tls: false });
  });
});
