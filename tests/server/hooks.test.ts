import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueTokens } from '../../server/auth/tokens';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, board, createTeam, folder, item, newId, type SignedIn } from './sync-fixtures';
import { startReceiver, type Receiver } from './hooks-receiver';
import { DEACTIVATE_AFTER, DELIVER_JOB, RETRY_SCHEDULE_MS, runDeliveryAttempt } from '../../server/hooks/deliveries';
import { hooksForEvent } from '../../server/hooks/consumer';
import { toEvent, type EventRowFromDb } from '../../server/events/consumers';
import type { Hook, HookLog } from '../../schema/hooks';

/**
 * Webhooks against the real server and a real HTTP receiver on loopback
 * (WEBHOOKS_ALLOW_PRIVATE_TARGETS=true here; the address rules have their own suite): the API
 * and its permissions, signed deliveries from domain events, the retry schedule on the server's
 * clock with one delivery id, order per item, at-least-once runs without double effects, the
 * owner's read access, switching off after 50 failures, redirects, "Send test" and log retention.
 */

describe('webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;
  let teamId: number;
  let alice: SignedIn; // owner
  let bob: SignedIn; // full member, allowed MANAGE_WEBHOOKS by the workspace's entries
  let carol: SignedIn; // admin
  let dave: SignedIn; // restricted member
  let stranger: SignedIn;
  const b = board({ name: 'Roadmap' });
  const hidden = folder(b.id, { name: 'Private', hidden: true });

  async function save(route: string, body: Record<string, unknown>, who: SignedIn) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json();
  }
  const putHook = (id: string, body: unknown, who: SignedIn = alice) => api(server.app, 'PUT', `/api/${teamId}/hooks/${id}`, { token: who.token, body });
  async function createHook(body: Record<string, unknown>, who: SignedIn = alice): Promise<Hook> {
    const res = await putHook(newId(), { url: `${receiver.url}/hook`, events: ['item.created', 'item.updated'], ...body }, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }
  const logsOf = async (hook: Hook, who: SignedIn = alice): Promise<HookLog[]> => {
    const res = await api(server.app, 'GET', `/api/${teamId}/hooks/${hook.id}/logs`, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const drain = () => server.ctx.jobs.drain();
  /** The tests move the clock by hours and days: everyone signs in again (access tokens expire). */
  async function signInAgain() {
    for (const who of [alice, bob, carol, dave, stranger]) who.token = (await issueTokens(server.ctx.db, who.user.id, server.ctx.now())).access_token;
  }
  async function advance(ms: number) {
    server.advance(ms);
    await signInAgain();
  }
  const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const deleteHook = (hook: Hook) => api(server.app, 'DELETE', `/api/${teamId}/hooks/${hook.id}`, { token: alice.token });

  beforeAll(async () => {
    server = await createTestServer({ config: { webhooks: { allowPrivateTargets: true } } });
    receiver = await startReceiver();
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    carol = await createUserWithToken(server.ctx, { name: 'Carol' });
    dave = await createUserWithToken(server.ctx, { name: 'Dave' });
    stranger = await createUserWithToken(server.ctx, { name: 'Stranger' });
    teamId = await createTeam(server.ctx, alice.user.id, { 'MANAGE_WEBHOOKS:role:full-member': 'allow' });
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    await addMember(server.ctx, teamId, carol.user.id, 'admin');
    await addMember(server.ctx, teamId, dave.user.id, 'restricted-member');
    Object.assign(hidden, { user_ids: [alice.user.id] });
    await save('folders', b, alice);
    await save('folders', hidden, alice);
    await drain();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 200, body: 'ok' });
    await signInAgain();
  });
  afterEach(async () => {
    // Each test starts without hooks (their deliveries and logs go with them).
    await server.ctx.db.deleteFrom('hooks').where('team_id', '=', teamId).execute();
    await drain();
  });

  it('creates a hook with a secret shown once, lists it without, and checks the body and the caller', async () => {
    const id = newId();
    const created = await putHook(id, { url: `${receiver.url}/in`, events: ['item.created', 'comment.created'] });
    expect(created.statusCode, created.body).toBe(200);
    const hook: Hook = created.json().data;
    expect(hook).toMatchObject({ id, team_id: teamId, team_name: 'Team', url: `${receiver.url}/in`, events: ['item.created', 'comment.created'], active: true, failures_in_a_row: 0 });
    expect(hook.secret!.length).toBeGreaterThanOrEqual(32);

    const mine = await api(server.app, 'GET', '/api/me/hooks', { token: alice.token });
    const listed = (mine.json().data as Hook[]).find((h) => h.id === id)!;
    expect(listed).toMatchObject({ id, url: hook.url, events: hook.events });
    expect(listed).not.toHaveProperty('secret');
    expect(mine.body).not.toContain(hook.secret!);
    expect((await api(server.app, 'GET', '/api/me/hooks', { token: carol.token })).json().data.map((h: Hook) => h.id)).not.toContain(id);

    // An update answers no secret unless it is rotated; a rotation answers the new one.
    const updated = await putHook(id, { events: ['item.updated'], active: false }, carol);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ events: ['item.updated'], active: false });
    expect(updated.json().data).not.toHaveProperty('secret');
    const rotated = (await putHook(id, { rotate_secret: true })).json().data as Hook;
    expect(rotated.secret!.length).toBeGreaterThanOrEqual(32);
    expect(rotated.secret).not.toBe(hook.secret);

    const bad = async (body: unknown, text: string) => {
      const res = await putHook(newId(), body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toContain(text);
    };
    await bad({ url: 'not a url', events: ['item.created'] }, 'not a valid URL format');
    await bad({ url: 'ftp://example.com/x', events: ['item.created'] }, 'not a valid URL format');
    await bad({ url: `${receiver.url}/x`, events: ['item.deleted'] }, 'events');
    await bad({ url: `${receiver.url}/x`, events: [] }, 'events');
    await bad({ events: ['item.created'] }, 'url');

    // Who may: owner, admin, and here full members (the workspace's entries); not restricted members or outsiders.
    expect((await putHook(newId(), { url: `${receiver.url}/x`, events: ['item.created'] }, bob)).statusCode).toBe(200);
    expect((await putHook(newId(), { url: `${receiver.url}/x`, events: ['item.created'] }, dave)).statusCode).toBe(403);
    expect((await putHook(newId(), { url: `${receiver.url}/x`, events: ['item.created'] }, stranger)).statusCode).toBe(403);
    expect((await api(server.app, 'PUT', `/api/${teamId}/hooks/${newId()}`, { body: { url: `${receiver.url}/x`, events: ['item.created'] } })).statusCode).toBe(401);
    expect((await api(server.app, 'GET', `/api/${teamId}/hooks/${id}/logs`, { token: dave.token })).statusCode).toBe(403);
    expect((await api(server.app, 'DELETE', `/api/${teamId}/hooks/${id}`, { token: stranger.token })).statusCode).toBe(403);

    // Unknown hooks: the catalogue's message.
    for (const [method, path] of [['GET', 'logs'], ['POST', 'test']] as const) {
      const res = await api(server.app, method, `/api/${teamId}/hooks/nope-${newId()}/${path}`, { token: alice.token });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Hook missing or not loaded');
    }
    expect((await deleteHook(hook)).statusCode).toBe(200);
    expect((await api(server.app, 'GET', `/api/${teamId}/hooks/${id}/logs`, { token: alice.token })).statusCode).toBe(404);
  });

  it('delivers a signed JSON body for a saved item, with the record as the API returns it', async () => {
    const hook = await createHook({});
    const task = item(b.id, { name: 'Ship it' });
    const saved = await save('items', task, alice);
    await drain();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-cairn-event']).toBe('item.created');
    expect(got!.headers['x-cairn-delivery']).toBe(got!.body.id);
    expect(got!.headers['x-cairn-signature']).toBe(sign(hook.secret!, got!.raw));
    expect(got!.headers['x-cairn-signature']).not.toBe(sign('another secret', got!.raw));
    expect(got!.body).toMatchObject({ event: 'item.created', team_id: teamId, board_id: b.id, data: { id: task.id, name: 'Ship it' } });
    expect(got!.body.data).toEqual(saved.data ?? saved);
    expect(Object.keys(got!.body).sort()).toEqual(['board_id', 'created_at', 'data', 'event', 'id', 'team_id']);

    // An update carries the record now and what changed; events the hook did not ask for send nothing.
    await save('items', { ...task, name: 'Shipped', row_version: 2 }, alice);
    await save('comments', { id: newId(), board_id: b.id, item_id: task.id, text: { html: '<p>hi</p>' }, row_version: 1 }, alice);
    await drain();
    expect(receiver.received.map((r) => r.body.event)).toEqual(['item.created', 'item.updated']);
    expect(receiver.received[1]!.body).toMatchObject({ data: { id: task.id, name: 'Shipped' }, changes: { before: { name: 'Ship it' }, after: { name: 'Shipped' } } });

    const logs = await logsOf(hook);
    expect(logs.map((l) => [l.event, l.status, l.attempt, l.response_status])).toEqual([
      ['item.updated', 'success', 1, 200],
      ['item.created', 'success', 1, 200],
    ]);
    expect(logs[1]!.delivery_id).toBe(got!.body.id);
    expect(JSON.parse(logs[1]!.request_body!)).toEqual(got!.body);
    expect(logs[1]!.response_body).toBe('ok');
    expect(logs[1]!.duration_ms).toBeGreaterThanOrEqual(0);
    await deleteHook(hook);
  });

  it('retries after about 10 s, 1 min, 5 min, 30 min and 2 h with the same delivery id, then fails', async () => {
    const hook = await createHook({ events: ['item.created'] });
    receiver.respond = () => ({ status: 500, body: 'down' });
    await save('items', item(b.id, { name: 'Flaky' }), alice);
    await drain();
    expect(receiver.received).toHaveLength(1);
    for (const [index, wait] of RETRY_SCHEDULE_MS.entries()) {
      await advance(wait - 2000);
      await drain();
      expect(receiver.received, `not before retry ${index + 2} is due`).toHaveLength(index + 1);
      await advance(2000);
      await drain();
      expect(receiver.received, `retry ${index + 2}`).toHaveLength(index + 2);
    }
    await advance(6 * 3600_000);
    await drain();
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers['x-cairn-delivery'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.raw)).size, 'the same bytes every time').toBe(1);
    const logs = await logsOf(hook);
    expect(logs.map((l) => [l.attempt, l.status])).toEqual([
      [6, 'failed'],
      [5, 'retrying'],
      [4, 'retrying'],
      [3, 'retrying'],
      [2, 'retrying'],
      [1, 'retrying'],
    ]);
    expect(logs[0]).toMatchObject({ response_status: 500, error: 'The target answered 500.', response_body: 'down' });
    const row = await server.ctx.db.selectFrom('hooks').select(['failures_in_a_row', 'active']).where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failures_in_a_row: 1, active: true });
    await deleteHook(hook);
  });

  it('keeps the order per item: later events of an item wait for the one being retried', async () => {
    const hook = await createHook({});
    const task = item(b.id, { name: 'v1' });
    const other = item(b.id, { name: 'other' });
    let failFirst = true;
    receiver.respond = (r) => {
      if (failFirst && r.body.data?.id === task.id) {
        failFirst = false;
        return { status: 503 };
      }
      return { status: 204 };
    };
    await save('items', task, alice);
    await save('items', { ...task, name: 'v2', row_version: 2 }, alice);
    await save('items', { ...task, name: 'v3', row_version: 3 }, alice);
    await save('items', other, alice);
    await drain();
    // The first failed; its item's next two wait; another item's event is not held up (lanes run side by side).
    expect(receiver.received.map((r) => `${r.body.data.id} ${r.body.event}`).sort()).toEqual([`${task.id} item.created`, `${other.id} item.created`].sort());
    await advance(RETRY_SCHEDULE_MS[0]! + 500);
    await drain();
    const mine = receiver.received.filter((r) => r.body.data.id === task.id);
    expect(mine.map((r) => r.body.event)).toEqual(['item.created', 'item.created', 'item.updated', 'item.updated']);
    expect(mine.map((r) => (r.body.changes as { after?: { name?: string } } | undefined)?.after?.name ?? null)).toEqual([null, null, 'v2', 'v3']);
    await deleteHook(hook);
  });

  it('does a delivery once in effect when its job or the consumer runs twice', async () => {
    const hook = await createHook({ events: ['item.created'] });
    receiver.respond = () => ({ status: 500 });
    const task = item(b.id, { name: 'Twice' });
    await save('items', task, alice);
    await drain();
    const delivery = await server.ctx.db.selectFrom('hook_deliveries').selectAll().where('hook_id', '=', hook.id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ state: 'queued', attempts: 1 });

    // The consumer handling the same event again (a batch redone after a crash) adds nothing.
    const eventRow = await server.ctx.db.selectFrom('domain_events').selectAll().where('record_id', '=', task.id).where('type', '=', 'item.created').executeTakeFirstOrThrow();
    await hooksForEvent(toEvent(eventRow as unknown as EventRowFromDb), { db: server.ctx.db, jobs: server.ctx.jobs, now: server.ctx.now });
    expect(await server.ctx.db.selectFrom('hook_deliveries').select('id').where('hook_id', '=', hook.id).execute()).toHaveLength(1);

    // Attempt 1 run again (at least once): already recorded, nothing sent, nothing logged.
    const runtime = { allowPrivate: true };
    await runDeliveryAttempt(server.ctx, runtime, { delivery_id: delivery.id, attempt: 1 });
    expect(receiver.received).toHaveLength(1);
    // Attempt 2 run by two runners at once: both may send (the receiver dedupes by X-Cairn-Delivery),
    // but the attempt is logged once and attempt 3 scheduled once.
    receiver.respond = () => ({ status: 200 });
    await advance(RETRY_SCHEDULE_MS[0]!);
    await Promise.all([runDeliveryAttempt(server.ctx, runtime, { delivery_id: delivery.id, attempt: 2 }), runDeliveryAttempt(server.ctx, runtime, { delivery_id: delivery.id, attempt: 2 })]);
    expect(new Set(receiver.received.map((r) => r.headers['x-cairn-delivery']))).toEqual(new Set([delivery.id]));
    expect((await logsOf(hook)).map((l) => [l.attempt, l.status])).toEqual([
      [2, 'success'],
      [1, 'retrying'],
    ]);
    await drain();
    const after = await server.ctx.db.selectFrom('hook_deliveries').select(['state', 'attempts']).where('id', '=', delivery.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ state: 'done', attempts: 2 });
    expect((await logsOf(hook)).length, 'the queued job of attempt 2 found it done').toBe(2);
    const jobs = (await server.ctx.jobs.inspect(DELIVER_JOB)).length;
    expect(jobs).toBeGreaterThan(0);
    await deleteHook(hook);
  });

  it("delivers only what the hook's owner may read", async () => {
    const bobs = await createHook({ events: ['item.created'] }, bob);
    const alices = await createHook({ events: ['item.created'] }, alice);
    const secret = item(b.id, { name: 'Secret', folder_id: hidden.id });
    await save('items', secret, alice);
    await save('items', item(b.id, { name: 'Open' }), alice);
    await drain();
    const byHook = (h: Hook) => receiver.received.filter((r) => r.headers['x-cairn-signature'] === sign(h.secret!, r.raw)).map((r) => r.body.data.name);
    expect(byHook(alices).sort()).toEqual(['Open', 'Secret']);
    expect(byHook(bobs)).toEqual(['Open']);
    await deleteHook(bobs);
    await deleteHook(alices);
  });

  it('switches a hook off after 50 failed deliveries in a row and tells its owner; a success resets the count', async () => {
    const hook = await createHook({ events: ['item.created'] }, bob);
    // 48 failed deliveries before (each one a full round of six attempts): set the count, then fail the 49th and 50th.
    await server.ctx.db.updateTable('hooks').set({ failures_in_a_row: DEACTIVATE_AFTER - 3 }).where('id', '=', hook.id).execute();
    // A success resets it…
    await save('items', item(b.id, { name: 'ok' }), alice);
    await drain();
    expect((await server.ctx.db.selectFrom('hooks').select('failures_in_a_row').where('id', '=', hook.id).executeTakeFirstOrThrow()).failures_in_a_row).toBe(0);
    await server.ctx.db.updateTable('hooks').set({ failures_in_a_row: DEACTIVATE_AFTER - 2 }).where('id', '=', hook.id).execute();

    receiver.respond = () => ({ status: 500 });
    await save('items', item(b.id, { name: 'fail 49' }), alice);
    await save('items', item(b.id, { name: 'fail 50' }), alice);
    await drain();
    for (const wait of RETRY_SCHEDULE_MS) {
      await advance(wait + 100);
      await drain();
    }
    const row = await server.ctx.db.selectFrom('hooks').select(['active', 'failures_in_a_row', 'deactivated_at']).where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
    expect(row.failures_in_a_row).toBe(DEACTIVATE_AFTER);
    expect(row.deactivated_at).not.toBeNull();
    const inbox = await api(server.app, 'GET', '/api/notifications?limit=50', { token: bob.token });
    expect(inbox.json().data.filter((n: { notification_type: string }) => n.notification_type === 'hook_deactivated')).toMatchObject([{ team_id: teamId, body: hook.url }]);

    // Switched off: nothing more is sent. Switched on again by hand: the count starts afresh.
    const sent = receiver.received.length;
    await save('items', item(b.id, { name: 'after' }), alice);
    await drain();
    expect(receiver.received).toHaveLength(sent);
    const on = await putHook(hook.id, { active: true }, bob);
    expect(on.json().data).toMatchObject({ active: true, failures_in_a_row: 0, deactivated_at: null });
    await deleteHook(hook);
  });

  it('"Send test" answers Connection successful! or the reason, logs it, and follows no redirect', async () => {
    const hook = await createHook({});
    const test = () => api(server.app, 'POST', `/api/${teamId}/hooks/${hook.id}/test`, { token: alice.token });
    const ok = await test();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ message: 'Connection successful!' });
    expect(receiver.received[0]!.headers['x-cairn-event']).toBe('hook.test');
    expect(receiver.received[0]!.headers['x-cairn-signature']).toBe(sign(hook.secret!, receiver.received[0]!.raw));

    receiver.respond = () => ({ status: 404, body: 'no such path' });
    const refused = await test();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('The target answered 404.');

    // A redirect is an answer, not an instruction: the metadata address is never asked.
    receiver.respond = () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    const redirected = await test();
    expect(redirected.statusCode).toBe(422);
    expect(redirected.json().message).toContain('redirects are not followed');
    expect(receiver.received).toHaveLength(3);

    const logs = await logsOf(hook);
    expect(logs.map((l) => [l.event, l.status, l.response_status])).toEqual([
      ['hook.test', 'failed', 302],
      ['hook.test', 'failed', 404],
      ['hook.test', 'success', 200],
    ]);
    await deleteHook(hook);
  });

  it('keeps logs 30 days: the hourly purge removes older ones', async () => {
    const hook = await createHook({});
    await api(server.app, 'POST', `/api/${teamId}/hooks/${hook.id}/test`, { token: alice.token });
    expect(await logsOf(hook)).toHaveLength(1);
    await advance(29 * 24 * 3600_000);
    await drain();
    expect(await logsOf(hook), 'still there after 29 days').toHaveLength(1);
    await advance(2 * 24 * 3600_000);
    // Read straight from the table: the purge job deleted the row (the API also hides old rows).
    await drain();
    expect(await server.ctx.db.selectFrom('hook_logs').select('id').where('hook_id', '=', hook.id).execute()).toEqual([]);
    expect(await logsOf(hook)).toEqual([]);
    await deleteHook(hook);
  });
});
