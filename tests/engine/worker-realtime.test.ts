import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import Pusher from 'pusher-js';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { SyncRuntime } from '../../sync-worker/api';
import { systemClock } from '../../sync-worker/clock';
import { createRealtime, type PusherConstructor } from '../../sync-worker/realtime';
import { attachRealtime } from '../../sync-worker/worker-realtime';
import { waitFor } from '../helpers/wait';

/** The worker's realtime wiring: a save in one worker reaches another worker's records live. */


describe('attachRealtime', () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
  });
  afterAll(() => server.close());

  it('follows the open board: another worker’s save arrives without polling', async () => {
    const owner = await createUserWithToken(server.ctx);
    const member = await createUserWithToken(server.ctx);
    const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Live' } });
    const teamId = team.json().data.id as number;
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'admin', verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
    const boardId = nanoid();
    await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, { token: owner.token, body: { id: boardId, board_id: boardId, parent_id: null, name: 'B', row_version: 1 } });

    const runtime = () =>
      new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const a = runtime();
    const b = runtime();
    const detach = [a, b].map((r) =>
      // The test server was configured with port 0, so its app-vars cannot name the port it got.
      attachRealtime(r, (opts) =>
        createRealtime({ ...opts, appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } }, Pusher: Pusher as unknown as PusherConstructor, authBatchMs: 10, origin: null }),
      ),
    );
    await a.signIn(owner.tokens, owner.user.id);
    await b.signIn(member.tokens, member.user.id);
    await b.openBoard(teamId, boardId);
    await a.openBoard(teamId, boardId);
    // Give B's subscription a moment to be authorised.
    await new Promise((r) => setTimeout(r, 500));

    const id = nanoid();
    await a.save('item', { id, board_id: boardId, folder_id: boardId, name: 'live', row_version: 0 }, { teamId });
    await a.flush();
    const bDb = b.current()!.db;
    await waitFor(async () => !!(await bDb.relaxed.records.get(['item', id])), 8000, 'the save in B\'s replica');
    expect(await bDb.relaxed.records.get(['item', id])).toMatchObject({ name: 'live', row_version: 1 });
    for (const off of detach) off();
    await a.signOut();
    await b.signOut();
  });

  it('catches up once subscribed on a save made between the board’s load and its subscription', async () => {
    const owner = await createUserWithToken(server.ctx);
    const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Late' } });
    const teamId = team.json().data.id as number;
    const boardId = nanoid();
    await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, { token: owner.token, body: { id: boardId, board_id: boardId, parent_id: null, name: 'B', row_version: 1 } });

    const runtime = () =>
      new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const a = runtime();
    const b = runtime();
    // B's channel authorisation waits until A's save is on the server: its event reaches no one in B.
    let release!: () => void;
    const saved = new Promise<void>((resolve) => (release = resolve));
    let authAsked = false;
    const wire = (r: SyncRuntime, hold: boolean) =>
      attachRealtime(r, (opts) =>
        createRealtime({
          ...opts,
          appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } },
          Pusher: Pusher as unknown as PusherConstructor,
          authBatchMs: 10,
          origin: null,
          fetch: async (input, init) => {
            if (hold && String(input).includes('auth')) {
              authAsked = true;
              await saved;
            }
            return opts.fetch(input, init);
          },
        }),
      );
    const detach = [wire(a, false), wire(b, true)];
    await a.signIn(owner.tokens, owner.user.id);
    await b.signIn(owner.tokens, owner.user.id);
    await b.openBoard(teamId, boardId);
    await waitFor(async () => authAsked, 8000, 'B asking to join the board channel');
    const id = nanoid();
    await a.save('item', { id, board_id: boardId, folder_id: boardId, name: 'between', row_version: 0 }, { teamId });
    await a.flush();
    release();
    const bDb = b.current()!.db;
    await waitFor(async () => !!(await bDb.relaxed.records.get(['item', id])), 8000, 'the save made before B subscribed, in B\'s replica');
    expect(await bDb.relaxed.records.get(['item', id])).toMatchObject({ name: 'between' });
    for (const off of detach) off();
    await a.signOut();
    await b.signOut();
  });
  it('passes the workspace’s own events (team.{id}.users, team.{id}.permissions) to the tabs, for every workspace of the user', async () => {
    const owner = await createUserWithToken(server.ctx);
    const member = await createUserWithToken(server.ctx);
    const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Team events' } });
    const teamId = team.json().data.id as number;
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'full-member', verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
    const runtime = new SyncRuntime({ baseUrl: url, fetch: (i, init) => fetch(i, init), clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw', idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
    const seen: Array<{ teamId: number; channel: string; event: string }> = [];
    runtime.events.on((event, payload) => {
      if (event === 'team') seen.push({ teamId: (payload as { teamId: number }).teamId, channel: (payload as { channel: string }).channel, event: (payload as { event: string }).event });
    });
    const off = attachRealtime(runtime, (opts) =>
      createRealtime({ ...opts, appVars: { broadcasting: { ...opts.appVars.broadcasting, port: Number(new URL(url).port) } }, Pusher: Pusher as unknown as PusherConstructor, authBatchMs: 10, origin: null }),
    );
    // No board opened: the member follows the workspace's channels from sign-in on.
    await runtime.signIn(member.tokens, member.user.id);
    const rename = async (name: string) => api(server.app, 'PUT', `/api/teams/${teamId}`, { token: owner.token, body: { name } });
    let n = 0;
    await waitFor(async () => {
      await rename(`Team events ${n++}`);
      await new Promise((r) => setTimeout(r, 200));
      return seen.some((e) => e.teamId === teamId && e.channel === 'users' && e.event === 'team.saved');
    }, 10_000, 'team.saved reaching the worker');
    const permissions = await api(server.app, 'GET', `/api/${teamId}/permissions`, { token: owner.token });
    const record = permissions.json().data;
    const put = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: owner.token, body: { permissions: { ...(record.permissions ?? {}), 'CREATE_ITEM:role:restricted-member': 'deny' }, row_version: (record.row_version ?? 0) + 1 } });
    expect(put.statusCode).toBeLessThan(300);
    await waitFor(async () => seen.some((e) => e.teamId === teamId && e.channel === 'permissions' && e.event === 'saved'), 8000, 'the permissions event');
    off();
    await runtime.signOut();
  });
});
