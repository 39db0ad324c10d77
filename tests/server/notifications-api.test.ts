import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { waitFor } from '../helpers/wait';
import { createRealtime, type PusherConstructor, type RealtimeEvent } from '../../sync-worker/realtime';
import { insertNotifications, type NotificationDraft } from '../../server/notifications/store';
import { VAPID_KEYS_FILE } from '../../server/notifications/vapid';
import { NOTIFICATION_TYPES, NotificationEvents, type Notification } from '../../schema/notifications';
import { issueTokens } from '../../server/auth/tokens';
import { addMember, board, createTeam, folder, item, type SignedIn } from './sync-fixtures';

/**
 * The notifications API of workspace.md §4 on a real server and database: list pages, unread
 * count, marks that touch only the caller's own, read-all, per-type settings, device tokens
 * (removed on logout), following items, and the realtime events on private-App.User.{id}.
 * Notifications are written with the store here; the consumer suite makes them from real writes.
 */

describe('notifications API', () => {
  let server: TestServer;
  let url: string;
  let alice: SignedIn;
  let bob: SignedIn;
  let seq = 0;

  /** Writes notifications for a user straight into the store (the API is what is tested here). */
  async function seed(userId: number, count: number, fields: Partial<NotificationDraft> = {}): Promise<string[]> {
    const drafts: NotificationDraft[] = Array.from({ length: count }, () => ({
      user_id: userId,
      notification_type: 'comment_created',
      dedupe_key: `seed:${++seq}`,
      item_name: `Item ${seq}`,
      ...fields,
    }));
    const rows = await insertNotifications(server.ctx.db, drafts, server.ctx.now());
    return rows.map((r) => String(r.id));
  }

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
  });
  afterAll(() => server?.close());

  it('lists the caller’s own notifications newest first, page by page, with the record of workspace.md §3', async () => {
    const ids = await seed(alice.user.id, 5);
    await seed(bob.user.id, 2);
    const first = await api(server.app, 'GET', '/api/notifications?limit=2', { token: alice.token });
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json<{ data: Notification[]; after: string | null; has_more: boolean }>();
    expect(page1.data.map((n) => n.id)).toEqual([ids[4], ids[3]]);
    expect(page1.has_more).toBe(true);
    expect(page1.after).toBe(ids[3]);
    expect(Object.keys(page1.data[0]!).sort()).toEqual(
      [
        'id', 'notification_type', 'item_id', 'folder_id', 'board_id', 'comment_id', 'template_id', 'team_id', 'subscribeable_type', 'subscribeable_id',
        'read_at', 'created_at', 'created_by_name', 'board_name', 'item_name', 'attribute_name', 'template_name', 'form_name', 'body', 'usage', 'limit',
      ].sort(),
    );
    const rest = (await api(server.app, 'GET', `/api/notifications?limit=10&after=${page1.after}`, { token: alice.token })).json();
    expect(rest.data.map((n: Notification) => n.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest).toMatchObject({ has_more: false, after: null });
    // Bob's are not in Alice's list.
    expect(rest.data.every((n: Notification) => ids.includes(n.id))).toBe(true);
    expect((await api(server.app, 'GET', '/api/notifications?after=abc', { token: alice.token })).statusCode).toBe(422);
    expect((await api(server.app, 'GET', '/api/notifications?limit=1000', { token: alice.token })).statusCode).toBe(422);
    expect((await api(server.app, 'GET', '/api/notifications')).statusCode).toBe(401);
  });

  it('marks read and unread only the caller’s own, keeps the count in step, and filters unread', async () => {
    const user = await createUserWithToken(server.ctx);
    const mine = await seed(user.user.id, 3);
    const bobs = await seed(bob.user.id, 1);
    const count = async (token: string) => (await api(server.app, 'GET', '/api/notifications/unread-count', { token })).json().unread_count;
    const bobBefore = await count(bob.token);
    expect(await count(user.token)).toBe(3);

    const read = await api(server.app, 'PUT', '/api/notifications/read', { token: user.token, body: { notification_ids: [mine[0], Number(mine[1]), bobs[0]] } });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.map((n: Notification) => n.id).sort()).toEqual([mine[0], mine[1]].sort());
    expect(read.json().data.every((n: Notification) => n.read_at !== null)).toBe(true);
    expect(await count(user.token)).toBe(1);
    expect(await count(bob.token), 'someone else’s id changes nothing').toBe(bobBefore);

    const unreadOnly = (await api(server.app, 'GET', '/api/notifications?unread=1', { token: user.token })).json();
    expect(unreadOnly.data.map((n: Notification) => n.id)).toEqual([mine[2]]);

    const unread = await api(server.app, 'PUT', '/api/notifications/unread', { token: user.token, body: { notification_ids: [mine[0]] } });
    expect(unread.json().data.map((n: Notification) => [n.id, n.read_at])).toEqual([[mine[0], null]]);
    expect(await count(user.token)).toBe(2);

    for (const body of [{}, { notification_ids: [] }, { notification_ids: ['x'] }, { notification_ids: [1], extra: true }]) {
      const bad = await api(server.app, 'PUT', '/api/notifications/read', { token: user.token, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(await count(user.token), 'a refused call marks nothing').toBe(2);
  });

  it('judges names by the read rule when listed: an item now hidden or in the trash shows none; a board no longer viewable neither', async () => {
    const teamId = await createTeam(server.ctx, alice.user.id);
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    const b = board({ name: 'Roadmap' });
    const open = item(b.id, { name: 'Open item' });
    const moved = item(b.id, { name: 'Secret plan' });
    const hidden = folder(b.id, { hidden: true, user_ids: [alice.user.id] });
    for (const [route, body] of [['folders', b], ['folders', hidden], ['items', open], ['items', moved]] as const) {
      const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${body.id}`, { token: alice.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
    const about = (it: { id: string; name: string }) => ({ team_id: teamId, board_id: b.id, folder_id: b.id, item_id: it.id, item_name: it.name, board_name: 'Roadmap', body: `words on ${it.name}`, created_by_name: 'Alice' });
    const [openId] = await seed(bob.user.id, 1, about(open));
    const [movedId] = await seed(bob.user.id, 1, about(moved));
    const listed = async () => new Map((await api(server.app, 'GET', '/api/notifications?limit=50', { token: bob.token })).json<{ data: Notification[] }>().data.map((n) => [n.id, n]));
    expect((await listed()).get(movedId!)).toMatchObject({ item_name: 'Secret plan', board_name: 'Roadmap', body: 'words on Secret plan' });

    // The item moves into a folder Bob may not see: its names are gone from his list; the other stays.
    const stored = (await server.ctx.db.selectFrom('records').select(['data', 'row_version']).where('id', '=', moved.id).executeTakeFirstOrThrow()) as { data: Record<string, unknown>; row_version: number };
    const move = await api(server.app, 'PUT', `/api/${teamId}/items/${moved.id}`, { token: alice.token, body: { ...stored.data, folder_id: hidden.id, row_version: stored.row_version + 1 } });
    expect(move.statusCode, move.body).toBe(200);
    let list = await listed();
    expect(list.get(movedId!)).toMatchObject({ item_id: moved.id, item_name: null, body: null, attribute_name: null, board_name: 'Roadmap', created_by_name: 'Alice' });
    expect(list.get(openId!)).toMatchObject({ item_name: 'Open item', body: 'words on Open item' });
    // Marking it read answers the judged copy too.
    const marked = await api(server.app, 'PUT', '/api/notifications/read', { token: bob.token, body: { notification_ids: [movedId] } });
    expect(marked.json().data[0]).toMatchObject({ id: movedId, item_name: null, body: null });

    // The other item goes to the trash; then Bob leaves the workspace: no board name either.
    expect((await api(server.app, 'DELETE', `/api/${teamId}/items/${open.id}`, { token: alice.token })).statusCode).toBe(200);
    expect((await listed()).get(openId!)).toMatchObject({ item_name: null, body: null, board_name: 'Roadmap' });
    await server.ctx.db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', bob.user.id).execute();
    list = await listed();
    expect(list.get(openId!)).toMatchObject({ item_name: null, board_name: null });
  });

  it('read-all marks what existed up to read_at and leaves a later one unread', async () => {
    const user = await createUserWithToken(server.ctx);
    await seed(user.user.id, 3);
    const readAt = server.ctx.now();
    server.advance(1000);
    const later = await seed(user.user.id, 1);
    const res = await api(server.app, 'PUT', '/api/notifications/read-all', { token: user.token, body: { read_at: readAt.toISOString() } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ read_at: readAt.toISOString() });
    const unread = (await api(server.app, 'GET', '/api/notifications?unread=true', { token: user.token })).json();
    expect(unread.data.map((n: Notification) => n.id)).toEqual(later);
    expect((await api(server.app, 'PUT', '/api/notifications/read-all', { token: user.token, body: { read_at: 'yesterday' } })).statusCode).toBe(422);
    // Without read_at: now.
    expect((await api(server.app, 'PUT', '/api/notifications/read-all', { token: user.token, body: {} })).statusCode).toBe(200);
    // last_id: the newest notification the count was taken through, read or not.
    const newest = Math.max(...(await api(server.app, 'GET', '/api/notifications', { token: user.token })).json().data.map((n: Notification) => Number(n.id)));
    expect((await api(server.app, 'GET', '/api/notifications/unread-count', { token: user.token })).json()).toEqual({ unread_count: 0, last_id: newest });
  });

  it('keeps per-type settings; a type switched off in the app creates no notification', async () => {
    const user = await createUserWithToken(server.ctx);
    const initial = (await api(server.app, 'GET', '/api/me/notification-settings', { token: user.token })).json();
    expect(Object.keys(initial.data).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(initial.data.comment_created).toEqual({ in_app: true, email: true, push: true });

    const put = await api(server.app, 'PUT', '/api/me/notification-settings', { token: user.token, body: { comment_created: { in_app: false }, comment_mentioned: { email: false } } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.comment_created).toEqual({ in_app: false, email: true, push: true });
    expect(put.json().data.comment_mentioned).toEqual({ in_app: true, email: false, push: true });
    // A later partial change keeps the earlier one.
    const again = await api(server.app, 'PUT', '/api/me/notification-settings', { token: user.token, body: { comment_created: { push: false } } });
    expect(again.json().data.comment_created).toEqual({ in_app: false, email: true, push: false });

    expect(await seed(user.user.id, 1, { notification_type: 'comment_created' })).toEqual([]);
    expect(await seed(user.user.id, 1, { notification_type: 'comment_mentioned' })).toHaveLength(1);

    for (const body of [{ no_such_type: { in_app: false } }, { comment_created: { in_app: 'no' } }, { comment_created: { sms: true } }]) {
      const bad = await api(server.app, 'PUT', '/api/me/notification-settings', { token: user.token, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await api(server.app, 'GET', '/api/me/notification-settings', { token: user.token })).json().data.comment_created).toEqual({ in_app: false, email: true, push: false });
  });

  it('writes the same notification once however often its cause is handled', async () => {
    const user = await createUserWithToken(server.ctx);
    const draft: NotificationDraft = { user_id: user.user.id, notification_type: 'comment_mentioned', dedupe_key: 'event-42:comment_mentioned' };
    expect(await insertNotifications(server.ctx.db, [draft], server.ctx.now())).toHaveLength(1);
    expect(await insertNotifications(server.ctx.db, [draft], server.ctx.now())).toHaveLength(0);
    expect((await api(server.app, 'GET', '/api/notifications/unread-count', { token: user.token })).json().unread_count).toBe(1);
  });

  describe('device tokens', () => {
    const browserKey = crypto.createECDH('prime256v1');
    browserKey.generateKeys();
    const keys = { p256dh: browserKey.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
    const subscription = (endpoint: string, k: Record<string, string> = keys) => JSON.stringify({ endpoint, expirationTime: null, keys: k });
    const rows = (userId: number) => server.ctx.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();

    it('saves a Web Push subscription, refuses what is not one or points somewhere it must not, and deletes it', async () => {
      const user = await createUserWithToken(server.ctx);
      const token = subscription('https://push.example.com/send/abc');
      const res = await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token } });
      expect(res.statusCode, res.body).toBe(204);
      expect(await rows(user.user.id)).toMatchObject([{ endpoint: 'https://push.example.com/send/abc' }]);
      // Twice is still one.
      await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token } });
      expect(await rows(user.user.id)).toHaveLength(1);

      for (const bad of ['not json', '{"endpoint":"https://push.example.com/x"}', subscription('http://push.example.com/x'), subscription('https://127.0.0.1/x'), subscription('https://localhost/x'), subscription('https://[::1]/x'), subscription('https://metadata.internal/x'), subscription('https://push.example.com/x', { ...keys, p256dh: 'BPcMbnWQL5GOYX' }), subscription('https://push.example.com/x', { ...keys, auth: 'short' })]) {
        const answer = await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token: bad } });
        expect(answer.statusCode, bad).toBe(422);
        expect(answer.json().message).toMatch(/^Validation Error: token: /);
      }
      expect((await api(server.app, 'POST', '/api/notifications/device-tokens', { body: { token } })).statusCode).toBe(401);
      expect(await rows(user.user.id)).toHaveLength(1);

      // Someone else cannot delete it.
      await api(server.app, 'DELETE', '/api/notifications/device-tokens', { token: bob.token, body: { token } });
      expect(await rows(user.user.id)).toHaveLength(1);
      expect((await api(server.app, 'DELETE', '/api/notifications/device-tokens', { token: user.token, body: { token } })).statusCode).toBe(204);
      expect(await rows(user.user.id)).toHaveLength(0);
    });

    it('removes the session’s device tokens on logout and keeps those of the user’s other sessions', async () => {
      const user = await createUserWithToken(server.ctx);
      const second = await issueTokens(server.ctx.db, user.user.id, server.ctx.now());
      await api(server.app, 'POST', '/api/notifications/device-tokens', { token: user.token, body: { token: subscription('https://push.example.com/one') } });
      await api(server.app, 'POST', '/api/notifications/device-tokens', { token: second.access_token, body: { token: subscription('https://push.example.com/two') } });
      expect(await rows(user.user.id)).toHaveLength(2);
      expect((await api(server.app, 'POST', '/api/auth/logout', { token: user.token, body: {} })).statusCode).toBe(200);
      expect((await rows(user.user.id)).map((r) => r.endpoint)).toEqual(['https://push.example.com/two']);
    });

    it('gives the VAPID public key, generated once into DATA_DIR', async () => {
      const res = await api(server.app, 'GET', '/api/notifications/vapid-public-key', { token: alice.token });
      expect(res.statusCode).toBe(200);
      const key = res.json().public_key as string;
      expect(key).toMatch(/^[A-Za-z0-9_-]{80,90}$/);
      const file = JSON.parse(fs.readFileSync(path.join(server.ctx.config.dataDir, VAPID_KEYS_FILE), 'utf8'));
      expect(file.publicKey).toBe(key);
      expect(res.body).not.toContain(file.privateKey);
      expect((await api(server.app, 'GET', '/api/notifications/vapid-public-key')).statusCode).toBe(401);
    });
  });

  describe('following an item', () => {
    it('follows and unfollows an item the caller may read; refuses one they may not', async () => {
      const teamId = await createTeam(server.ctx, alice.user.id);
      await addMember(server.ctx, teamId, bob.user.id, 'full-member');
      const stranger = await createUserWithToken(server.ctx);
      const b = board();
      const hidden = folder(b.id, { hidden: true, user_ids: [alice.user.id] });
      const open = item(b.id);
      const secret = item(b.id, { folder_id: hidden.id });
      for (const [route, body] of [['folders', b], ['folders', hidden], ['items', open], ['items', secret]] as const) {
        const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${body.id}`, { token: alice.token, body });
        expect(res.statusCode, res.body).toBe(200);
      }
      const follow = (method: 'GET' | 'PUT' | 'DELETE', token: string, itemId = open.id) => api(server.app, method, `/api/${teamId}/items/${itemId}/follow`, { token });
      expect((await follow('GET', bob.token)).json()).toEqual({ following: false });
      expect((await follow('PUT', bob.token)).json()).toEqual({ following: true });
      expect((await follow('GET', bob.token)).json()).toEqual({ following: true });
      expect((await follow('DELETE', bob.token)).json()).toEqual({ following: false });
      expect((await follow('GET', bob.token)).json()).toEqual({ following: false });
      expect((await follow('PUT', bob.token, secret.id)).statusCode).toBe(403);
      expect((await follow('PUT', stranger.token)).statusCode).toBe(403);
      expect((await follow('PUT', bob.token, 'no-such-item')).statusCode).toBe(404);
      expect((await api(server.app, 'PUT', `/api/${teamId}/items/${open.id}/follow`)).statusCode).toBe(401);
      expect((await follow('PUT', alice.token, secret.id)).json()).toEqual({ following: true });
    });
  });

  describe('realtime on private-App.User.{id}', () => {
    const stops: Array<() => void> = [];
    afterAll(() => stops.forEach((stop) => stop()));

    async function listen(token: string, userId: number) {
      const events: RealtimeEvent[] = [];
      const errors: Error[] = [];
      const realtime = createRealtime({
        appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port: Number(new URL(url).port), useTLS: false } },
        apiBase: url,
        getToken: () => token,
        fetch: (input, init) => fetch(input, init),
        onEvent: (event) => events.push(event),
        onError: (error) => errors.push(error),
        onConnectionChange: () => {},
        Pusher: Pusher as unknown as PusherConstructor,
        authBatchMs: 5,
        origin: null,
      });
      stops.push(() => realtime.stop());
      const subscribed = await realtime.subscribeUser(userId).then(
        () => true,
        () => false,
      );
      return { events, errors, subscribed };
    }

    it('tells the user’s sockets of read marks and read-all, and nobody else may listen there', async () => {
      const user = await createUserWithToken(server.ctx);
      const [id] = await seed(user.user.id, 1);
      const own = await listen(user.token, user.user.id);
      expect(own.subscribed).toBe(true);
      const intruder = await listen(bob.token, user.user.id);
      expect(intruder.subscribed, 'another user’s channel is refused').toBe(false);

      await api(server.app, 'PUT', '/api/notifications/read', { token: user.token, body: { notification_ids: [id] } });
      await waitFor(() => own.events.some((e) => e.event === NotificationEvents.saved), 5000, 'notification saved');
      const saved = own.events.find((e) => e.event === NotificationEvents.saved)!;
      expect(saved.data).toMatchObject({ id, read_at: expect.any(String) });

      const res = await api(server.app, 'PUT', '/api/notifications/read-all', { token: user.token, body: {} });
      await waitFor(() => own.events.some((e) => e.event === NotificationEvents.allRead), 5000, 'all notifications read');
      expect(own.events.find((e) => e.event === NotificationEvents.allRead)!.data).toEqual(res.json());
      expect(intruder.events).toEqual([]);
    });
  });
});
