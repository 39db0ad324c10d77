import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { attribute, board, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';
import { registerEventConsumer } from '../../server/events/consumers';
import type { DomainEvent } from '../../server/events/types';

/**
 * Domain events (decision 0110): every committed write appends its events in its own
 * transaction, with before/after of the changed fields; a failed or refused write appends none.
 */
describe('domain events: the transactional outbox', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board();
  const text = attribute(b.id, { name: 'Notes' });
  const seen: DomainEvent[] = [];
  const put = (route: string, rec: Record<string, unknown> & { id: string }, token = t.full.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const eventsOf = async (recordId: string) =>
    (await server.ctx.db.selectFrom('domain_events').selectAll().where('record_id', '=', recordId).orderBy('id').execute()).map((e) => ({ ...e, id: String(e.id) }));

  beforeAll(async () => {
    server = await createTestServer();
    // A consumer that remembers what it got (registered before the first request makes the app ready).
    registerEventConsumer(server.ctx, 'test-recorder', async (event) => {
      seen.push(event);
    });
    t = await teamWithRoles(server.ctx);
    expect((await put('folders', b, t.owner.token)).statusCode).toBe(200);
    expect((await put('attributes', text, t.owner.token)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('a create records the whole record, an update only the changed fields, with actor and item', async () => {
    const it1 = item(b.id, { name: 'First' });
    expect((await put('items', it1)).statusCode).toBe(200);
    expect((await put('items', { ...it1, name: 'Renamed', row_version: 2 })).statusCode).toBe(200);
    const events = await eventsOf(it1.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'item.updated']);
    expect(events[0]).toMatchObject({ team_id: t.teamId, board_id: b.id, collection: 'item', item_id: it1.id, actor_id: t.full.user.id, before: null });
    expect(events[0]!.after).toMatchObject({ id: it1.id, name: 'First', row_version: 1 });
    expect(events[1]).toMatchObject({ before: { name: 'First' }, after: { name: 'Renamed' } });
    // Events share the change log's numbers: the update's event comes after the create's change.
    const changes = await server.ctx.db.selectFrom('change_log').select('seq').where('record_id', '=', it1.id).orderBy('seq').execute();
    expect(Number(events[0]!.id)).toBeGreaterThan(Number(changes[0]!.seq));
    expect(Number(events[1]!.id)).toBeGreaterThan(Number(changes[1]!.seq));
  });

  it('a save that changes nothing but bookkeeping records no event', async () => {
    const it1 = item(b.id);
    await put('items', it1);
    expect((await put('items', { ...it1, row_version: 2 })).statusCode).toBe(200);
    expect((await eventsOf(it1.id)).map((e) => e.type)).toEqual(['item.created']);
  });

  it('values, comments and reactions name their item', async () => {
    const it1 = item(b.id);
    await put('items', it1);
    const v = value(b.id, it1.id, text.id, 'hello');
    expect((await put('values', v)).statusCode).toBe(200);
    const comment = { id: newId(), board_id: b.id, item_id: it1.id, text: { html: '<p>hi</p>' }, row_version: 1 };
    expect((await put('comments', comment)).statusCode).toBe(200);
    const reaction = { id: newId(), comment_id: comment.id, reaction: '🎉' };
    const r = await put('comment-reaction', reaction);
    expect(r.statusCode, r.body).toBe(200);
    expect((await eventsOf(v.id))[0]).toMatchObject({ type: 'value.created', item_id: it1.id });
    expect((await eventsOf(comment.id))[0]).toMatchObject({ type: 'comment.created', item_id: it1.id });
    expect((await eventsOf(reaction.id))[0]).toMatchObject({ type: 'reaction.created', collection: 'comment_reaction', item_id: it1.id });
  });

  it('trash, restore and removal for good are events too', async () => {
    const it1 = item(b.id);
    await put('items', it1);
    const v = value(b.id, it1.id, text.id, 'x');
    await put('values', v);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/items/${it1.id}`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/items/${it1.id}/restore`, { token: t.owner.token })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', `/api/${t.teamId}/values/${v.id}`, { token: t.owner.token })).statusCode).toBe(200);
    const events = await eventsOf(it1.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'item.trashed', 'item.restored']);
    expect(events[1]!.after).toMatchObject({ deleted_at: expect.any(String) });
    expect(events[1]!.before).toMatchObject({ deleted_at: null });
    const removed = (await eventsOf(v.id)).at(-1)!;
    expect(removed).toMatchObject({ type: 'value.deleted', item_id: it1.id, after: null, actor_id: t.owner.user.id });
    expect(removed.before).toMatchObject({ id: v.id, value: 'x' });
  });

  it('a refused or stale save records nothing', async () => {
    const it1 = item(b.id);
    await put('items', it1);
    expect((await put('items', { ...it1, name: 'stale', row_version: 5 })).statusCode).toBe(409);
    const restricted = item(b.id);
    expect((await put('items', { ...restricted, name: 42 as never })).statusCode).toBe(422);
    expect((await eventsOf(it1.id)).map((e) => e.type)).toEqual(['item.created']);
    expect(await eventsOf(restricted.id)).toEqual([]);
  });

  it('a transaction batch with one invalid request writes no event at all', async () => {
    const a = item(b.id);
    const c = item(b.id);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: { transaction: 'tx-events', requests: [{ method: 'put', route: `items/${a.id}`, payload: a }, { method: 'put', route: `items/${c.id}`, payload: { ...c, folder_id: 'nowhere' } }] },
    });
    expect(res.statusCode).toBe(422);
    expect(await eventsOf(a.id)).toEqual([]);
    expect(await eventsOf(c.id)).toEqual([]);
  });

  it('a batch without a transaction records the events of the requests that applied only', async () => {
    const a = item(b.id);
    const c = item(b.id);
    const d = item(b.id);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.full.token,
      body: {
        transaction: null,
        requests: [
          { method: 'put', route: `items/${a.id}`, payload: a },
          { method: 'put', route: `items/${c.id}`, payload: { ...c, row_version: 3 } },
          { method: 'put', route: `items/${d.id}`, payload: d },
          { method: 'put', route: `items/${a.id}`, payload: { ...a, name: 'again', row_version: 2 } },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((r: { status: number }) => r.status)).toEqual([200, 409, 200, 200]);
    expect((await eventsOf(a.id)).map((e) => [e.type, e.after?.name])).toEqual([['item.created', 'Item'], ['item.updated', 'again']]);
    expect(await eventsOf(c.id)).toEqual([]);
    expect((await eventsOf(d.id)).map((e) => e.type)).toEqual(['item.created']);
  });

  it('time tracking: a start is a created entry, and the entry it ends an update', async () => {
    const timer = attribute(b.id, { name: 'Time', kind: 'time-tracking', settings: { allowParallel: false } });
    const it1 = item(b.id);
    expect((await put('attributes', timer, t.owner.token)).statusCode).toBe(200);
    expect((await put('items', it1)).statusCode).toBe(200);
    const start = (description: string) => api(server.app, 'POST', `/api/${t.teamId}/time-tracking`, { token: t.full.token, body: { board_id: b.id, item_id: it1.id, attribute_id: timer.id, description } });
    const first = (await start('design')).json().data;
    const second = (await start('review')).json().data;
    const firstEvents = await eventsOf(first.id);
    expect(firstEvents.map((e) => e.type)).toEqual(['time_entry.created', 'time_entry.updated']);
    expect(firstEvents[1]).toMatchObject({ item_id: it1.id, before: { ended_at: null }, after: { ended_at: expect.any(String) } });
    expect((await eventsOf(second.id)).map((e) => e.type)).toEqual(['time_entry.created']);
  });

  it('member role changes and removals are events of the workspace', async () => {
    const url = `/api/teams/${t.teamId}/members/${t.restricted.user.id}`;
    expect((await api(server.app, 'PUT', url, { token: t.owner.token, body: { role: 'full-member' } })).statusCode).toBe(200);
    expect((await api(server.app, 'DELETE', url, { token: t.owner.token })).statusCode).toBe(200);
    const events = await eventsOf(String(t.restricted.user.id));
    expect(events.map((e) => [e.type, e.before, e.after])).toEqual([
      ['member.updated', { role: 'restricted-member' }, { role: 'full-member' }],
      ['member.removed', { user_id: t.restricted.user.id, role: 'full-member' }, null],
    ]);
    expect(events[0]).toMatchObject({ team_id: t.teamId, board_id: null, actor_id: t.owner.user.id });
  });

  it('a consumer gets every committed event once, in order', async () => {
    await server.ctx.jobs.drain();
    const all = await server.ctx.db.selectFrom('domain_events').select('id').orderBy('id').execute();
    // The recorder was registered before the first write: it saw everything, in id order, once.
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => String(e.id)));
    const it1 = item(b.id);
    await put('items', it1);
    await server.ctx.jobs.drain();
    await server.ctx.jobs.drain();
    expect(seen.filter((e) => e.record_id === it1.id).map((e) => e.type)).toEqual(['item.created']);
    expect(seen.at(-1)).toMatchObject({ type: 'item.created', created_at: expect.stringMatching(/Z$/), after: expect.objectContaining({ id: it1.id }) });
  });
});
