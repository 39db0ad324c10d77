import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import type { Broadcaster } from '../../server/context';
import { findInvitation, acceptInvitation } from '../../server/workspaces/invitations';

/** Members and invitations: list, count, invite (partial success), resend, accept, role, remove, leave. */

const events: { channel: string; event: string; data: any }[] = [];
const recorder: Broadcaster = {
  async publish(channel, event, data) {
    events.push({ channel, event, data });
  },
};

type SignedIn = Awaited<ReturnType<typeof createUserWithToken>>;

describe('members', () => {
  let server: TestServer;
  let owner: SignedIn;
  let teamId: number;

  async function addMember(role: string, team = teamId): Promise<SignedIn> {
    const u = await createUserWithToken(server.ctx);
    await server.ctx.db.insertInto('team_members').values({ team_id: team, user_id: u.user.id, role: role as never, verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
    return u;
  }

  /** The token in the newest mail to this address. */
  async function tokenMailedTo(email: string): Promise<string> {
    const mails = (await server.outbox()).filter((m) => m.to === email);
    const last = mails[mails.length - 1];
    expect(last, `a mail to ${email}`).toBeDefined();
    const match = /\/register\/invitation\?token=([A-Za-z0-9_%-]+)/.exec(last!.text);
    expect(match).not.toBeNull();
    return decodeURIComponent(match![1]!);
  }

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder });
    owner = await createUserWithToken(server.ctx, { name: 'Olive Owner' });
    // Room for the whole suite: 30 members on this workspace's subscription.
    const sub = await server.ctx.db.insertInto('subscriptions').values({ user_id: owner.user.id, deal: 'pro', limits: JSON.stringify({ workspaces: 3, members: 30 }), version: 8, created_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    const res = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Acme', subscription_id: sub.id } });
    teamId = res.json().data.id;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    events.length = 0;
  });

  describe('listing', () => {
    it('lists verified members with pivot.role and counts them; strangers get 403', async () => {
      const full = await addMember('full-member');
      const res = await api(server.app, 'GET', `/api/teams/${teamId}/members`, { token: full.token });
      expect(res.statusCode).toBe(200);
      const rows = res.json().data;
      expect(rows.find((m: any) => m.id === owner.user.id)).toMatchObject({ name: 'Olive Owner', guest: false, pivot: { role: 'owner', verified: true } });
      expect(rows.find((m: any) => m.id === full.user.id).pivot.role).toBe('full-member');
      const count = await api(server.app, 'GET', `/api/teams/${teamId}/members/count`, { token: full.token });
      expect(count.json()).toEqual({ count: rows.length });
      const stranger = await createUserWithToken(server.ctx);
      for (const path of ['members', 'members/count', 'members/invitations']) {
        const r = await api(server.app, 'GET', `/api/teams/${teamId}/${path}`, { token: stranger.token });
        expect(r.statusCode, path).toBe(403);
      }
    });
  });

  describe('inviting', () => {
    it('invites an unknown email: pending account, pending member, mail with the link, broadcast', async () => {
      const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: 'New.Person@Example.test', role: 'full-member' }], boardId: 'board-1' } });
      expect(res.statusCode).toBe(200);
      const [invited] = res.json().users;
      expect(invited).toMatchObject({ email: 'new.person@example.test', pivot: { role: 'full-member', verified: false } });
      const user = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', invited.id).executeTakeFirstOrThrow();
      expect(user.password_hash).toBeNull();
      const mail = (await server.outbox()).find((m) => m.to === 'new.person@example.test');
      expect(mail?.subject).toBe('Olive Owner invited you to Acme');
      expect(mail?.text).toMatch(/\/register\/invitation\?token=/);
      expect(events.find((e) => e.event === 'member.saved')).toMatchObject({ channel: `private-team.${teamId}.users`, data: { team_id: teamId, member: { id: invited.id } } });

      // Pending: listed as an invitation, not as a member, and not counted.
      const pending = (await api(server.app, 'GET', `/api/teams/${teamId}/members/invitations`, { token: owner.token })).json().data;
      expect(pending.map((m: any) => m.id)).toContain(invited.id);
      const members = (await api(server.app, 'GET', `/api/teams/${teamId}/members`, { token: owner.token })).json().data;
      expect(members.map((m: any) => m.id)).not.toContain(invited.id);

      // The token check other modules use (registering through the invitation).
      const token = await tokenMailedTo('new.person@example.test');
      const found = await findInvitation(server.ctx, token);
      expect(found).toMatchObject({ user_id: invited.id, team_id: teamId, board_id: 'board-1', role: 'full-member' });
      const accepted = await acceptInvitation(server.ctx, token, invited.id);
      expect(accepted).toMatchObject({ team_id: teamId, board_id: 'board-1', member: { pivot: { verified: true } } });
      expect(await findInvitation(server.ctx, token)).toBeNull();
    });

    it('invites an existing user, who accepts with the token and becomes a member', async () => {
      const existing = await createUserWithToken(server.ctx);
      const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: existing.user.email, role: 'restricted-member' }] } });
      expect(res.statusCode).toBe(200);
      expect(res.json().users[0]).toMatchObject({ id: existing.user.id, pivot: { verified: false } });
      // Pending is not membership yet.
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: existing.token })).statusCode).toBe(403);

      const token = await tokenMailedTo(existing.user.email);
      const accept = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: existing.token, body: { token } });
      expect(accept.statusCode).toBe(200);
      expect(accept.json().data).toMatchObject({ team_id: teamId, board_id: null });
      const team = await api(server.app, 'GET', `/api/teams/${teamId}`, { token: existing.token });
      expect(team.json().data.user_role).toBe('restricted-member');
      // A used link does not work twice.
      const again = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: existing.token, body: { token } });
      expect(again.statusCode).toBe(422);
      expect(again.json()).toMatchObject({ message: 'This invitation is not valid.', type: 'invitation_invalid' });
    });

    it('refuses to accept with a bad token, a missing token, or someone else’s invitation', async () => {
      const me = await createUserWithToken(server.ctx);
      const bad = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: me.token, body: { token: 'not-a-real-token' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().message).toBe('This invitation is not valid.');
      const missing = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: me.token, body: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().data).toEqual(['token: is required']);
      const anon = await api(server.app, 'POST', '/api/teams/invitations/accept', { body: { token: 'x' } });
      expect(anon.statusCode).toBe(401);

      const other = await createUserWithToken(server.ctx);
      await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: other.user.email, role: 'full-member' }] } });
      const token = await tokenMailedTo(other.user.email);
      const stolen = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: me.token, body: { token } });
      expect(stolen.statusCode).toBe(403);
      expect(stolen.json().type).toBe('invitation_other_account');
    });

    it('adds the valid addresses and reports the invalid ones in one 422 carrying the users', async () => {
      const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, {
        token: owner.token,
        body: {
          invitations: [
            { email: 'good.one@example.test', role: 'full-member' },
            { email: 'not-an-email', role: 'full-member' },
            { email: 'good.two@example.test', role: 'restricted-member' },
            { email: 'bad.role@example.test', role: 'owner' },
          ],
        },
      });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.type).toBe('invitation_partial');
      expect(body.message).toMatch(/^Some invitations were not sent: /);
      expect(body.data.users.map((u: any) => u.email)).toEqual(['good.one@example.test', 'good.two@example.test']);
      // The spec's words for both faults (W5.11).
      expect(body.data.errors).toEqual(['not-an-email: Please provide a valid email address and select a role.', 'bad.role@example.test: Please provide a valid email address and select a role.']);
      // The users in the error really were added.
      const pending = (await api(server.app, 'GET', `/api/teams/${teamId}/members/invitations`, { token: owner.token })).json().data;
      expect(pending.map((m: any) => m.email)).toEqual(expect.arrayContaining(['good.one@example.test', 'good.two@example.test']));
      expect(pending.map((m: any) => m.email)).not.toContain('bad.role@example.test');
    });

    it('reports an existing member as an error rather than inviting them again', async () => {
      const m = await addMember('full-member');
      const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: m.user.email, role: 'admin' }] } });
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual({ users: [], errors: [`${m.user.email}: is already a member of this workspace`] });
    });

    it('stops at the plan’s member limit, keeping the invitations that fit', async () => {
      const small = await createUserWithToken(server.ctx, { name: 'Small' });
      const created = await api(server.app, 'POST', '/api/teams', { token: small.token, body: { name: 'Tiny' } }); // free plan: 5 members
      const tiny = created.json().data.id;
      const invitations = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => ({ email: `${x}.tiny@example.test`, role: 'full-member' }));
      const res = await api(server.app, 'POST', `/api/teams/${tiny}/members`, { token: small.token, body: { invitations } });
      expect(res.statusCode).toBe(422);
      expect(res.json().data.users).toHaveLength(4); // the owner holds the fifth seat
      expect(res.json().data.errors).toHaveLength(2);
      expect(res.json().data.errors[0]).toMatch(/maximum number of members/);
    });

    it('never seats more than the limit when invitations arrive at the same time', async () => {
      const small = await createUserWithToken(server.ctx);
      const tiny = (await api(server.app, 'POST', '/api/teams', { token: small.token, body: { name: 'Tiny 2' } })).json().data.id;
      const batch = (tag: string) => ({ invitations: ['a', 'b', 'c'].map((x) => ({ email: `${x}.${tag}.race@example.test`, role: 'full-member' })) });
      const results = await Promise.all(['one', 'two'].map((tag) => api(server.app, 'POST', `/api/teams/${tiny}/members`, { token: small.token, body: batch(tag) })));
      const added = results.flatMap((r) => (r.statusCode === 200 ? r.json().users : r.json().data.users));
      expect(added).toHaveLength(4);
      const seats = await server.ctx.db.selectFrom('team_members').select('user_id').where('team_id', '=', tiny).execute();
      expect(seats).toHaveLength(5);
    });

    it('rejects malformed bodies with a clear 422 and non-JSON with 400', async () => {
      const cases: [unknown, string][] = [
        [{}, 'invitations: is required'],
        [{ invitations: [] }, 'invitations: must list at least one invitation'],
        [{ invitations: ['x@example.test'] }, 'invitations.0: each invitation must be an object with email and role'],
      ];
      for (const [body, message] of cases) {
        const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body });
        expect(res.statusCode).toBe(422);
        expect(res.json().data).toEqual([message]);
      }
      const bad = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: '{"invitations": [', headers: { 'content-type': 'application/json' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().type).toBe('bad_request');
    });

    it('lets only members with INVITE_MEMBERS invite (restricted and full members get 403)', async () => {
      for (const role of ['restricted-member', 'full-member']) {
        const m = await addMember(role);
        const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: m.token, body: { invitations: [{ email: `from.${role}@example.test`, role: 'admin' }] } });
        expect(res.statusCode).toBe(403);
      }
      const admin = await addMember('admin');
      const ok = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: admin.token, body: { invitations: [{ email: 'from.admin@example.test', role: 'full-member' }] } });
      expect(ok.statusCode).toBe(200);
    });
  });

  describe('resending', () => {
    it('mails a fresh link that replaces the old one', async () => {
      const res = await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: 'resend.me@example.test', role: 'full-member' }] } });
      const id = res.json().users[0].id;
      const first = await tokenMailedTo('resend.me@example.test');
      const resend = await api(server.app, 'POST', `/api/teams/${teamId}/members/resend`, { token: owner.token, body: { user_id: id } });
      expect(resend.statusCode).toBe(200);
      expect(resend.json().data.id).toBe(id);
      const second = await tokenMailedTo('resend.me@example.test');
      expect(second).not.toBe(first);
      expect(await findInvitation(server.ctx, first)).toBeNull();
      expect(await findInvitation(server.ctx, second)).not.toBeNull();
    });

    it('refuses to resend to a verified member, a missing user_id, or from a restricted member', async () => {
      const m = await addMember('full-member');
      const verified = await api(server.app, 'POST', `/api/teams/${teamId}/members/resend`, { token: owner.token, body: { user_id: m.user.id } });
      expect(verified.statusCode).toBe(422);
      expect(verified.json().message).toBe('This user has no pending invitation to this workspace.');
      const missing = await api(server.app, 'POST', `/api/teams/${teamId}/members/resend`, { token: owner.token, body: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().data).toEqual(['user_id: is required']);
      const r = await addMember('restricted-member');
      expect((await api(server.app, 'POST', `/api/teams/${teamId}/members/resend`, { token: r.token, body: { user_id: m.user.id } })).statusCode).toBe(403);
    });
  });

  describe('roles', () => {
    it('changes a member’s role and broadcasts it', async () => {
      const m = await addMember('restricted-member');
      const res = await api(server.app, 'PUT', `/api/teams/${teamId}/members/${m.user.id}`, { token: owner.token, body: { role: 'admin' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.pivot.role).toBe('admin');
      expect(events.find((e) => e.event === 'member.saved')?.data.member.pivot.role).toBe('admin');
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: m.token })).json().data.user_role).toBe('admin');
    });

    it('never assigns the owner role and never changes the owner', async () => {
      const m = await addMember('full-member');
      const assign = await api(server.app, 'PUT', `/api/teams/${teamId}/members/${m.user.id}`, { token: owner.token, body: { role: 'owner' } });
      expect(assign.statusCode).toBe(422);
      expect(assign.json().data).toEqual(['role: must be one of admin, full-member, restricted-member']);
      const admin = await addMember('admin');
      const demote = await api(server.app, 'PUT', `/api/teams/${teamId}/members/${owner.user.id}`, { token: admin.token, body: { role: 'full-member' } });
      expect(demote.statusCode).toBe(422);
      expect(demote.json().type).toBe('owner_protected');
    });

    it('refuses missing roles, unknown members and members without EDIT_MEMBER_ROLES', async () => {
      const m = await addMember('full-member');
      const missing = await api(server.app, 'PUT', `/api/teams/${teamId}/members/${m.user.id}`, { token: owner.token, body: {} });
      expect(missing.statusCode).toBe(422);
      const stranger = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}/members/${stranger.user.id}`, { token: owner.token, body: { role: 'admin' } })).statusCode).toBe(404);
      const r = await addMember('restricted-member');
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}/members/${r.user.id}`, { token: r.token, body: { role: 'admin' } })).statusCode).toBe(403);
      expect((await api(server.app, 'PUT', `/api/teams/${teamId}/members/${m.user.id}`, { token: stranger.token, body: { role: 'admin' } })).statusCode).toBe(403);
    });
  });

  describe('removing and leaving', () => {
    it('removes a member, who then loses access; broadcasts member.removed', async () => {
      const m = await addMember('full-member');
      const res = await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${m.user.id}`, { token: owner.token });
      expect(res.statusCode).toBe(200);
      expect(events.find((e) => e.event === 'member.removed')).toMatchObject({ channel: `private-team.${teamId}.users`, data: { team_id: teamId, user_id: m.user.id } });
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: m.token })).statusCode).toBe(403);
      expect((await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${m.user.id}`, { token: owner.token })).statusCode).toBe(404);
    });

    it('withdraws a pending invitation, whose link then stops working', async () => {
      const invited = await createUserWithToken(server.ctx);
      await api(server.app, 'POST', `/api/teams/${teamId}/members`, { token: owner.token, body: { invitations: [{ email: invited.user.email, role: 'full-member' }] } });
      const token = await tokenMailedTo(invited.user.email);
      expect((await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${invited.user.id}`, { token: owner.token })).statusCode).toBe(200);
      const accept = await api(server.app, 'POST', '/api/teams/invitations/accept', { token: invited.token, body: { token } });
      expect(accept.statusCode).toBe(422);
    });

    it('never removes the owner, and refuses members without REMOVE_MEMBERS', async () => {
      const admin = await addMember('admin');
      const res = await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${owner.user.id}`, { token: admin.token });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('The workspace owner cannot be removed.');
      const r = await addMember('restricted-member');
      const victim = await addMember('full-member');
      expect((await api(server.app, 'DELETE', `/api/teams/${teamId}/members/${victim.user.id}`, { token: r.token })).statusCode).toBe(403);
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: victim.token })).statusCode).toBe(200);
    });

    it('lets a member leave, but not the owner, and not someone outside', async () => {
      const m = await addMember('full-member');
      const res = await api(server.app, 'DELETE', `/api/teams/${teamId}/leave`, { token: m.token });
      expect(res.statusCode).toBe(200);
      expect((await api(server.app, 'GET', `/api/teams/${teamId}`, { token: m.token })).statusCode).toBe(403);
      const ownerLeaves = await api(server.app, 'DELETE', `/api/teams/${teamId}/leave`, { token: owner.token });
      expect(ownerLeaves.statusCode).toBe(422);
      expect(ownerLeaves.json().message).toMatch(/Transfer ownership or delete the workspace/);
      expect((await api(server.app, 'DELETE', `/api/teams/${teamId}/leave`, { token: m.token })).statusCode).toBe(403);
    });
  });
});
