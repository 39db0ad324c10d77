import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { createRealtime, type PusherConstructor, type Realtime, type RealtimeEvent } from '../../sync-worker/realtime';
import { PusherBroadcaster, embeddedServerOf, externalForm } from '../../server/realtime/broadcaster';
import { endSubscriptions } from '../../server/realtime/subscriptions';
import { addMember, attribute, board, folder, item, newId, teamWithRoles, value, type SignedIn, type TeamFixture } from './sync-fixtures';
import { waitFor } from '../helpers/wait';

/**
 * Realtime shows only what reads show (decision 0090), with real pusher-js clients (the worker's
 * realtime client, multi-auth included) on the embedded server: a member kept out of a hidden
 * folder gets none of its records (items, values, comments, reactions, time entries) while an open
 * folder's arrive; another user's personal view and a private time entry never arrive; and a
 * subscription ends with the right to it (member removed, session logged out, board made private,
 * password added).
 */


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('realtime read scope', () => {
  let server: TestServer;
  let t: TeamFixture;
  let url: string;
  let port: number;
  /** A full member let into the hidden folder by name: same role as the one kept out. */
  let insider: SignedIn;
  const stops: Array<() => void> = [];
  const b = board({ name: 'Scoped board' });
  const hidden = folder(b.id, { name: 'Hidden folder', hidden: true });
  const open = folder(b.id, { name: 'Open folder' });
  const text = attribute(b.id, { name: 'Notes' });
  const sharedTime = attribute(b.id, { name: 'Time', kind: 'time-tracking', settings: {} });
  const privateTime = attribute(b.id, { name: 'Private time', kind: 'time-tracking', settings: { sharedEntries: false } });

  const put = (route: string, body: Record<string, unknown>, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${String(body.id)}`, { token, body });
  async function save(route: string, body: Record<string, unknown>, token = t.owner.token) {
    const res = await put(route, body, token);
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return body;
  }

  /** A reader: the worker's realtime client with the user's token, subscribed to a board. */
  async function reader(token: string, boardId: string, teamId = t.teamId) {
    const events: RealtimeEvent[] = [];
    const errors: Error[] = [];
    const signals: string[] = [];
    const realtime: Realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port, useTLS: false } },
      apiBase: url,
      getToken: () => token,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => events.push(event),
      onError: (error) => errors.push(error),
      onConnectionChange: (signal) => signals.push(signal),
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 5,
      origin: null,
    });
    stops.push(() => realtime.stop());
    await realtime.subscribeBoard(teamId, boardId);
    /** Ids of the records that arrived (saved or deleted). */
    const ids = () => new Set(events.map((e) => (e.data as { id?: string } | null)?.id).filter(Boolean));
    const json = () => JSON.stringify(events);
    return { realtime, events, errors, signals, ids, json };
  }

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    port = Number(new URL(url).port);
    t = await teamWithRoles(server.ctx);
    // The hidden folder lets in the owner and the insider; the full member is kept out.
    insider = await createUserWithToken(server.ctx);
    await addMember(server.ctx, t.teamId, insider.user.id, 'full-member');
    Object.assign(hidden, { user_ids: [t.owner.user.id, insider.user.id] });
    for (const [route, body] of [['folders', b], ['folders', hidden], ['folders', open], ['attributes', text], ['attributes', sharedTime], ['attributes', privateTime]] as const) await save(route, body);
  });
  afterAll(async () => {
    for (const stop of stops.splice(0)) stop();
    await server.close();
  });

  it('gives a member kept out of a hidden folder none of its records, and every record of an open folder', async () => {
    const member = await reader(t.full.token, b.id);
    const owner = await reader(t.owner.token, b.id);
    const named = await reader(insider.token, b.id);

    const made: Record<'hidden' | 'open', string[]> = { hidden: [], open: [] };
    for (const where of ['hidden', 'open'] as const) {
      const f = where === 'hidden' ? hidden : open;
      const it = await save('items', item(b.id, { folder_id: f.id, name: `${where} item` }));
      const v = await save('values', value(b.id, String(it.id), text.id, `${where} value`));
      const comment = await save('comments', { id: newId(), board_id: b.id, item_id: it.id, text: { html: `<p>${where} comment</p>` }, row_version: 1 });
      const reaction = await save('comment-reaction', { id: newId(), board_id: b.id, comment_id: comment.id, reaction: '👍', row_version: 1 });
      const entry = await save('time-tracking', { id: newId(), board_id: b.id, item_id: it.id, attribute_id: sharedTime.id, started_at: '2026-01-01T10:00:00.000Z', ended_at: '2026-01-01T11:00:00.000Z', row_version: 1 });
      made[where].push(String(it.id), String(v.id), String(comment.id), String(reaction.id), String(entry.id));
    }
    // Records of an open folder that are still someone else's: a personal view and a private time entry.
    const openItem = made.open[0]!;
    const personal = await save('folder-views', { id: newId(), board_id: b.id, folder_id: open.id, name: 'Mine', kind: 'table', visibility: 'personal', owner_id: t.owner.user.id, row_version: 1 });
    const shared = await save('folder-views', { id: newId(), board_id: b.id, folder_id: open.id, name: 'Ours', kind: 'table', visibility: 'shared', row_version: 1 });
    const privateEntry = await save('time-tracking', { id: newId(), board_id: b.id, item_id: openItem, attribute_id: privateTime.id, started_at: '2026-01-02T10:00:00.000Z', ended_at: '2026-01-02T11:00:00.000Z', row_version: 1 });
    // An edit of the hidden item, then a last open record: once it is there, everything before it is too.
    await save('items', { ...item(b.id, { id: made.hidden[0], folder_id: hidden.id, name: 'hidden item, edited' }), row_version: 2 });
    const last = await save('items', item(b.id, { folder_id: open.id, name: 'last' }));

    await waitFor(() => [member, owner, named].every((r) => r.ids().has(String(last.id))), 5000, 'the last record');
    for (const id of [...made.open, String(shared.id)]) expect(member.ids(), `open record ${id}`).toContain(id);
    for (const id of made.hidden) expect(member.ids(), `hidden record ${id}`).not.toContain(id);
    expect(member.ids()).not.toContain(String(personal.id));
    expect(member.ids()).not.toContain(String(privateEntry.id));
    expect(member.json()).not.toContain('hidden');
    // The owner may read all of it: the filter is per reader, not a blanket cut.
    for (const id of [...made.hidden, ...made.open, String(personal.id), String(privateEntry.id)]) expect(owner.ids(), `owner gets ${id}`).toContain(id);
    // A member of the same role named in the folder's member list reads it: readers are judged by
    // who they are, not only by role.
    for (const id of [...made.hidden, ...made.open]) expect(named.ids(), `insider gets ${id}`).toContain(id);
    expect(named.ids()).not.toContain(String(personal.id));
    expect(named.ids()).not.toContain(String(privateEntry.id));
    // The time-tracking channel follows the same rule.
    const timeEvents = member.events.filter((e) => e.scope === 'timeTracking').map((e) => (e.data as { data?: { id?: string } }).data?.id);
    expect(timeEvents).toContain(made.open[4]);
    expect(timeEvents).not.toContain(made.hidden[4]);
    expect(timeEvents).not.toContain(String(privateEntry.id));
  });

  it("ends a removed member's subscription: their socket gets nothing more", async () => {
    const leaving = await createUserWithToken(server.ctx);
    await addMember(server.ctx, t.teamId, leaving.user.id, 'full-member');
    const gone = await reader(leaving.token, b.id);
    const witness = await reader(t.full.token, b.id);
    const before = await save('items', item(b.id, { folder_id: open.id, name: 'before removal' }));
    await waitFor(() => gone.ids().has(String(before.id)), 5000, 'the record before removal');

    const res = await api(server.app, 'DELETE', `/api/teams/${t.teamId}/members/${leaving.user.id}`, { token: t.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const after = await save('items', item(b.id, { folder_id: open.id, name: 'after removal' }));
    await waitFor(() => witness.ids().has(String(after.id)), 5000, 'the witness to get the record');
    await sleep(300);
    expect(gone.ids()).not.toContain(String(after.id));
    // Asked again after the close, the board channel is refused.
    await waitFor(() => gone.errors.length > 0, 5000, 'the refusal');
    expect(gone.realtime.channels()).not.toContain(`private-team.${t.teamId}.board.${b.id}`);
  });

  it('lets a client whose subscriptions were ended come back where it still may (close 4210, authorised again)', async () => {
    const stays = await createUserWithToken(server.ctx);
    await addMember(server.ctx, t.teamId, stays.user.id, 'full-member');
    const back = await reader(stays.token, b.id);
    // What a revocation point does; this user keeps every right, so everything comes back.
    expect(endSubscriptions(server.ctx.db, { userId: stays.user.id })).toBe(1);
    await waitFor(() => back.signals.includes('reconnected'), 5000, 'the reconnect');
    // pusher-js asks multi-auth again for the board channel; the server knows whose it is once more.
    const channel = `private-team.${t.teamId}.board.${b.id}`;
    await waitFor(() => embeddedServerOf(server.ctx.broadcaster)!.holdersOf(channel).some((h) => h.userId === stays.user.id), 5000, 'the subscription again');
    const after = await save('items', item(b.id, { folder_id: open.id, name: 'after the re-authorisation' }));
    await waitFor(() => back.ids().has(String(after.id)), 5000, 'the record after the re-authorisation');
    expect(back.ids()).toContain(String(after.id));
    expect(back.errors).toEqual([]);
  });

  it("ends a logged-out session's subscriptions", async () => {
    const session = await createUserWithToken(server.ctx);
    await addMember(server.ctx, t.teamId, session.user.id, 'full-member');
    const out = await reader(session.token, b.id);
    const witness = await reader(t.full.token, b.id);
    const res = await api(server.app, 'POST', '/api/auth/logout', { token: session.token, body: {} });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const after = await save('items', item(b.id, { folder_id: open.id, name: 'after logout' }));
    await waitFor(() => witness.ids().has(String(after.id)), 5000, 'the witness to get the record');
    await sleep(300);
    expect(out.ids()).not.toContain(String(after.id));
  });

  it('sends an external cluster content-free pings only: no record, no id, no time-tracking copy', async () => {
    // The embedded server stands in for the external cluster (it speaks the same HTTP API).
    const external = new PusherBroadcaster({ appId: 'cairn', key: 'cairn-key', secret: server.ctx.config.pusher.secret, host: '127.0.0.1', port, useTLS: false });
    const listener = await reader(t.owner.token, b.id);
    const secret = item(b.id, { folder_id: hidden.id, name: 'external secret' });
    const entry = { id: newId(), board_id: b.id, item_id: secret.id, attribute_id: sharedTime.id };
    await external.publishMany([
      { channel: `private-team.${t.teamId}.board.${b.id}`, event: 'saved', data: { collection: 'item', data: secret } },
      { channel: `private-team.${t.teamId}.board.${b.id}`, event: 'saved', data: { collection: 'value', data: value(b.id, secret.id, text.id, 'x') } },
      { channel: `private-user.${t.teamId}.${b.id}.timeTracking`, event: 'TimeEntrySaved', data: { collection: 'time_entry', data: entry } },
      { channel: `private-team.${t.teamId}.board.${b.id}`, event: 'refresh', data: { collection: 'folder', data: hidden } },
    ]);
    await waitFor(() => listener.events.some((e) => e.event === 'refresh'), 5000, 'the refresh');
    const got = listener.events.map((e) => e.event);
    // One ping for the write (two records), then the refresh; nothing on the time-tracking channel.
    expect(got).toEqual(['changed', 'refresh']);
    expect(listener.json()).not.toContain(secret.id);
    expect(listener.json()).not.toContain(hidden.id);
    expect(listener.json()).not.toContain('external secret');
  });

  it('sends an external cluster only a ping on the member and permission channels (no e-mail)', () => {
    const member = { user_id: 7, email: 'someone@example.test', role: 'full-member' };
    const users = externalForm({ channel: `private-team.${t.teamId}.users`, event: 'member.saved', data: { team_id: t.teamId, member } });
    const permissions = externalForm({ channel: `private-team.${t.teamId}.permissions`, event: 'saved', data: { collection: 'permission', data: { id: 'p1' } } });
    expect(users).toEqual({ channel: `private-team.${t.teamId}.users`, event: 'changed', data: { team_id: t.teamId } });
    expect(permissions).toEqual({ channel: `private-team.${t.teamId}.permissions`, event: 'changed', data: { team_id: t.teamId } });
    // The user's own channel is theirs alone and keeps its content.
    const own = { channel: 'private-App.User.7', event: 'notification', data: { id: 'n1' } };
    expect(externalForm(own)).toEqual(own);
  });

  describe('a board whose access narrows', () => {
    let outsider: SignedIn;
    beforeAll(() => {
      outsider = t.stranger;
    });

    for (const change of ['made private', 'given a password'] as const) {
      it(`ends an outsider's subscription when the board is ${change}`, async () => {
        const pub = await save('folders', board({ name: `Public board (${change})`, is_public: true }));
        const visitor = await reader(outsider.token, String(pub.id));
        const witness = await reader(t.full.token, String(pub.id));
        const before = await save('items', item(String(pub.id), { name: 'public news' }));
        await waitFor(() => visitor.ids().has(String(before.id)), 5000, 'the public record');

        const res =
          change === 'made private'
            ? await put('folders', { ...pub, is_public: false, row_version: 2 })
            : await api(server.app, 'PUT', `/api/${t.teamId}/boards/${String(pub.id)}/password`, { token: t.owner.token, body: { password: 'sesame' } });
        expect(res.statusCode, res.body).toBe(200);
        const after = await save('items', item(String(pub.id), { name: 'members only now' }));
        await waitFor(() => witness.ids().has(String(after.id)), 5000, 'the witness to get the record');
        await sleep(300);
        expect(visitor.ids()).not.toContain(String(after.id));
        await waitFor(() => visitor.errors.length > 0, 5000, 'the refusal');
      });
    }
  });
});
