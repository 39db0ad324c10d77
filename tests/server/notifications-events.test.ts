import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { sql } from 'kysely';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { waitFor } from '../helpers/wait';
import { createRealtime, type PusherConstructor, type RealtimeEvent } from '../../sync-worker/realtime';
import { NotificationEvents, type Notification } from '../../schema/notifications';
import { notifyAutomation, notifyLimit, notifyTemplateShared } from '../../server/notifications/emit';
import { addMember, attribute, board, createTeam, folder, item, newId, value, type SignedIn } from './sync-fixtures';

/**
 * Notifications made by the job runner from real writes (domain events → the notifications
 * consumer → delivery job): each type, never for one's own action, never to someone who cannot
 * read the item, automatic follows and unfollowing, at-least-once handling without duplicates,
 * and the "notification saved" event reaching the recipient's socket.
 */

describe('notifications from domain events', () => {
  let server: TestServer;
  let url: string;
  let teamId: number;
  let alice: SignedIn; // owner
  let bob: SignedIn; // full member
  let carol: SignedIn; // full member
  let dave: SignedIn; // restricted member
  let stranger: SignedIn; // signed in, not in the workspace
  const b = board({ name: 'Roadmap' });
  const hidden = folder(b.id, { name: 'Private', hidden: true });
  const people = attribute(b.id, { name: 'Assignees', kind: 'members' });
  const notes = attribute(b.id, { name: 'Notes' });

  async function save(route: string, body: Record<string, unknown>, who: SignedIn) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json();
  }
  const comment = (itemId: string, html: string, fields: Record<string, unknown> = {}) => ({ id: newId(), board_id: b.id, item_id: itemId, text: { html }, row_version: 1, ...fields });
  const mention = (who: SignedIn) => `<span data-mention="${who.user.id}">@${who.user.name}</span>`;

  /** Every notification of a user, oldest first (straight from the API, as the app sees them). */
  async function inbox(who: SignedIn): Promise<Notification[]> {
    const res = await api(server.app, 'GET', '/api/notifications?limit=100', { token: who.token });
    expect(res.statusCode).toBe(200);
    return (res.json().data as Notification[]).reverse();
  }
  const newSince = async (who: SignedIn, before: Notification[]) => (await inbox(who)).filter((n) => !before.some((o) => o.id === n.id));
  const follows = (who: SignedIn, itemId: string) => api(server.app, 'GET', `/api/${teamId}/items/${itemId}/follow`, { token: who.token }).then((r) => r.json().following as boolean);

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    carol = await createUserWithToken(server.ctx, { name: 'Carol' });
    dave = await createUserWithToken(server.ctx, { name: 'Dave' });
    stranger = await createUserWithToken(server.ctx, { name: 'Stranger' });
    teamId = await createTeam(server.ctx, alice.user.id);
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    await addMember(server.ctx, teamId, carol.user.id, 'full-member');
    await addMember(server.ctx, teamId, dave.user.id, 'restricted-member');
    Object.assign(hidden, { user_ids: [alice.user.id, carol.user.id] });
    for (const [route, body] of [['folders', b], ['folders', hidden], ['attributes', people], ['attributes', notes]] as const) await save(route, body, alice);
    await server.ctx.jobs.drain();
  });
  afterAll(() => server?.close());

  it('tells people added to a members attribute (once each, not the one who added them) and makes them follow', async () => {
    const task = item(b.id, { name: 'Ship it' });
    await save('items', task, alice);
    const [bobBefore, aliceBefore] = [await inbox(bob), await inbox(alice)];
    await save('values', value(b.id, task.id, people.id, [bob.user.id, alice.user.id]), alice);
    await server.ctx.jobs.drain();
    const added = await newSince(bob, bobBefore);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      notification_type: 'members_attribute_added',
      team_id: teamId,
      board_id: b.id,
      folder_id: b.id,
      item_id: task.id,
      attribute_name: 'Assignees',
      item_name: 'Ship it',
      board_name: 'Roadmap',
      created_by_name: 'Alice',
      read_at: null,
    });
    expect(await newSince(alice, aliceBefore), 'nobody is told of their own action').toEqual([]);
    expect(await follows(bob, task.id)).toBe(true);

    // Changing the value tells only who was added now; a text attribute tells nobody.
    const carolBefore = await inbox(carol);
    const bobNow = await inbox(bob);
    await save('values', value(b.id, task.id, people.id, [bob.user.id, carol.user.id], { row_version: 2 }), alice);
    await save('values', value(b.id, task.id, notes.id, 'some words'), alice);
    await server.ctx.jobs.drain();
    expect((await newSince(carol, carolBefore)).map((n) => n.notification_type)).toEqual(['members_attribute_added']);
    expect(await newSince(bob, bobNow)).toEqual([]);
  });

  it('tells followers of an item about a comment; the creator and commenters follow automatically', async () => {
    const task = item(b.id, { name: 'Discuss' });
    await save('items', task, alice);
    await server.ctx.jobs.drain();
    expect(await follows(alice, task.id), 'the creator follows').toBe(true);
    const before = { alice: await inbox(alice), bob: await inbox(bob), carol: await inbox(carol) };

    const first = comment(task.id, '<p>What about <b>Friday</b>?</p>');
    await save('comments', first, bob);
    await server.ctx.jobs.drain();
    expect(await newSince(alice, before.alice)).toMatchObject([{ notification_type: 'comment_created', comment_id: first.id, item_id: task.id, body: 'What about Friday?', created_by_name: 'Bob' }]);
    expect(await newSince(bob, before.bob), 'not for one’s own comment').toEqual([]);
    expect(await follows(bob, task.id), 'a commenter follows').toBe(true);

    const second = comment(task.id, '<p>Friday works.</p>');
    await save('comments', second, carol);
    await server.ctx.jobs.drain();
    expect((await newSince(alice, before.alice)).map((n) => n.comment_id)).toEqual([first.id, second.id]);
    expect((await newSince(bob, before.bob)).map((n) => [n.notification_type, n.comment_id])).toEqual([['comment_created', second.id]]);
    expect(await newSince(carol, before.carol)).toEqual([]);
  });

  it('tells mentioned people once (a mention, not also a comment), and on an edit only the newly mentioned', async () => {
    const task = item(b.id, { name: 'Plan' });
    await save('items', task, alice);
    await save('comments', comment(task.id, '<p>following</p>'), bob);
    await server.ctx.jobs.drain();
    const before = { bob: await inbox(bob), carol: await inbox(carol), dave: await inbox(dave), alice: await inbox(alice) };

    const c = comment(task.id, `<p>${mention(bob)} and ${mention(carol)} please look</p>`);
    await save('comments', c, alice);
    await server.ctx.jobs.drain();
    expect((await newSince(bob, before.bob)).map((n) => n.notification_type)).toEqual(['comment_mentioned']);
    expect(await newSince(carol, before.carol)).toMatchObject([{ notification_type: 'comment_mentioned', comment_id: c.id, body: '@Bob and @Carol please look', created_by_name: 'Alice' }]);
    expect(await follows(carol, task.id), 'a mentioned person follows').toBe(true);

    await save('comments', { ...c, text: { html: `<p>${mention(bob)}, ${mention(carol)} and ${mention(dave)} please look</p>` }, row_version: 2 }, alice);
    await server.ctx.jobs.drain();
    expect((await newSince(dave, before.dave)).map((n) => n.notification_type)).toEqual(['comment_mentioned']);
    expect(await newSince(carol, before.carol), 'an edit does not mention Carol twice').toHaveLength(1);
    expect(await newSince(bob, before.bob)).toHaveLength(1);
    expect(await newSince(alice, before.alice)).toEqual([]);
  });

  it('tells a comment’s author of a reaction by someone else, not of their own', async () => {
    const task = item(b.id, { name: 'React' });
    await save('items', task, alice);
    const c = comment(task.id, '<p>Done!</p>');
    await save('comments', c, alice);
    await server.ctx.jobs.drain();
    const before = await inbox(alice);
    await save('comment-reaction', { id: newId(), board_id: b.id, comment_id: c.id, reaction: '🎉', row_version: 1 }, bob);
    await save('comment-reaction', { id: newId(), board_id: b.id, comment_id: c.id, reaction: '👍', row_version: 1 }, alice);
    await server.ctx.jobs.drain();
    expect(await newSince(alice, before)).toMatchObject([{ notification_type: 'comment_reaction_created', comment_id: c.id, item_id: task.id, body: '🎉', created_by_name: 'Bob' }]);
  });

  it('never tells someone who cannot read the item (hidden folder, outside the workspace)', async () => {
    const secret = item(b.id, { name: 'Secret', folder_id: hidden.id });
    await save('items', secret, alice);
    await save('comments', comment(secret.id, '<p>carol was here</p>'), carol);
    await server.ctx.jobs.drain();
    const before = { bob: await inbox(bob), stranger: await inbox(stranger), carol: await inbox(carol) };
    await save('values', value(b.id, secret.id, people.id, [bob.user.id, carol.user.id]), alice);
    await save('comments', comment(secret.id, `<p>${mention(bob)} ${mention(stranger)} ${mention(carol)} <span data-mention="2000000000">@Ghost</span></p>`), alice);
    await server.ctx.jobs.drain();
    expect(await newSince(bob, before.bob)).toEqual([]);
    expect(await newSince(stranger, before.stranger)).toEqual([]);
    // Carol may read the folder: she gets hers (not vacuous).
    expect((await newSince(carol, before.carol)).map((n) => n.notification_type).sort()).toEqual(['comment_mentioned', 'members_attribute_added']);
    const follow = await server.ctx.db.selectFrom('item_follows').select('user_id').where('item_id', '=', secret.id).execute();
    expect(follow.map((f) => f.user_id)).not.toContain(bob.user.id);
  });

  it('keeps an unfollow: no comment notifications after it, and commenting again does not re-follow', async () => {
    const task = item(b.id, { name: 'Quiet' });
    await save('items', task, alice);
    await save('comments', comment(task.id, '<p>first</p>'), bob);
    await server.ctx.jobs.drain();
    expect((await api(server.app, 'DELETE', `/api/${teamId}/items/${task.id}/follow`, { token: bob.token })).statusCode).toBe(200);
    const before = await inbox(bob);
    await save('comments', comment(task.id, '<p>from alice</p>'), alice);
    await save('comments', comment(task.id, '<p>bob again</p>'), bob);
    await save('comments', comment(task.id, '<p>alice again</p>'), alice);
    await server.ctx.jobs.drain();
    expect(await newSince(bob, before)).toEqual([]);
    expect(await follows(bob, task.id)).toBe(false);
    // A mention still reaches him: it is about him, not about following.
    await save('comments', comment(task.id, `<p>${mention(bob)}?</p>`), alice);
    await server.ctx.jobs.drain();
    expect((await newSince(bob, before)).map((n) => n.notification_type)).toEqual(['comment_mentioned']);

    // Removed for good (not just trashed): its follows go with it.
    const followRows = () => server.ctx.db.selectFrom('item_follows').select('user_id').where('item_id', '=', task.id).execute();
    expect((await followRows()).length).toBeGreaterThan(0);
    expect((await api(server.app, 'DELETE', `/api/${teamId}/items/${task.id}`, { token: alice.token })).statusCode).toBe(200);
    await server.ctx.jobs.drain();
    expect((await followRows()).length, 'a trashed item keeps its followers').toBeGreaterThan(0);
    expect((await api(server.app, 'DELETE', `/api/${teamId}/items/${task.id}?permanent=1`, { token: alice.token })).statusCode).toBe(200);
    await server.ctx.jobs.drain();
    expect(await followRows()).toEqual([]);
  });

  it('tells an item’s followers when someone follows it by hand (user subscribed), not for a second follow', async () => {
    const task = item(b.id, { name: 'Watch me' });
    await save('items', task, alice); // the creator follows
    await server.ctx.jobs.drain();
    const [aliceBefore, bobBefore] = [await inbox(alice), await inbox(bob)];
    const follow = (who: SignedIn) => api(server.app, 'PUT', `/api/${teamId}/items/${task.id}/follow`, { token: who.token });
    expect((await follow(bob)).statusCode).toBe(200);
    expect((await follow(bob)).statusCode).toBe(200); // already following: nobody is told again
    await server.ctx.jobs.drain();
    const told = await newSince(alice, aliceBefore);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ notification_type: 'user_subscribed', subscribeable_type: 'ITEM', subscribeable_id: task.id, item_id: task.id, board_id: b.id, created_by_name: 'Bob' });
    expect(await newSince(bob, bobBefore)).toEqual([]);

    // Carol follows too: both earlier followers are told; the activity log does not list follows.
    const bobNow = await inbox(bob);
    expect((await follow(carol)).statusCode).toBe(200);
    await server.ctx.jobs.drain();
    expect((await newSince(bob, bobNow)).map((n) => n.notification_type)).toEqual(['user_subscribed']);
    const activity = await api(server.app, 'GET', `/api/${teamId}/activity?board_id=${b.id}&item_id=${task.id}`, { token: alice.token });
    expect(JSON.stringify(activity.json())).not.toContain('item.followed');
  });

  it('creates nothing twice when events are handled again (at least once delivery)', async () => {
    const position = async () => (await sql<{ position: string }>`select position from event_consumers where name = 'notifications'`.execute(server.ctx.db)).rows[0]!.position;
    const start = await position();
    const task = item(b.id, { name: 'Twice' });
    await save('items', task, alice);
    await save('comments', comment(task.id, '<p>first</p>'), carol);
    await save('values', value(b.id, task.id, people.id, [bob.user.id]), alice);
    await save('comments', comment(task.id, `<p>${mention(bob)}</p>`), alice);
    await server.ctx.jobs.drain();
    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from notifications`.execute(server.ctx.db)).rows[0]!.n);
    // Through the queue (on PostgreSQL the jobs live in pg-boss's table): delivery, mail and push jobs.
    const jobs = async () => (await Promise.all(['notifications.deliver', 'notifications.mail', 'notifications.push'].map((name) => server.ctx.jobs.inspect(name)))).flat().length;
    const [notifications, queued] = [await count(), await jobs()];
    expect(notifications).toBeGreaterThan(0);
    expect(queued, 'not vacuous: deliveries were queued').toBeGreaterThan(0);
    // Rewind the consumer to before this test's writes: each of their events is handled again.
    expect(await position()).not.toBe(start);
    await sql`update event_consumers set position = ${start} where name = 'notifications'`.execute(server.ctx.db);
    await server.ctx.jobs.drain();
    expect(await count()).toBe(notifications);
    expect(await jobs(), 'no delivery queued again').toBe(queued);
  });

  it('delivers "notification saved" to the recipient’s socket', async () => {
    const events: RealtimeEvent[] = [];
    const realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port: Number(new URL(url).port), useTLS: false } },
      apiBase: url,
      getToken: () => carol.token,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => events.push(event),
      onError: () => {},
      onConnectionChange: () => {},
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 5,
      origin: null,
    });
    try {
      await realtime.subscribeUser(carol.user.id);
      const task = item(b.id, { name: 'Live' });
      await save('items', task, alice);
      const c = comment(task.id, `<p>${mention(carol)} live</p>`);
      await save('comments', c, alice);
      await server.ctx.jobs.drain();
      await waitFor(() => events.some((e) => e.event === NotificationEvents.saved), 5000, 'notification saved');
      const saved = events.find((e) => e.event === NotificationEvents.saved)!;
      expect(saved.data).toMatchObject({ notification_type: 'comment_mentioned', comment_id: c.id, item_id: task.id, read_at: null });
      const listed = (await inbox(carol)).pop()!;
      expect(saved.data).toEqual(listed);
    } finally {
      realtime.stop();
    }
  });

  it('drops a removed member’s follows and notifications of the workspace', async () => {
    const task = item(b.id, { name: 'Leaving' });
    await save('items', task, alice);
    await save('comments', comment(task.id, `<p>${mention(dave)} bye</p>`), alice);
    await server.ctx.jobs.drain();
    const mine = (await inbox(dave)).filter((n) => n.team_id === teamId);
    expect(mine.length).toBeGreaterThan(0);
    expect(await follows(dave, task.id)).toBe(true);
    const res = await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${dave.user.id}`, { token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    await server.ctx.jobs.drain();
    expect((await inbox(dave)).filter((n) => n.team_id === teamId)).toEqual([]);
    const rows = await server.ctx.db.selectFrom('item_follows').select('item_id').where('user_id', '=', dave.user.id).where('team_id', '=', teamId).execute();
    expect(rows).toEqual([]);
  });

  it('offers the later types as functions a job calls: automation, limits, shared template', async () => {
    const task = item(b.id, { name: 'Automated' });
    await save('items', task, alice);
    await server.ctx.jobs.drain();
    const before = { bob: await inbox(bob), stranger: await inbox(stranger), alice: await inbox(alice) };
    server.ctx.jobs.register<{ run: string }>('test.emit', async ({ run }) => {
      const c = { db: server.ctx.db, jobs: server.ctx.jobs, now: server.ctx.now };
      await notifyAutomation(c, `auto:${run}`, { teamId, boardId: b.id, itemId: task.id, body: 'Status changed to Done', userIds: [bob.user.id, stranger.user.id] });
      await notifyAutomation(c, `auto-board:${run}`, { teamId, boardId: b.id, body: 'Weekly summary', userIds: [bob.user.id, stranger.user.id] });
      await notifyLimit(c, `runs:${run}`, { teamId, kind: 'automation_runs', usage: 85, limit: 100, boardId: b.id, userIds: [alice.user.id] });
      await notifyLimit(c, `storage-low:${run}`, { teamId, kind: 'storage', usage: 10, limit: 100, userIds: [alice.user.id] });
      await notifyTemplateShared(c, `template:${run}`, { teamId: null, templateId: 'tpl-1', templateName: 'Sprint', userIds: [bob.user.id], actorId: alice.user.id });
    });
    await server.ctx.jobs.enqueue('test.emit', { run: '1' });
    await server.ctx.jobs.drain();
    expect((await newSince(bob, before.bob)).map((n) => [n.notification_type, n.created_by_name, n.body ?? n.template_name])).toEqual([
      ['automation_item', 'Autobot', 'Status changed to Done'],
      ['automation_board', 'Autobot', 'Weekly summary'],
      ['template_shared', 'Alice', 'Sprint'],
    ]);
    expect(await newSince(stranger, before.stranger), 'not to someone outside the board').toEqual([]);
    expect(await newSince(alice, before.alice)).toMatchObject([{ notification_type: 'automation_runs_warning', usage: 85, limit: 100, board_id: b.id }]);
  });
});
