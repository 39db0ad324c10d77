import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { ManualClock } from '../../sync-worker/clock';
import { openUserDb } from '../../sync-worker/db';
import { Emitter } from '../../sync-worker/events';
import { HttpClient } from '../../sync-worker/http';
import { SyncEngine } from '../../sync-worker/engine';
import { DELTA_PAGE, ALIGN_CHANGES } from '../../server/sync/changes';
import type { TokenRecord } from '../../sync-worker/types';
import { addMember, createWorld, wire, type World } from './harness';

/**
 * A catch-up pages on while the server says `has_more`, even through a page with nothing this
 * reader may see: a member far behind whose next page of changes all lie in a folder hidden from
 * them gets an empty page that is not the end (decision 0285). Stopping there left the member
 * without the changes after it until some later ping.
 */
let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

describe('catch-up through pages of changes hidden from the reader', () => {
  it('reaches the change after more than a page of hidden ones', async () => {
    const member = await addMember(world, 'full-member');
    const w = wire();
    const clock = new ManualClock(Date.now());
    const events = new Emitter();
    const db = await openUserDb(member.user.id, { indexedDB: new IDBFactory(), IDBKeyRange });
    const http = new HttpClient({ baseUrl: world.url, fetch: w.fetch, clock, events, newId: () => nanoid(), swUuid: 'sw-' + nanoid(8) });
    http.setToken(member.tokens as TokenRecord, Date.now());
    const engine = await SyncEngine.create({ db, http, clock, random: Math.random, events, newId: () => nanoid() });
    await engine.openBoard(world.teamId, world.boardId);

    const owner = world.owner.token;
    const hidden = nanoid();
    const folder = { id: hidden, board_id: world.boardId, parent_id: world.boardId, name: 'Owner only', hidden: true, user_ids: [world.owner.user.id], row_version: 1 };
    expect((await api(world.server.app, 'PUT', `/api/${world.teamId}/folders/${hidden}`, { token: owner, body: folder })).statusCode).toBe(200);
    // More hidden changes than one (block-aligned) page holds, then one the member may see.
    const total = DELTA_PAGE + 2 * ALIGN_CHANGES + 100;
    for (let written = 0; written < total; written += 500) {
      const requests = Array.from({ length: Math.min(500, total - written) }, () => {
        const id = nanoid();
        return { method: 'put', route: `items/${id}`, payload: { id, board_id: world.boardId, folder_id: hidden, name: 'secret', position: 1, row_version: 1 } };
      });
      const res = await api(world.server.app, 'POST', `/api/${world.teamId}/batch`, { token: owner, body: { transaction: null, requests } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const visible = nanoid();
    const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${visible}`, {
      token: owner,
      body: { id: visible, board_id: world.boardId, folder_id: world.boardId, name: 'After the hidden ones', position: 1, row_version: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);

    await engine.catchUp(world.teamId, world.boardId);
    expect(await db.relaxed.records.get(['item', visible])).toMatchObject({ name: 'After the hidden ones' });
    const pages = w.calls.filter((c) => c.url.includes('/changes?'));
    expect(pages.length).toBeGreaterThan(1);
    engine.stop();
    db.close();
  }, 120_000);
});
