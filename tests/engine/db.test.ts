import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { dexieRecordsStore } from '../../schema/collections';
import { DB_VERSIONS, DURABLE_TABLES, latestSchema, openReadonlyDb, openUserDb, isQuotaError } from '../../sync-worker/db';
import { createClient, createWorld, newItem, serverCopy, type World } from './harness';

describe('database schema', () => {
  it('the latest records store is the registry’s (a registry change needs a new version)', () => {
    expect(latestSchema().stores.records).toBe(dexieRecordsStore);
  });

  it('no version ever drops a table of unsynced work', () => {
    for (const v of DB_VERSIONS) {
      for (const table of DURABLE_TABLES) {
        if (table in v.stores) expect(v.stores[table]).not.toBeNull();
      }
    }
    // Each durable table is added by some version and named with a schema in every later one.
    for (const table of DURABLE_TABLES) expect(DB_VERSIONS.some((v) => v.stores[table])).toBe(true);
  });

  it('upgrading from every older version keeps drafts, conflicts, queued requests and records', async () => {
    for (const old of DB_VERSIONS.slice(0, -1)) {
      const userId = `upgrade-${old.version}`;
      const before = new Dexie(`cairn-${userId}`);
      for (const v of DB_VERSIONS.filter((v) => v.version <= old.version)) before.version(v.version).stores(v.stores);
      await before.open();
      await before.table('drafts').put({ collection: 'item', id: 'd', draft: { id: 'd', row_version: 0 }, previous: null, time: 1 });
      await before.table('conflicts').put({ collection: 'item', id: 'c', local: null, remote: null, time: 2 });
      await before.table('failedRequests').put({ key: 'k', seq: 1, collection: 'item', id: 'q', teamId: 1 });
      await before.table('records').put({ collection: 'value', id: 'v', board_id: 'B', item_id: 'I', attribute_id: 'A', row_version: 1 });
      await before.table('records').put({ collection: 'folder', id: 'f', board_id: 'f', parent_id: null, row_version: 1 });
      await before.table('records').put({ collection: 'item', id: 'i', board_id: 'f', folder_id: 'f', row_version: 1 });
      before.close();

      const db = await openUserDb(userId);
      expect(await db.relaxed.drafts.count()).toBe(1);
      expect(await db.relaxed.conflicts.count()).toBe(1);
      // Version 5 (issue 30): a row from before field merge is kept as a whole-record conflict.
      expect((await db.relaxed.conflicts.toArray())[0]).toMatchObject({ kind: 'record', collection: 'item', id: 'c', item_id: 'c', field: null, mine: null, theirs: null, time: 2 });
      expect(await db.relaxed.failedRequests.get('k')).toMatchObject({ id: 'q' });
      expect(await db.relaxed.records.where('[collection+item_id]').equals(['value', 'I']).count()).toBe(1);
      // Version 3 dropped `collection` and [collection+folder_id]: the rows stay and the reads
      // that used them (known boards, a folder's items) find them through the key and board index.
      const indexes = db.relaxed.records.schema.indexes.map((i) => i.name);
      expect(indexes).not.toContain('collection');
      expect(indexes).not.toContain('[collection+folder_id]');
      expect(await db.relaxed.records.where('[collection+id]').between(['folder', Dexie.minKey], ['folder', Dexie.maxKey]).primaryKeys()).toEqual([['folder', 'f']]);
      expect(await db.relaxed.records.where('[collection+board_id]').equals(['item', 'f']).filter((r) => r.folder_id === 'f').count()).toBe(1);
      expect(await db.relaxed.records.count()).toBe(3);
      // Version 4 added refusedEdits (decision 0094): present and empty after any upgrade.
      expect(await db.relaxed.refusedEdits.count()).toBe(0);
      db.close();
    }
  });

  it('one database per user, readable by a second (tab) connection', async () => {
    const a = await openUserDb(101);
    const b = await openUserDb(102);
    await a.strict.records.put({ collection: 'item', id: 'x', row_version: 1, board_id: 'B' });
    expect(await b.relaxed.records.count()).toBe(0);
    const tab = openReadonlyDb(101);
    expect(await tab.records.where('[collection+board_id]').equals(['item', 'B']).count()).toBe(1);
    expect(a.name).toBe('cairn-101');
    tab.close();
    a.close();
    b.close();
  });

  it('writes user work through a strict-durability handle', async () => {
    const db = await openUserDb(103);
    const modes: string[] = [];
    const durabilityNow = () => (Dexie.currentTransaction as unknown as { idbtrans: IDBTransaction }).idbtrans.durability;
    await db.strict.transaction('rw', db.strict.drafts, async () => {
      await db.strict.drafts.put({ collection: 'item', id: 'd', draft: { id: 'd', row_version: 0 }, previous: null, time: 0 });
      modes.push(durabilityNow());
    });
    await db.relaxed.transaction('rw', db.relaxed.records, async () => {
      await db.relaxed.records.put({ collection: 'item', id: 'r', row_version: 0 });
      modes.push(durabilityNow());
    });
    expect(modes).toEqual(['strict', 'relaxed']);
    db.close();
  });

  it('recognises a QuotaExceededError, also when Dexie wraps it', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
  });
});

describe('storage quota', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(() => world.close());

  it('a QuotaExceededError becomes an event and loses no queued work', async () => {
    const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id });
    await c.engine.setQueueing(true);
    const first = newItem(world, { name: 'queued before' });
    await c.engine.save('item', first, { teamId: world.teamId });
    const full = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    c.db.strict.failedRequests.hook('creating', full);
    const second = newItem(world, { name: 'typed while full' });
    await c.engine.save('item', second, { teamId: world.teamId });
    expect(c.of('quota-exceeded')).toHaveLength(1);
    expect(await c.db.relaxed.failedRequests.count()).toBe(1); // the earlier request is intact
    c.db.strict.failedRequests.hook('creating').unsubscribe(full);
    await c.engine.setQueueing(false);
    // The held edit is stored and sent with the next write.
    await c.engine.save('item', newItem(world), { teamId: world.teamId });
    await new Promise((r) => setTimeout(r, 50));
    await c.engine.idle();
    expect(await serverCopy(world, 'items', first.id)).toMatchObject({ name: 'queued before' });
    expect(await serverCopy(world, 'items', second.id)).toMatchObject({ name: 'typed while full' });
    c.close();
  });
});
