/**
 * Worker half of bench/edit-visible.ts: the real engine in a dedicated worker (as in the app's
 * SharedWorker), reached over Comlink. No server: queueing is on, so requests stay queued.
 */
import * as Comlink from 'comlink';
import { nanoid } from 'nanoid';
import { openUserDb, type UserDb } from '../sync-worker/db';
import { SyncEngine } from '../sync-worker/engine';
import { HttpClient } from '../sync-worker/http';
import { Emitter } from '../sync-worker/events';
import { systemClock } from '../sync-worker/clock';
import type { StoredRecord } from '../sync-worker/types';

let engine: SyncEngine;
let db: UserDb;

const api = {
  /** A board of `items` items, each with a value of one text attribute. */
  async seed(user: string, board: string, attribute: string, items: number): Promise<string[]> {
    db = await openUserDb(user);
    const events = new Emitter();
    const http = new HttpClient({ baseUrl: location.origin, fetch: (i, init) => fetch(i, init), clock: systemClock, events, newId: () => nanoid(), swUuid: 'bench' });
    http.setToken({ access_token: 'unused' });
    engine = await SyncEngine.create({ db, http, clock: systemClock, random: Math.random, events, newId: () => nanoid() });
    await engine.setQueueing(true);
    const rows: StoredRecord[] = [{ collection: 'attribute', id: attribute, board_id: board, folder_id: board, name: 'Notes', kind: 'text', row_version: 1 }];
    const ids: string[] = [];
    for (let i = 0; i < items; i++) {
      const id = nanoid();
      ids.push(id);
      rows.push({ collection: 'item', id, board_id: board, folder_id: board, name: `Item ${i}`, position: i, row_version: 1 });
      rows.push({ collection: 'value', id: `${id}.${attribute}`, board_id: board, item_id: id, attribute_id: attribute, value: `v${i}`, row_version: 1 });
    }
    await db.relaxed.records.bulkPut(rows);
    return ids;
  },
  /** One user action, as the app sends it. */
  async setValue(itemId: string, attribute: string, value: string): Promise<void> {
    await engine.apply('setValues', { itemIds: [itemId], attributeId: attribute, value }, { teamId: 1 });
  },
  /** The floor: the same value written with a bare strict put, no engine. */
  async rawPut(itemId: string, attribute: string, value: string, board: string): Promise<void> {
    const t = db.strict;
    await t.transaction('rw', t.records, () => t.records.put({ collection: 'value', id: `${itemId}.${attribute}`, board_id: board, item_id: itemId, attribute_id: attribute, value, row_version: 1 }));
  },
};

export type EditBenchWorker = typeof api;
Comlink.expose(api);
