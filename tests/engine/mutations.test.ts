import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { testSeed } from '../helpers/trail';
import { mutators, type MutationTx, type Mutator, type MutatorName } from '../../sync-worker/mutators';
import type { HistoryEntry } from '../../sync-worker/undo';
import type { SyncRecord } from '../../sync-worker/types';
import { createClient, createWorld, newItem, wire, type Client, type World } from './harness';

/**
 * Named mutations against the real server over real HTTP (decision 0100), online and never
 * paused: the queue sends each action as soon as it is stored, the way the app runs.
 */

let world: World;
let textId: string;
let otherFolderId: string;
/** Attributes and folders as the server holds them (seeded into each client's replica). */
let seed: { collection: string; record: SyncRecord }[] = [];

beforeAll(async () => {
  world = await createWorld();
  textId = nanoid();
  otherFolderId = nanoid();
  const token = world.owner.token;
  const attr = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${textId}`, {
    token,
    body: { id: textId, board_id: world.boardId, folder_id: world.boardId, name: 'Notes', kind: 'text', row_version: 1 },
  });
  expect(attr.statusCode).toBe(200);
  const folder = await api(world.server.app, 'PUT', `/api/${world.teamId}/folders/${otherFolderId}`, {
    token,
    body: { id: otherFolderId, board_id: world.boardId, parent_id: world.boardId, name: 'Other', row_version: 1 },
  });
  expect(folder.statusCode).toBe(200);
  seed = [
    { collection: 'attribute', record: attr.json().data },
    { collection: 'folder', record: folder.json().data },
  ];
});
afterAll(() => world.close());

async function client(extra: Partial<Parameters<typeof createClient>[1]> = {}): Promise<Client> {
  const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, ...extra });
  await c.db.relaxed.records.bulkPut(seed.map((s) => ({ ...s.record, collection: s.collection })));
  return c;
}

const ROUTES: Record<string, string> = { item: 'items', value: 'values', folder: 'folders', attribute: 'attributes' };

/** Every live record of the board on the server, by `collection/id`. */
async function serverState(): Promise<Map<string, SyncRecord>> {
  const out = new Map<string, SyncRecord>();
  for (const [collection, route] of Object.entries(ROUTES)) {
    const res = await api(world.server.app, 'GET', `/api/${world.teamId}/${route}?board_id=${world.boardId}`, { token: world.owner.token });
    for (const r of res.json().data as SyncRecord[]) if (!r.deleted_at) out.set(`${collection}/${r.id}`, r);
  }
  return out;
}

/** The fields a user edits (what an image must restore); bookkeeping the server stamps is left out. */
const BOOKKEEPING = new Set(['row_version', 'updated_at', 'created_at', 'deleted_at', 'collection', 'team_id', 'created_by', 'updated_by']);
function userFields(record: SyncRecord | null | undefined): Record<string, unknown> | null {
  if (!record) return null;
  return Object.fromEntries(Object.entries(record).filter(([k, v]) => !BOOKKEEPING.has(k) && v !== undefined && v !== null));
}

/** Checks that every entry's record is `which` image, in the replica and on the server. */
async function expectImages(c: Client, entries: HistoryEntry[], which: 'before' | 'after', label: string): Promise<void> {
  const server = await serverState();
  for (const e of entries) {
    const want = userFields(e[which] as SyncRecord | null);
    const local = userFields(await c.local(e.collection, e.id));
    const remote = userFields(server.get(`${e.collection}/${e.id}`));
    // Every field of the image comes back (or is there), and the replica holds exactly what the
    // server holds: the server may have filled in defaults (a position) the image did not carry
    // yet when it was taken from a copy still on its way.
    if (want === null) {
      expect(local, `${label}: local ${e.collection} ${e.id}`).toBeNull();
      expect(remote, `${label}: server ${e.collection} ${e.id}`).toBeNull();
      continue;
    }
    expect(remote, `${label}: server ${e.collection} ${e.id}`).toMatchObject(want);
    expect(local, `${label}: local ${e.collection} ${e.id} is the server's copy`).toEqual(remote);
  }
}

/**
 * A mutator with one of its records spoiled so the server refuses it (records are strict: an
 * unknown field is a 422), while the replica takes it like any edit.
 */
