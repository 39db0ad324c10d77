import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { ManualClock } from '../../sync-worker/clock';
import { openUserDb } from '../../sync-worker/db';
import { Emitter } from '../../sync-worker/events';
import { HttpClient } from '../../sync-worker/http';
import { SyncEngine } from '../../sync-worker/engine';
import { WorkspaceMembership } from '../../sync-worker/membership';
import type { TokenRecord } from '../../sync-worker/types';
import { createWorld, wire, type World } from './harness';

/**
 * A reader outside the workspace catches up board by board (issue #6): an anonymous visitor who
 * opens one public board and then another, and opens the first again, never asks the
 * workspace-wide /changes the server refuses them; a member still follows the workspace feed.
 */

let world: World;
let second: string;
beforeAll(async () => {
  world = await createWorld();
  const put = (route: string, body: Record<string, unknown>) => api(world.server.app, 'PUT', `/api/${world.teamId}/${route}/${String(body.id)}`, { token: world.owner.token, body });
  const first = (await api(world.server.app, 'GET', `/api/${world.teamId}/folders?board_id=${world.boardId}`, { token: world.owner.token })).json().data[0];
  expect((await put('folders', { ...first, is_public: true, row_version: first.row_version + 1 })).statusCode).toBe(200);
  second = nanoid();
  expect((await put('folders', { id: second, board_id: second, parent_id: null, name: 'Second', is_public: true, row_version: 1 })).statusCode).toBe(200);
});
afterAll(() => world.close());

async function reader(options: { token?: TokenRecord; userId: number | 'guest'; readsPerBoard?: 'membership' | boolean }) {
  const w = wire();
  const clock = new ManualClock(Date.now());
  const events = new Emitter();
  const db = await openUserDb(options.userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  const http = new HttpClient({ baseUrl: world.url, fetch: w.fetch, clock, events, newId: () => nanoid(), swUuid: 'sw-' + nanoid(8) });
  if (options.token) http.setToken(options.token, Date.now());
  const membership = new WorkspaceMembership(http, clock);
  const readsPerBoard = options.readsPerBoard === 'membership' ? (teamId: number) => membership.isOutside(teamId) : () => options.readsPerBoard === true;
  const engine = await SyncEngine.create({ db, http, clock, random: Math.random, events, newId: () => nanoid(), readsPerBoard });
  const deltas = () => w.calls.filter((c) => c.url.includes('/changes?')).map((c) => c.url);
  const local = (collection: string, id: string) => db.relaxed.records.get([collection, id]);
  return { engine, deltas, local, close: () => (engine.stop(), db.close()) };
}

const addItem = async (boardId: string, name: string) => {
  const id = nanoid();
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${id}`, { token: world.owner.token, body: { id, board_id: boardId, folder_id: boardId, name, row_version: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return id;
};

describe('catching up as a reader outside the workspace', () => {
  it('an anonymous visitor opens two public boards in a row and catches up each by its board', async () => {
    const visitor = await reader({ userId: 'guest', readsPerBoard: true });
    await visitor.engine.openBoard(world.teamId, world.boardId);
    const onSecond = await addItem(second, 'On the second board');
    await visitor.engine.openBoard(world.teamId, second);
    expect(await visitor.local('item', onSecond)).toMatchObject({ name: 'On the second board' });

    // Back to the first board: only its delta, asked with its board.
    const missed = await addItem(world.boardId, 'Missed on the first');
    await visitor.engine.openBoard(world.teamId, world.boardId);
    expect(await visitor.local('item', missed)).toMatchObject({ name: 'Missed on the first' });
    expect(visitor.deltas().length).toBeGreaterThan(0);
    for (const url of visitor.deltas()) expect(url).toContain(`board_id=`);
    expect(visitor.deltas().some((u) => u.includes(`board_id=${world.boardId}`))).toBe(true);
    // A reconnect's catch-up follows the open board too.
    const later = await addItem(world.boardId, 'Later');
    await visitor.engine.catchUp(world.teamId);
    expect(await visitor.local('item', later)).toMatchObject({ name: 'Later' });
    visitor.close();
  });

  it('a signed-in person outside the workspace is told apart from a member by their workspaces', async () => {
    const stranger = await createUserWithToken(world.server.ctx);
    const outsider = await reader({ token: stranger.tokens as TokenRecord, userId: stranger.user.id, readsPerBoard: 'membership' });
    await outsider.engine.openBoard(world.teamId, world.boardId);
    await outsider.engine.openBoard(world.teamId, second);
    const missed = await addItem(world.boardId, 'Seen by the outsider');
    await outsider.engine.openBoard(world.teamId, world.boardId);
    expect(await outsider.local('item', missed)).toMatchObject({ name: 'Seen by the outsider' });
    for (const url of outsider.deltas()) expect(url).toContain(`board_id=`);
    outsider.close();

    const member = await reader({ token: world.owner.tokens, userId: world.owner.user.id, readsPerBoard: 'membership' });
    await member.engine.openBoard(world.teamId, world.boardId);
    await member.engine.openBoard(world.teamId, second);
    await member.engine.openBoard(world.teamId, world.boardId);
    expect(member.deltas().length).toBeGreaterThan(0);
    for (const url of member.deltas()) expect(url).not.toContain('board_id=');
    member.close();
  });
});
