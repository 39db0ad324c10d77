import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { valueIdFor } from '../../schema/records';
import { ConflictSync, PENDING_RESOLUTIONS_KEY } from '../../sync-worker/conflict-sync';
import { addMember, createClient, createWorld, newItem, serverCopy, wire, type Client, type World } from './harness';

/**
 * The user's conflicts across devices (issue #30 parts 2 and 3, decision 0346), the real engine
 * and ConflictSync on fake-indexeddb against the real server: the owner's device A edits a Budget
 * offline while a member sets it online; A's conflict is reported (the server stamps who saved
 * theirs, and writes the activity entry), the owner's device B pulls it, and settling it on A takes
 * it off B. A choice made offline waits and goes on the next pass.
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
    body: { id: budgetId, board_id: world.boardId, folder_id: world.boardId, name: 'Budget', kind: 'number', row_version: 1 },
  });
  expect(attr.statusCode).toBe(200);
});
afterAll(() => world.close());

function syncOf(c: Client) {
  return new ConflictSync({ db: c.db, http: c.http, events: c.events, newId: () => nanoid() });
}

/** Device A with an item whose Budget is 50, then a conflict on it: A set 90 offline, the member 120 online. */
async function conflictOnA() {
  const w = wire();
  const a = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
  const syncA = syncOf(a);
  await syncA.start();
  const item = newItem(world, { name: 'Café supplies', position: 1 });
  await a.engine.save('item', item, { teamId: world.teamId });
  const id = valueIdFor(item.id, budgetId);
  await a.engine.save('value', { id, board_id: world.boardId, item_id: item.id, attribute_id: budgetId, value: 50, row_version: 0 }, { teamId: world.teamId });
  await a.engine.idle();
  await a.engine.openBoard(world.teamId, world.boardId);
  await a.engine.idle();
  w.down = true;
  a.engine.connection.networkFailure();
  await a.engine.save('value', { ...(await a.local('value', id))!, value: 90 });
  const current = await serverCopy(world, 'values', id);
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/values/${encodeURIComponent(id)}`, {
    token: member.token,
    body: { ...current, value: 120, row_version: current.row_version + 1, updated_at: undefined, created_at: undefined, created_by: undefined },
  });
  expect(res.statusCode).toBe(200);
  w.down = false;
  a.engine.connection.browserOnline();
  await a.engine.idle();
  await syncA.sync();
  return { a, w, syncA, item, id };
}

describe('conflicts across devices', () => {
  it('the server stamps who saved each version (updated_by), whatever the body says', async () => {
    const item = newItem(world, { name: 'Stamped', position: 2 });
    const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${item.id}`, { token: member.token, body: { ...item, row_version: 1, updated_by: world.owner.user.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json().updated_by ?? res.json().data?.updated_by).toBe(member.user.id);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ updated_by: member.user.id });
  });

  it('a conflict is reported with who saved theirs, written to the activity for both users, pulled by another device, and settled on one leaves the other', async () => {
    const { a, syncA, item, id } = await conflictOnA();
    const b = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id });
    const syncB = syncOf(b);
    try {
      const rows = await a.db.relaxed.conflicts.toArray();
      expect(rows).toMatchObject([{ kind: 'field', collection: 'value', id, mine: 90, theirs: 120, theirs_by: member.user.id, reported: true }]);
      const key = rows[0]!.key!;
      // The inbox label carries the attribute (kind and options), so the tab shows values in words.
      expect((await a.engine.conflictInbox())[0]).toMatchObject({ type: 'conflict', label: { field: 'Budget', attribute: { id: budgetId, name: 'Budget', kind: 'number' } } });
      expect(key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

      const listed = await api(world.server.app, 'GET', '/api/me/conflicts', { token: world.owner.token });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data).toMatchObject([{ key, team_id: world.teamId, collection: 'value', id, item_id: item.id, attribute_id: budgetId, field: 'value', mine: 90, theirs: 120, theirs_by: member.user.id }]);
      // The member has no conflicts of their own.
      expect((await api(world.server.app, 'GET', '/api/me/conflicts', { token: member.token })).json().data).toEqual([]);

      // The activity entry, read by both users: the owner's 90 was replaced by the member's 120.
      for (const token of [world.owner.token, member.token]) {
        const activity = await api(world.server.app, 'GET', `/api/${world.teamId}/activity?item_id=${item.id}`, { token });
        expect(activity.statusCode).toBe(200);
        const conflicted = activity.json().data.filter((e: { type: string }) => e.type === 'value.conflicted');
        expect(conflicted).toMatchObject([{ actor_id: world.owner.user.id, record_id: id, item_id: item.id, before: { field: 'value', value: 90 }, after: { field: 'value', value: 120, by: member.user.id } }]);
      }
      // Reporting the same key again adds nothing (no second activity entry).
      const again = await api(world.server.app, 'POST', `/api/${world.teamId}/conflicts`, { token: world.owner.token, body: { key, kind: 'field', collection: 'value', id, field: 'value', mine: 90, theirs: 120, item_id: null, attribute_id: null, text: false, base: null, theirs_by: null, theirs_at: null, theirs_row_version: null } });
      expect(again.statusCode).toBe(200);
      expect(again.json().data.added).toBe(false);

      // Device B pulls it: the same row, under the same key, in its inbox.
      await syncB.start();
      const onB = await b.db.relaxed.conflicts.toArray();
      expect(onB).toMatchObject([{ key, reported: true, collection: 'value', id, field: 'value', mine: 90, theirs: 120, theirs_by: member.user.id, team_id: world.teamId }]);
      expect(b.of('conflicts').at(-1)).toMatchObject({ count: 1 });

      // Settled on A: the server's list empties, and B's next pass (the realtime ConflictsChanged) drops it.
      expect(await a.engine.resolveConflict(rows[0]!.seq!, 'theirs')).toBe('resolved');
      await syncA.sync();
      expect((await api(world.server.app, 'GET', '/api/me/conflicts', { token: world.owner.token })).json().data).toEqual([]);
      await syncB.sync();
      expect(await b.db.relaxed.conflicts.count()).toBe(0);
      expect(b.of('conflicts').at(-1)).toMatchObject({ count: 0, removed: [onB[0]!.seq] });
    } finally {
      syncA.stop();
      syncB.stop();
      a.close();
      b.close();
    }
  });

  it('a choice made offline waits in meta and reaches the server on the next pass; a pull meanwhile does not bring the row back', async () => {
    const { a, w, syncA } = await conflictOnA();
    try {
      const [row] = await a.db.relaxed.conflicts.toArray();
      expect(row).toMatchObject({ reported: true });
      w.down = true;
      a.engine.connection.networkFailure();
      expect(await a.engine.resolveConflict(row!.seq!, 'theirs')).toBe('resolved');
      await syncA.sync();
      expect((await a.db.relaxed.meta.get(PENDING_RESOLUTIONS_KEY))?.value).toEqual([row!.key]);
      expect((await api(world.server.app, 'GET', '/api/me/conflicts', { token: world.owner.token })).json().data.map((c: { key: string }) => c.key)).toContain(row!.key);
      w.down = false;
      a.engine.connection.browserOnline();
      await syncA.sync();
      expect((await a.db.relaxed.meta.get(PENDING_RESOLUTIONS_KEY))?.value).toEqual([]);
      expect((await api(world.server.app, 'GET', '/api/me/conflicts', { token: world.owner.token })).json().data.map((c: { key: string }) => c.key)).not.toContain(row!.key);
      expect(await a.db.relaxed.conflicts.count()).toBe(0);
    } finally {
      syncA.stop();
      a.close();
    }
  });

  it('the report route: 422 names the field, 404 for a record the user cannot read, 403 for someone outside the workspace', async () => {
    const bad = await api(world.server.app, 'POST', `/api/${world.teamId}/conflicts`, { token: world.owner.token, body: { key: 'x', kind: 'field', collection: 'nope', id: 'a', field: 'value' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/key/);
    expect(bad.json().message).toMatch(/collection/);
    const missing = await api(world.server.app, 'POST', `/api/${world.teamId}/conflicts`, { token: world.owner.token, body: { key: nanoid(), kind: 'field', collection: 'item', id: nanoid(), field: 'name', mine: 'a', theirs: 'b', item_id: null, attribute_id: null, text: false, base: null, theirs_by: null, theirs_at: null, theirs_row_version: null } });
    expect(missing.statusCode).toBe(404);
    const outsider = await createUserWithToken(world.server.ctx);
    const refused = await api(world.server.app, 'POST', `/api/${world.teamId}/conflicts`, { token: outsider.token, body: {} });
    expect(refused.statusCode).toBe(403);
    const resolveBad = await api(world.server.app, 'POST', '/api/me/conflicts/x/resolve', { token: world.owner.token, body: {} });
    expect(resolveBad.statusCode).toBe(422);
  });
});