function spoiled<A>(mutator: Mutator<A>, pick: number, spoilt = { count: 0 }): Mutator<A> {
  return async (tx, args) => {
    const puts: [string, SyncRecord][] = [];
    const spy: MutationTx = {
      teamId: tx.teamId,
      get: (c, id) => tx.get(c, id),
      valuesOf: (id) => tx.valuesOf(id),
      put: (c, r) => {
        puts.push([c, r]);
        tx.put(c, r);
      },
      delete: (c, id) => tx.delete(c, id),
      restore: (c, r) => tx.restore(c, r),
    };
    await mutator(spy, args);
    if (puts.length === 0) return;
    const [collection, record] = puts[pick % puts.length]!;
    tx.put(collection, { ...(await tx.get(collection, record.id))!, not_a_field: true });
    spoilt.count++;
  };
}

type Action = { name: MutatorName; args: unknown };

/** Actions over the items the replica holds now (chosen by index, so shrinking stays meaningful). */
function actionFor(kind: number, picks: number[], text: string, items: SyncRecord[]): Action {
  const chosen = [...new Set(picks.map((p) => items[p % items.length]!.id))];
  switch (kind) {
    case 0:
      return { name: 'createItem', args: { item: newItem(world, { name: `new ${text}` }), values: text ? { [textId]: text } : {} } };
    case 1:
      return { name: 'setValues', args: { itemIds: chosen, attributeId: textId, value: text } };
    case 2:
      return { name: 'moveItems', args: { itemIds: chosen, folderId: picks[0]! % 2 ? otherFolderId : world.boardId, firstPosition: picks[1] ?? 1 } };
    case 3:
      return { name: 'duplicateItems', args: { copies: chosen.map((id) => ({ sourceId: id, id: nanoid(), name: `copy ${text}` })) } };
    case 4:
      return { name: 'moveCard', args: { itemId: chosen[0], group: { attributeId: textId, value: text }, position: (picks[1] ?? 0) + 0.5 } };
    case 5:
      return { name: 'updateRecord', args: { collection: 'item', id: chosen[0], patch: { name: `renamed ${text}` } } };
    default:
      return { name: 'deleteRecords', args: { collection: 'item', ids: chosen.slice(0, 2) } };
  }
}

async function liveItems(c: Client): Promise<SyncRecord[]> {
  return (await c.db.relaxed.records.where('collection').equals('item').toArray()) as unknown as SyncRecord[];
}

