import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { api } from '../helpers/test-server';
import { waitFor } from '../helpers/wait';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { valueIdFor } from '../../schema/records';
import { compactChangeLog } from '../../server/sync/compaction';
import { addMember, createClient, createWorld, newItem, serverCopy, wire, type World } from './harness';

/**
 * Issue #31 part 6, decision 0351: a device offline past the change log's retention period comes
 * back. The real engine on fake-indexeddb against the real server: while it is away another member
 * edits and removes records for good, and the server compacts its log 91 days later, dropping
 * those removals. The device's cursor is older than the board's horizon: /changes says to load the
 * board again, the reload takes out what no longer exists, and every offline edit lands (merged
 * field by field), becomes a conflict, or stays a draft: nothing is lost.
 */

const DAY = 86_400_000;
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

async function memberSaves(route: string, id: string, fields: Record<string, unknown>) {
  const current = await serverCopy(world, route, id);
  const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/${route}/${encodeURIComponent(id)}`, {
    token: member.token,
    body: { ...current, ...fields, row_version: current.row_version + 1, updated_at: undefined, created_at: undefined, created_by: undefined },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a device offline past the change log retention', () => {
  it(
    'loads the board again, loses what was removed for good meanwhile, and its queued edits land, merge or conflict',
    async () => {
      const w = wire();
      const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
      const merged = newItem(world, { name: 'Merge me', position: 1 });
      const clash = newItem(world, { name: 'Both rename', position: 2 });
      const removed = newItem(world, { name: 'Removed for good', position: 3 });
      await c.engine.save('item', merged, { teamId: world.teamId });
      await c.engine.save('item', clash, { teamId: world.teamId });
      await c.engine.save('item', removed, { teamId: world.teamId });
      const budget = valueIdFor(merged.id, budgetId);
      await c.engine.save('value', { id: budget, board_id: world.boardId, item_id: merged.id, attribute_id: budgetId, value: '90', row_version: 0 }, { teamId: world.teamId });
      await c.engine.idle();
      await c.engine.openBoard(world.teamId, world.boardId);
      await c.engine.idle();
      expect(await c.db.relaxed.failedRequests.count()).toBe(0);
      expect(await c.local('value', budget)).toBeTruthy();
      const cursorKey = `cursor:${world.teamId}`;
      const oldCursor = (await c.db.relaxed.meta.get(cursorKey))!.value as number;

      // Away: the device edits offline (queued) and keeps a draft.
      w.down = true;
      c.engine.connection.networkFailure();
      await c.engine.save('item', { ...(await c.local('item', merged.id))!, name: 'Merge me (mine)' }, { teamId: world.teamId });
      await c.engine.save('item', { ...(await c.local('item', clash.id))!, name: 'Both rename (mine)' }, { teamId: world.teamId });
      const fresh = newItem(world, { name: 'Made while away', position: 9 });
      await c.engine.save('item', fresh, { teamId: world.teamId });
      const draft = newItem(world, { name: 'Half-typed draft', position: 10 });
      await c.engine.addDraft('item', draft);
      expect(await c.db.relaxed.failedRequests.count()).toBe(3);

      // Meanwhile, online: the member moves one item, renames another, removes a value and an item for good.
      await memberSaves('items', merged.id, { position: 5 });
      await memberSaves('items', clash.id, { name: 'Both rename (theirs)' });
      for (let n = 0; n < 5; n += 1) await memberSaves('items', clash.id, { position: 2 + n / 10 });
      expect((await api(world.server.app, 'DELETE', `/api/${world.teamId}/values/${budget}`, { token: member.token })).statusCode).toBeLessThan(300);
      expect((await api(world.server.app, 'DELETE', `/api/${world.teamId}/items/${removed.id}?permanent=1`, { token: world.owner.token })).statusCode).toBeLessThan(300);

      // 91 days later the server compacts: the removals are dropped, the board's horizon passes our cursor.
      const result = await compactChangeLog(world.server.ctx.db, { retentionMs: 90 * DAY, now: new Date(Date.now() + 91 * DAY) });
      expect(result.tombstones).toBeGreaterThanOrEqual(2);
      const told = await api(world.server.app, 'GET', `/api/${world.teamId}/changes?after=${oldCursor}`, { token: world.owner.token });
      expect(told.json().reindex).toEqual([world.boardId]);
      expect(told.json().data.map((ch: { id: string }) => ch.id)).not.toContain(budget);

      // Back.
      w.down = false;
      c.engine.connection.browserOnline();
      await waitFor(async () => (await c.local('value', budget)) === undefined && (await c.local('item', removed.id)) === undefined, 60_000, 'the reload and the replay');
      await waitFor(async () => (await c.db.relaxed.failedRequests.count()) === 0, 60_000, 'the reload and the replay');
      await c.engine.idle();
      await c.engine.boardComplete(world.teamId, world.boardId);

      // Merged: my name and their position, on the server and here.
      await waitFor(async () => (await serverCopy(world, 'items', merged.id))?.name === 'Merge me (mine)');
      expect(await serverCopy(world, 'items', merged.id)).toMatchObject({ name: 'Merge me (mine)', position: 5 });
      await waitFor(async () => (await c.local('item', merged.id))?.position === 5);
      // Both renamed: theirs stands, mine waits in a conflict.
      expect((await serverCopy(world, 'items', clash.id)).name).toBe('Both rename (theirs)');
      const conflicts = await c.db.relaxed.conflicts.toArray();
      expect(conflicts).toHaveLength(1);
      expect(JSON.stringify(conflicts[0])).toContain('Both rename (mine)');
      // Made while away: on the server. The draft: still here.
      expect(await serverCopy(world, 'items', fresh.id)).toMatchObject({ name: 'Made while away' });
      expect(await c.db.relaxed.drafts.count()).toBe(1);
      // The cursor moved past the horizon: the next catch-up is an ordinary one.
      const now = (await c.db.relaxed.meta.get(cursorKey))!.value as number;
      const again = await api(world.server.app, 'GET', `/api/${world.teamId}/changes?after=${now}`, { token: world.owner.token });
      expect(again.json().reindex).toBeUndefined();
      c.close();
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
