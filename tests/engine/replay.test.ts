import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { valueIdFor } from '../../schema/records';
import type { SyncRecord } from '../../sync-worker/types';
import { holdsFields, recordsDiffer } from '../../sync-worker/merge';
import { addMember, createClient, createWorld, type Client, type World } from './harness';
import { faultyNetwork, mulberry32, type Fault } from './faults';

/**
 * Replay suite (DESIGN.md §7): several devices record queues offline, then replay them against the
 * real server through a transport that injects faults — HTTP 500 before the server sees the
 * request, a connection dropped before it, a response lost after the server committed, duplicate
 * delivery, timeouts that race the retry, random delays that reorder the devices' calls — and
 * the 409s that concurrent offline edits produce. Every run must end with devices and server
 * agreeing, nothing lost (each intent is on the server, or recorded as a conflict or a reported
 * refusal) and nothing applied twice (each record's version counts its accepted writes exactly).
 *
 * REPLAY_SEEDS=n runs more seeds; REPLAY_SEED=s runs one (the failing seed is printed).
 */

const SEEDS = process.env.REPLAY_SEED ? [Number(process.env.REPLAY_SEED)] : Array.from({ length: Number(process.env.REPLAY_SEEDS ?? 12) }, (_, i) => 1000 + i * 7919);
const OPS_PER_DEVICE = 18;
const FAULTY_ROUNDS = 6;

interface Device {
  name: string;
  client: Client;
  net: ReturnType<typeof faultyNetwork>;
  /** What the user last meant for each record: the record, or null for deleted. */
  intent: Map<string, { collection: string; record: SyncRecord | null }>;
}

const strip = (r: SyncRecord | null | undefined) => {
  if (!r) return null;
  const { updated_at: _u, created_at: _c, ...rest } = r as Record<string, unknown>;
  return rest;
};

