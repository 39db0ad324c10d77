import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { valueIdFor } from '../../schema/records';
import { addMember, createClient, createWorld, newItem, serverCopy, wire, type World } from './harness';

/**
 * Field merge after a 409 (issue 30, decision 0345): the real engine on fake-indexeddb against the
 * real server. The owner's device goes offline (nothing reaches the server), edits, and comes back
 * after a member changed the same record online.
 */

let world: World;
let member: Awaited<ReturnType<typeof addMember>>;
let budgetId: string;
beforeAll(async () => {
  world = await createWorld();
  member = await addMember(world);
  budgetId = nanoid();
  const attr = await api(world.server.app, 'PUT', `/api/${world.teamId}/attributes/${budgetId}`, {
    token: world.owner.token,
    body: { id: budgetId, board_id: world.boardId, folder_id: world.boardId, name: 'Budget', kind: 'text', row_version: 1 },
  });
  expect(attr.statusCode).toBe(200);
});
afterAll(() => world.close());

/** The owner's device, with an item (and optionally its Budget) saved and synced. */
async function setUp(name: string, budget?: string) {
  const w = wire();
  const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
  const item = newItem(world, { name, position: 1 });
  await c.engine.save('item', item, { teamId: world.teamId });
  if (budget !== undefined) {
    const id = valueIdFor(item.id, budgetId);
    await c.engine.save('value', { id, board_id: world.boardId, item_id: item.id, attribute_id: budgetId, value: budget, row_version: 0 }, { teamId: world.teamId });
  }
  await c.engine.idle();
  // The board's attributes, as an open board has them (the inbox names a value by its attribute).
  await c.engine.openBoard(world.teamId, world.boardId);
  await c.engine.idle();
  expect(await c.db.relaxed.failedRequests.count()).toBe(0);
  const offline = () => {
    w.down = true;
    c.engine.connection.networkFailure();
  };
  const online = async () => {
    w.down = false;
    c.engine.connection.browserOnline();
    await c.engine.idle();
  };
  return { c, item, offline, online };
}

/** The member saves online, over the server's current copy. */
async function memberSaves(route: string, id: string, fields: Record<string, unknown>) {
  const current = await serverCopy(world, route, id);
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/${route}/${encodeURIComponent(id)}`, {
    token: member.token,
    body: { ...current, ...fields, row_version: current.row_version + 1, updated_at: undefined, created_at: undefined, created_by: undefined },
  });
  expect(res.statusCode).toBe(200);
}

describe('field merge after a 409', () => {
  it('an offline rename and an online move of the same item both land, with no conflict', async () => {
    const { c, item, offline, online } = await setUp('Café supplies');
    try {
      offline();
      await c.engine.save('item', { ...(await c.local('item', item.id))!, name: 'Café supplies (member)' });
      await memberSaves('items', item.id, { position: 7 });
      await online();
      expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Café supplies (member)', position: 7 });
      expect(await c.local('item', item.id)).toMatchObject({ name: 'Café supplies (member)', position: 7 });
      expect(await c.db.relaxed.conflicts.count()).toBe(0);
      expect(await c.db.relaxed.failedRequests.count()).toBe(0);
      expect(c.of('conflict')).toHaveLength(0);
    } finally {
      c.close();
    }
  });

  it('both renamed: one conflict holding mine, theirs and base; keep mine saves it over the current copy', async () => {
    const { c, item, offline, online } = await setUp('Café supplies');
    try {
      offline();
      await c.engine.save('item', { ...(await c.local('item', item.id))!, name: 'Café supplies (member)', position: 3 });
      await memberSaves('items', item.id, { name: 'Café supplies (owner)' });
      await online();
      // The position only I changed landed; the name is theirs, and mine waits in one conflict row.
      expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Café supplies (owner)', position: 3 });
      const rows = await c.db.relaxed.conflicts.toArray();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: 'field', collection: 'item', id: item.id, item_id: item.id, field: 'name', text: true, mine: 'Café supplies (member)', theirs: 'Café supplies (owner)', base: 'Café supplies', team_id: world.teamId });
      expect(rows[0]!.theirs_at).toBeTruthy();
      expect(c.of('conflicts')).toMatchObject([{ count: 1, added: [{ field: 'name' }], removed: [] }]);
      // The toast's data: the row with the item's and the field's names.
      expect(c.of('conflict')).toMatchObject([{ seq: rows[0]!.seq, field: 'name', label: { item: 'Café supplies (owner)', field: 'name' } }]);
      const inbox = await c.engine.conflictInbox();
      expect(inbox).toMatchObject([{ type: 'conflict', seq: rows[0]!.seq, label: { item: 'Café supplies (owner)', field: 'name' } }]);

      expect(await c.engine.resolveConflict(rows[0]!.seq!, 'mine')).toBe('resolved');
      await c.engine.idle();
      expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Café supplies (member)', position: 3 });
      expect(await c.db.relaxed.conflicts.count()).toBe(0);
      expect(c.of('conflicts').at(-1)).toMatchObject({ count: 0, removed: [rows[0]!.seq] });
    } finally {
      c.close();
    }
  });

  it('a value both changed is a conflict of that value (item, attribute, both values); keep theirs drops it', async () => {
    const { c, item, offline, online } = await setUp('Office move', '50');
    const id = valueIdFor(item.id, budgetId);
    try {
      offline();
      await c.engine.save('value', { ...(await c.local('value', id))!, value: '90' });
      await c.engine.save('item', { ...(await c.local('item', item.id))!, name: 'Office move (renamed offline)' });
      await memberSaves('values', id, { value: '120' });
      await online();
      expect(await serverCopy(world, 'values', id)).toMatchObject({ value: '120' });
      // The rename was not touched by anyone else: it landed.
      expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Office move (renamed offline)' });
      const rows = await c.db.relaxed.conflicts.toArray();
      expect(rows).toMatchObject([{ kind: 'field', collection: 'value', id, item_id: item.id, attribute_id: budgetId, field: 'value', mine: '90', theirs: '120', base: '50' }]);
      expect(c.of('conflict')).toMatchObject([{ field: 'value', mine: '90', theirs: '120', label: { item: expect.stringMatching(/^Office move/), field: 'Budget' } }]);
      const inbox = await c.engine.conflictInbox();
      expect(inbox[0]).toMatchObject({ type: 'conflict', label: { item: 'Office move (renamed offline)', field: 'Budget' } });

      expect(await c.engine.resolveConflict(rows[0]!.seq!, 'theirs')).toBe('resolved');
      await c.engine.idle();
      expect(await c.db.relaxed.conflicts.count()).toBe(0);
      expect(await serverCopy(world, 'values', id)).toMatchObject({ value: '120' });
      expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    } finally {
      c.close();
    }
  });
});
