import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import type { AppContext } from '../../server/context';

/** POST /api/broadcasting/multi-auth: who may subscribe to which channel, and that the signatures work. */

async function createTeam(ctx: AppContext, ownerId: number) {
  return ctx.db
    .insertInto('teams')
    .values({ name: 'Team', owner_id: ownerId, permissions: JSON.stringify({}), use_custom_logo: false, row_version: 1, created_at: ctx.now(), updated_at: ctx.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

async function addMember(ctx: AppContext, teamId: number, userId: number, verified = true) {
  await ctx.db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role: 'full-member', verified_at: verified ? ctx.now() : null, invited_by: null, created_at: ctx.now() })
    .execute();
}

async function createBoard(ctx: AppContext, teamId: number, id: string, createdBy: number, extra: Record<string, unknown> = {}) {
  const data = { id, team_id: teamId, board_id: id, parent_id: null, name: 'Board ' + id, row_version: 1, created_at: ctx.now().toISOString(), created_by: createdBy, ...extra };
  await ctx.db
    .insertInto('records')
    .values({ collection: 'folder', id, team_id: teamId, board_id: id, row_version: 1, data: JSON.stringify(data), created_by: createdBy, created_at: ctx.now(), updated_at: ctx.now() })
    .execute();
}

describe('multi-auth', () => {
  let server: TestServer;
  let base: string;
  let owner: Awaited<ReturnType<typeof createUserWithToken>>;
  let member: Awaited<ReturnType<typeof createUserWithToken>>;
  let invited: Awaited<ReturnType<typeof createUserWithToken>>;
  let stranger: Awaited<ReturnType<typeof createUserWithToken>>;
  let teamId: number;
  let otherTeamId: number;

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    base = await server.listen();
    owner = await createUserWithToken(server.ctx, { name: 'Olga Owner' });
    member = await createUserWithToken(server.ctx, { name: 'Milo Member' });
    invited = await createUserWithToken(server.ctx);
    stranger = await createUserWithToken(server.ctx);
    teamId = (await createTeam(server.ctx, owner.user.id)).id;
    otherTeamId = (await createTeam(server.ctx, stranger.user.id)).id;
    await addMember(server.ctx, teamId, member.user.id);
    await addMember(server.ctx, teamId, invited.user.id, false);
    await createBoard(server.ctx, teamId, 'boardA', owner.user.id);
    await createBoard(server.ctx, otherTeamId, 'boardX', stranger.user.id);
    // A board private to its members (only the owner): other team members may not view it.
    await createBoard(server.ctx, teamId, 'boardPrivate', owner.user.id, { user_ids: [owner.user.id], hidden: true });
  });
  afterAll(() => server.close());

  const auth = (token: string | undefined, channelNames: string[], socketId = '123.456') =>
    api(server.app, 'POST', '/api/broadcasting/multi-auth', { token, body: { socketId, channelNames } });

  it('signs every channel a member may use', async () => {
    const channels = [`private-team.${teamId}.users`, `private-team.${teamId}.permissions`, `private-App.User.${member.user.id}`, `private-team.${teamId}.board.boardA`, `private-user.${teamId}.boardA.timeTracking`];
    const res = await auth(member.token, channels);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...channels].sort());
    for (const channel of channels) {
      expect(body[channel].status).toBe(200);
      expect(body[channel].data.auth).toMatch(/^cairn-key:[0-9a-f]{64}$/);
    }
  });

  it('refuses channels of other users, other teams and boards one cannot see', async () => {
    const mine = `private-team.${teamId}.board.boardA`;
    const channels = [mine, `private-App.User.${owner.user.id}`, `private-team.${otherTeamId}.users`, `private-team.${otherTeamId}.board.boardX`, `private-team.${teamId}.board.missing`, `private-team.${teamId}.board.boardX`, 'private-unknown', 'news'];
    const body = (await auth(member.token, channels)).json();
    expect(body[mine].status).toBe(200);
    for (const channel of channels.slice(1)) expect(body[channel]).toEqual({ status: 403, data: { message: 'This action is unauthorized.' } });
  });

  it('refuses a user without access to the board its channel', async () => {
    const board = `private-team.${teamId}.board.boardA`;
    expect((await auth(stranger.token, [board])).json()[board].status).toBe(403);
    // A pending invitation is not membership yet.
    expect((await auth(invited.token, [board, `private-team.${teamId}.users`])).json()[board].status).toBe(403);
    expect((await auth(owner.token, [board])).json()[board].status).toBe(200);
  });

  it('follows board membership: a team member outside a restricted board is refused it', async () => {
    const restricted = [`private-team.${teamId}.board.boardPrivate`, `private-user.${teamId}.boardPrivate.timeTracking`];
    const forMember = (await auth(member.token, restricted)).json();
    for (const channel of restricted) expect(forMember[channel].status).toBe(403);
    const forOwner = (await auth(owner.token, restricted)).json();
    for (const channel of restricted) expect(forOwner[channel].status).toBe(200);
  });

  it('refuses guests every channel, and asks a stale token to refresh (401)', async () => {
    const channels = [`private-team.${teamId}.users`, `private-App.User.${member.user.id}`];
    const guest = await auth(undefined, channels);
    expect(guest.statusCode).toBe(200);
    for (const channel of channels) expect(guest.json()[channel].status).toBe(403);
    const stale = await auth('not-a-token', channels);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().type).toBe('unauthenticated');
  });

  it('answers bad bodies with a 422 listing the problems', async () => {
    const res = await api(server.app, 'POST', '/api/broadcasting/multi-auth', { token: member.token, body: { socketId: 'abc', channelNames: [] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().type).toBe('validation');
    expect(res.json().data.join(' ')).toContain('socketId');
  });

  it('gives presence channels the member id and name', async () => {
    const channel = `presence-team.${teamId}.board.boardA`;
    const body = (await auth(member.token, [channel])).json();
    expect(body[channel].status).toBe(200);
    expect(JSON.parse(body[channel].data.channel_data)).toEqual({ user_id: String(member.user.id), user_info: { name: 'Milo Member' } });
  });

  it('issues signatures the embedded server accepts (pusher-js, one socket)', async () => {
    const port = Number(new URL(base).port);
    const calls: string[][] = [];
    const client = new Pusher('cairn-key', {
      cluster: 'local',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: {
        customHandler: async ({ socketId, channelName }, callback) => {
          calls.push([channelName]);
          const res = await fetch(`${base}/api/broadcasting/multi-auth`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
            body: JSON.stringify({ socketId, channelNames: [channelName] }),
          });
          const entry = (await res.json())[channelName];
          if (entry.status === 200) callback(null, entry.data);
          else callback(new Error('refused'), null);
        },
      },
    });
    try {
      const outcome = (name: string) =>
        new Promise<string>((resolve) => {
          const channel = client.subscribe(name);
          channel.bind('pusher:subscription_succeeded', () => resolve('ok'));
          channel.bind('pusher:subscription_error', () => resolve('refused'));
        });
      expect(await outcome(`presence-team.${teamId}.board.boardA`)).toBe('ok');
      expect(await outcome(`private-team.${teamId}.board.boardA`)).toBe('ok');
      expect(await outcome(`private-team.${otherTeamId}.board.boardX`)).toBe('refused');
      expect(calls.length).toBe(3);
    } finally {
      client.disconnect();
    }
  });
});