describe('named mutations, online and never paused', () => {
  it('fuzz: every action lands whole or not at all, locally and on the server; undo restores the before-images', async () => {
    const c = await client();
    for (let i = 0; i < 3; i++) {
      await c.engine.apply('createItem', { item: newItem(world, { name: `seed ${i}` }), values: { [textId]: `v${i}` } }, { teamId: world.teamId });
    }
    await c.engine.idle();
    const step = fc.record({
      kind: fc.integer({ min: 0, max: 6 }),
      picks: fc.array(fc.nat(50), { minLength: 1, maxLength: 4 }),
      text: fc.string({ maxLength: 12 }),
      poison: fc.option(fc.nat(10), { nil: null }),
      undo: fc.boolean(),
    });
    let actions = 0;
    let refused = 0;
    let undone = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        // A failed run (while shrinking) may leave refused edits behind: start each run clean.
        await c.db.relaxed.refusedEdits.clear();
        for (const s of steps) {
          const items = await liveItems(c);
          if (items.length < 2) {
            await c.engine.apply('createItem', { item: newItem(world), values: {} }, { teamId: world.teamId });
            continue;
          }
          const action = actionFor(s.kind, s.picks, s.text, items);
          const mutator = mutators[action.name] as Mutator<unknown>;
          const spoilt = { count: 0 };
          const run = s.poison === null ? mutator : spoiled(mutator, s.poison, spoilt);
          const { entries } = await c.engine.runMutation(run, action.args, { teamId: world.teamId });
          await c.engine.idle();
          actions++;
          if (entries.length === 0) continue;
          if (spoilt.count > 0) {
            refused++;
            // Not a record of it stayed, and all of it waits in Not saved, whole.
            await expectImages(c, entries, 'before', `${action.name} refused`);
            const notSaved = (await c.engine.refusedEdits()).map((r) => `${r.collection}/${r.id}`).sort();
            expect(notSaved).toEqual(entries.map((e) => `${e.collection}/${e.id}`).sort());
            for (const e of entries) await c.engine.discardRefused(e.collection, e.id);
            continue;
          }
          await expectImages(c, entries, 'after', `${action.name} applied`);
          const keys = new Set(entries.map((e) => `${e.collection}/${e.id}`));
          expect((await c.engine.refusedEdits()).filter((r) => keys.has(`${r.collection}/${r.id}`))).toEqual([]);
          if (!s.undo) continue;
          const inverse = await c.engine.apply('revert', { entries, to: 'before' }, { teamId: world.teamId });
          await c.engine.idle();
          undone++;
          expect(inverse.entries.length).toBeGreaterThan(0);
          await expectImages(c, entries, 'before', `undo ${action.name}`);
          expect(await c.db.relaxed.failedRequests.count()).toBe(0);
        }
      }),
      {
        numRuns: 12,
        seed: Number(process.env.FUZZ_SEED ?? testSeed()),
        verbose: 1 /* the run's seed, printed by a failure (TEST_SEED=<n> replays it) */,
        // Twelve random runs may hold no undo or no refusal (seed 1705836394 had no undo): one
        // fixed run first has both, so the checks below hold for every seed.
        examples: [[[
          { kind: 0, picks: [0], text: 'first', poison: null, undo: true },
          { kind: 0, picks: [1], text: 'second', poison: null, undo: true },
          { kind: 0, picks: [0], text: 'third', poison: null, undo: true },
          { kind: 0, picks: [1], text: 'spoilt', poison: 0, undo: false },
        ]]],
      },
    );
    expect(actions).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
    expect(undone).toBeGreaterThan(0);
    c.close();
  }, 120_000);

  it('a later action built on a refused one goes whole to Not saved, never half to the server', async () => {
    // The first action's batch is held on the wire until the second action is stored behind it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const w = wire();
    const c = await client({
      fetch: async (input, init) => {
        if (String(input).endsWith('/batch')) await gate;
        return w.fetch(input, init);
      },
    });
    const shared = newItem(world, { name: 'shared' });
    const lone = newItem(world, { name: 'lone' });
    await c.engine.apply('createRecords', { records: [{ collection: 'item', record: shared }, { collection: 'item', record: lone }] }, { teamId: world.teamId });
    release();
    await c.engine.idle();
    const before = await serverState();
    expect(before.has(`item/${shared.id}`)).toBe(true);

    let hold!: () => void;
    const held = new Promise<void>((resolve) => (hold = resolve));
    const c2 = await client({
      fetch: async (input, init) => {
        if (String(input).endsWith('/batch')) await held;
        return w.fetch(input, init);
      },
    });
    await c2.db.relaxed.records.bulkPut([{ ...(await c.local('item', shared.id))!, collection: 'item' }, { ...(await c.local('item', lone.id))!, collection: 'item' }]);
    // Action 1 (refused on the server): renames `shared` and moves `lone`, one record spoiled.
    const first = await c2.engine.runMutation(
      spoiled(mutators.moveItems, 1),
      { itemIds: [shared.id, lone.id], folderId: otherFolderId, firstPosition: 10 },
      { teamId: world.teamId },
    );
    // Action 2 is built on action 1's copy of `shared` and also creates a new item.
    const extra = newItem(world, { name: 'extra' });
    const second = await c2.engine.apply('createItem', { item: extra, values: { [textId]: 'beside' } }, { teamId: world.teamId });
    const third = await c2.engine.runMutation(
      async (tx) => {
        tx.put('item', { ...(await tx.get('item', shared.id))!, name: 'built on the refused move' });
        tx.put('item', { ...(await tx.get('item', extra.id))!, name: 'extra renamed' });
      },
      {},
      { teamId: world.teamId },
    );
    hold();
    await c2.engine.idle();
    const after = await serverState();
    // Action 1 and 3 (built on it) left nothing on the server; action 2 stands on its own.
    expect(userFields(after.get(`item/${shared.id}`))).toEqual(userFields(before.get(`item/${shared.id}`)));
    expect(userFields(after.get(`item/${lone.id}`))).toEqual(userFields(before.get(`item/${lone.id}`)));
    expect(after.get(`item/${extra.id}`)?.name).toBe('extra');
    expect(after.has(`value/${extra.id}.${textId}`)).toBe(true);
    // Locally: everything of 1 and 3 went back; 2 stays.
    expect((await c2.local('item', shared.id))?.name).toBe('shared');
    expect((await c2.local('item', extra.id))?.name).toBe('extra');
    const notSaved = (await c2.engine.refusedEdits()).map((r) => `${r.collection}/${r.id}`).sort();
    expect(notSaved).toEqual([`item/${extra.id}`, `item/${lone.id}`, `item/${shared.id}`].sort());
    expect(first.entries).toHaveLength(2);
    expect(second.entries).toHaveLength(2);
    expect(third.entries).toHaveLength(2);
    expect(await c2.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
    c2.close();
  });

  it('offline: actions wait whole in the queue and, back online, each lands whole or not at all', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    c.engine.connection.networkFailure();
    const good = [newItem(world, { name: 'offline a' }), newItem(world, { name: 'offline b' })];
    const bad = [newItem(world, { name: 'offline c' }), newItem(world, { name: 'offline d' })];
    await c.engine.apply('createRecords', { records: good.map((record) => ({ collection: 'item', record })) }, { teamId: world.teamId });
    await c.engine.runMutation(spoiled(mutators.createRecords, 1), { records: bad.map((record) => ({ collection: 'item', record })) }, { teamId: world.teamId });
    // A later offline edit of a good record is its own action, queued behind it.
    await c.engine.apply('setValues', { itemIds: [good[0]!.id, bad[0]!.id], attributeId: textId, value: 'later' }, { teamId: world.teamId });
    expect(w.calls.filter((call) => call.method !== 'GET')).toHaveLength(0);
    c.engine.connection.browserOnline();
    await c.engine.idle();
    const server = await serverState();
    for (const r of good) expect(server.get(`item/${r.id}`)?.name).toBe(r.name);
    for (const r of bad) expect(server.has(`item/${r.id}`)).toBe(false);
    // The value edit also named a refused item, so the server refused it whole: nothing of it stayed.
    expect(server.has(`value/${good[0]!.id}.${textId}`)).toBe(false);
    expect((await c.engine.refusedEdits()).map((r) => `${r.collection}/${r.id}`).sort()).toEqual(
      [...bad.map((r) => `item/${r.id}`), `value/${good[0]!.id}.${textId}`, `value/${bad[0]!.id}.${textId}`].sort(),
    );
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    c.close();
  });

  it('an action is one request: a bulk edit of many items is one batch call, and one undo is one more', async () => {
    const w = wire();
    const c = await client({ fetch: w.fetch });
    const items = Array.from({ length: 5 }, (_, i) => newItem(world, { name: `bulk ${i}` }));
    await c.engine.apply('createRecords', { records: items.map((record) => ({ collection: 'item', record })) }, { teamId: world.teamId });
    await c.engine.idle();
    expect(w.calls.filter((call) => call.method !== 'GET')).toHaveLength(1);
    w.calls.length = 0;
    const ids = items.map((i) => i.id);
    const edit = await c.engine.apply('setValues', { itemIds: ids, attributeId: textId, value: 'same for all' }, { teamId: world.teamId });
    await c.engine.idle();
    const writes = w.calls.filter((call) => call.method !== 'GET');
    expect(writes).toHaveLength(1);
    expect((writes[0]!.body as { requests: unknown[] }).requests).toHaveLength(5);
    // The same value again changes nothing and sends nothing.
    expect((await c.engine.apply('setValues', { itemIds: ids, attributeId: textId, value: 'same for all' }, { teamId: world.teamId })).entries).toEqual([]);
    w.calls.length = 0;
    await c.engine.apply('revert', { entries: edit.entries, to: 'before' }, { teamId: world.teamId });
    await c.engine.idle();
    expect(w.calls.filter((call) => call.method !== 'GET')).toHaveLength(1);
    for (const id of ids) expect(await c.local('value', `${id}.${textId}`)).toBeUndefined();
    c.close();
  });
});