describe('replay: offline queues against the real server with injected faults', () => {
  let world: World;
  let member: Awaited<ReturnType<typeof addMember>>;
  beforeAll(async () => {
    world = await createWorld();
    member = await addMember(world, 'admin');
  });
  afterAll(() => world.close());

  async function newBoard(): Promise<{ boardId: string; attributeId: string; items: SyncRecord[] }> {
    const boardId = nanoid();
    const put = (route: string, body: Record<string, unknown>) => api(world.server.app, 'PUT', `/api/${world.teamId}/${route}/${body.id}`, { token: world.owner.token, body });
    const board = await put('folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Replay', row_version: 1 });
    expect(board.statusCode).toBe(200);
    const attributeId = nanoid();
    expect((await put('attributes', { id: attributeId, board_id: boardId, folder_id: boardId, name: 'Text', kind: 'long-text', row_version: 1 })).statusCode).toBe(200);
    const items: SyncRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await put('items', { id: nanoid(), board_id: boardId, folder_id: boardId, name: `shared ${i}`, row_version: 1 });
      expect(res.statusCode).toBe(200);
      items.push(res.json().data);
    }
    return { boardId, attributeId, items };
  }

  async function runSeed(seed: number) {
    const rand = mulberry32(seed);
    const { boardId, attributeId } = await newBoard();
    const faults: Fault[] = [];
    const devices: Device[] = [];
    const people = [
      { name: 'owner-laptop', signed: world.owner },
      { name: 'owner-phone', signed: world.owner },
      { name: 'member', signed: member },
    ];
    for (const p of people) {
      const net = faultyNetwork(mulberry32(Math.floor(rand() * 2 ** 31)), faults);
      const client = await createClient(world, {
        token: p.signed.tokens,
        userId: p.signed.user.id,
        fetch: net.fetch,
        idb: { indexedDB: new IDBFactory(), IDBKeyRange },
        random: rand,
        batchSize: 1 + Math.floor(rand() * 8),
      });
      net.state.faulty = false;
      await client.engine.openBoard(world.teamId, boardId);
      net.state.faulty = true;
      devices.push({ name: p.name, client, net, intent: new Map() });
    }

    // ── offline: every device records its own queue ───────────────────────────────────────
    for (const d of devices) d.client.engine.connection.networkFailure();
    for (const d of devices) {
      for (let op = 0; op < OPS_PER_DEVICE; op++) {
        const items = (await d.client.db.relaxed.records.where('[collection+board_id]').equals(['item', boardId]).toArray()) as unknown as SyncRecord[];
        const r = rand();
        const target = items.length ? items[Math.floor(rand() * items.length)]! : null;
        const e = d.client.engine;
        if (r < 0.25 || !target) {
          const item = { id: nanoid(), board_id: boardId, folder_id: boardId, name: `${d.name} new ${op}`, row_version: 0 };
          d.intent.set(`item:${item.id}`, { collection: 'item', record: await e.save('item', item, { teamId: world.teamId }) });
        } else if (r < 0.6) {
          const { collection: _c, ...rest } = target as SyncRecord & { collection?: string };
          const saved = await e.save('item', { ...rest, name: `${d.name} edit ${op}` } as SyncRecord, { teamId: world.teamId });
          d.intent.set(`item:${target.id}`, { collection: 'item', record: saved });
        } else if (r < 0.85) {
          const id = valueIdFor(target.id, attributeId);
          const current = await d.client.local('value', id);
          const value = current ?? { id, board_id: boardId, item_id: target.id, attribute_id: attributeId, row_version: 0 };
          const saved = await e.save('value', { ...value, value: `${d.name} v${op}` } as SyncRecord, { teamId: world.teamId });
          d.intent.set(`value:${id}`, { collection: 'value', record: saved });
        } else {
          await e.delete('item', target.id, { teamId: world.teamId });
          d.intent.set(`item:${target.id}`, { collection: 'item', record: null });
          // Its value goes with it on the server (cascade); forget our intent for it.
          d.intent.delete(`value:${valueIdFor(target.id, attributeId)}`);
        }
      }
      expect(await d.client.db.relaxed.failedRequests.filter((f) => f.error?.kind === 'offline').count()).toBeGreaterThan(0);
    }

    // ── back online, in random order, with faults for a few rounds then a clean network ────
    const order = [...devices].sort(() => rand() - 0.5);
    await Promise.all(
      order.map(async (d, i) => {
        await new Promise((r) => setTimeout(r, i * 3));
        for (let round = 0; round < 40; round++) {
          d.net.state.faulty = round < FAULTY_ROUNDS;
          d.client.engine.connection.browserOnline();
          await d.client.engine.flush();
          if ((await d.client.db.relaxed.failedRequests.count()) === 0) break;
          // Let a lost request that is still on its way land before the next try.
          await new Promise((r) => setTimeout(r, 5));
        }
      }),
    );
    for (const d of devices) d.net.state.faulty = false;
    // Timeout races may still be writing: let them land, then everyone catches up.
    await new Promise((r) => setTimeout(r, 50));
    for (const d of devices) {
      expect(await d.client.db.relaxed.failedRequests.count(), `${d.name} still has queued requests`).toBe(0);
      await d.client.engine.catchUp(world.teamId);
    }

    // ── agreement: every device holds exactly the server's board ─────────────────────────
    const serverBoard = new Map<string, SyncRecord>();
    for (const route of ['items', 'values']) {
      const res = await api(world.server.app, 'GET', `/api/${world.teamId}/${route}?board_id=${boardId}`, { token: world.owner.token });
      for (const r of res.json().data as SyncRecord[]) serverBoard.set(`${route === 'items' ? 'item' : 'value'}:${r.id}`, r);
    }
    for (const d of devices) {
      const local = new Map<string, SyncRecord>();
      for (const collection of ['item', 'value']) {
        const rows = await d.client.db.relaxed.records.where('[collection+board_id]').equals([collection, boardId]).toArray();
        for (const row of rows) {
          const { collection: _c, ...rec } = row;
          local.set(`${collection}:${row.id}`, rec as SyncRecord);
        }
      }
      const extra = [...local.keys()].filter((k) => !serverBoard.has(k));
      const missing = [...serverBoard.keys()].filter((k) => !local.has(k));
      if (extra.length || missing.length) {
        // Say what each device meant for the records in question before failing.
        for (const key of [...extra, ...missing]) {
          const id = key.split(':')[1]!;
          const row = await world.server.ctx.db.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirst();
          const changes = await world.server.ctx.db.selectFrom('change_log').select(['seq', 'op']).where('record_id', '=', id).execute();
          console.error(`${d.name} ${extra.includes(key) ? 'extra' : 'missing'} ${key}: local=${JSON.stringify(local.get(key))} server=${JSON.stringify(row)} log=${JSON.stringify(changes)}`);
          for (const other of devices) console.error(`  ${other.name} intent=${JSON.stringify(other.intent.get(key))} conflicts=${JSON.stringify(await other.client.db.relaxed.conflicts.filter((c) => c.id === id).toArray())}`);
        }
      }
      expect([...local.keys()].sort(), `${d.name} holds the server's records`).toEqual([...serverBoard.keys()].sort());
      for (const [key, rec] of serverBoard) expect(strip(local.get(key)), `${d.name} ${key}`).toEqual(strip(rec));
    }

    // ── nothing lost: each intent is on the server, or a conflict, or a reported refusal ───
    const trashed = new Map<string, SyncRecord>();
    const trash = await world.server.ctx.db.selectFrom('records').selectAll().where('board_id', '=', boardId).where('deleted_at', 'is not', null).execute();
    for (const row of trash as unknown as { collection: string; id: string; data: SyncRecord }[]) trashed.set(`${row.collection}:${row.id}`, row.data);
    for (const d of devices) {
      const conflicts = await d.client.db.relaxed.conflicts.toArray();
      const rejected = d.client.of('rejected');
      for (const [key, { record }] of d.intent) {
        const [collection, id] = key.split(':') as [string, string];
        const onServer = serverBoard.get(key);
        const inTrash = trashed.get(key);
        const applied = record === null ? !onServer : (!!onServer && holdsFields(onServer, record)) || (!!inTrash && holdsFields({ ...inTrash, deleted_at: null }, record));
        const conflicted = conflicts.some((c) => c.collection === collection && c.id === id && (record === null ? c.local === null : !!c.local && !recordsDiffer(c.local as SyncRecord, record)));
        const refused = rejected.some((r) => r.collection === collection && r.id === id);
        // A delete by someone else after our edit landed also ends our intent (the copy is in the trash).
        const overtaken = record !== null && !onServer && !!inTrash;
        expect(applied || conflicted || refused || overtaken, `${d.name} lost ${key}: ${JSON.stringify(record)} server=${JSON.stringify(onServer)}`).toBe(true);
      }
    }

    // ── nothing applied twice: a record's version counts its accepted writes exactly ───────
    const log = await world.server.ctx.db
      .selectFrom('change_log')
      .select(['collection', 'record_id', 'op'])
      .where('board_id', '=', boardId)
      .where('team_id', '=', world.teamId)
      .execute();
    const writes = new Map<string, number>();
    for (const entry of log) {
      if (entry.op === 'deleted') continue;
      const key = `${entry.collection}:${entry.record_id}`;
      writes.set(key, (writes.get(key) ?? 0) + 1);
    }
    for (const [key, rec] of serverBoard) expect(writes.get(key), `${key} writes vs row_version`).toBe(rec.row_version);
    for (const [key, rec] of trashed) expect(writes.get(key), `${key} (trash) writes vs row_version`).toBe(rec.row_version);

    let conflictCount = 0;
    let refusedCount = 0;
    for (const d of devices) {
      conflictCount += await d.client.db.relaxed.conflicts.count();
      refusedCount += d.client.of('rejected').length;
      d.client.close();
    }
    const injected = faults.filter((f) => f !== 'none' && f !== 'delay').length;
    console.log(`replay seed ${seed}: ${faults.length} write calls, ${injected} faults, ${conflictCount} conflicts, ${refusedCount} refusals, ${serverBoard.size} records agreed`);
    return faults;
  }

  it(`converges over ${SEEDS.length} seeds with nothing lost and nothing applied twice`, async () => {
    const seen = new Set<Fault>();
    for (const seed of SEEDS) {
      try {
        for (const f of await runSeed(seed)) seen.add(f);
      } catch (error) {
        console.error(`replay failed for seed ${seed} (rerun with REPLAY_SEED=${seed})`);
        throw error;
      }
    }
    // The faults really happened (a single-seed rerun may not meet every kind).
    if (SEEDS.length >= 5) for (const f of ['500', 'drop', 'lost-after-commit', 'duplicate', 'delay'] as Fault[]) expect(seen.has(f), `fault ${f} injected`).toBe(true);
  }, 120_000 + SEEDS.length * 8_000);
});
