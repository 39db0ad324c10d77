import type { FastifyInstance } from 'fastify';
import { isInt4Id } from '../http/int-ids';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { requireVerifiedEmail } from '../auth/reauth';
import { ApiError, notFound, parseBody } from '../http/errors';
import { Messages } from '../../schema/messages';
import { Permission, isAssignableRole } from '../../schema/permissions';
import { parseTeamId, requireMemberAccess, requireTeamPermission } from './access';
import { memberRows, memberView, verifiedMemberCount } from './views';
import { acceptInvitation, inviteMembers, resendInvitation, type InvitationRequest } from './invitations';
import { acceptBody, invitationEmail, inviteBody, resendBody, roleBody } from './validators';
import { publishMemberRemoved, publishMemberSaved } from './events';
import { appendMemberEvent } from '../events/member-events';
import { endSubscriptions } from '../realtime/subscriptions';
import { recheckSubscriptions } from '../realtime/recheck';

type IdParams = { Params: { id: string } };
type MemberParams = { Params: { id: string; memberId: string } };

export const OWNER_CANNOT_BE_REMOVED = 'The workspace owner cannot be removed.';
export const OWNER_ROLE_FIXED = "The workspace owner's role cannot be changed. Transfer ownership instead.";
export const OWNER_CANNOT_LEAVE = 'The owner cannot leave the workspace. Transfer ownership or delete the workspace instead.';

function parseMemberId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw) || !isInt4Id(Number(raw))) throw notFound();
  return Number(raw);
}

/** Members and invitations of a workspace (workspace.md §7 "Workspaces and members"). */
export function memberRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<IdParams>('/api/teams/:id/members', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    await requireMemberAccess(ctx, user, teamId);
    const rows = await memberRows(ctx.db, teamId, { pending: false }).execute();
    return { data: rows.map(memberView) };
  });

  app.get<IdParams>('/api/teams/:id/members/count', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    await requireMemberAccess(ctx, user, teamId);
    return { count: await verifiedMemberCount(ctx.db, teamId) };
  });

  app.get<IdParams>('/api/teams/:id/members/invitations', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    await requireMemberAccess(ctx, user, teamId);
    const rows = await memberRows(ctx.db, teamId, { pending: true }).execute();
    return { data: rows.map(memberView) };
  });

  app.post<IdParams>('/api/teams/:id/members', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team } = await requireTeamPermission(ctx, user, teamId, Permission.INVITE_MEMBERS);
    requireVerifiedEmail(user);
    const body = parseBody(inviteBody, request.body);
    // Sort the list: well-formed entries are sent, the others become errors beside the users added.
    const valid: InvitationRequest[] = [];
    const invalid: string[] = [];
    body.invitations.forEach((entry, index) => {
      const email = invitationEmail.safeParse(entry.email);
      const label = typeof entry.email === 'string' && entry.email.trim() ? entry.email.trim() : `invitations.${index}`;
      // One text for both faults, in the spec's words (workspace.md §8, W5.11).
      if (!email.success || !isAssignableRole(entry.role)) invalid.push(`${label}: ${Messages.invitationInvalid}`);
      else valid.push({ email: email.data, role: entry.role });
    });
    const outcome = await inviteMembers(ctx, { team, inviter: user, invitations: valid, boardId: body.boardId ?? null, invalid });
    if (outcome.errors.length > 0) {
      const message = outcome.users.length > 0 ? `Some invitations were not sent: ${outcome.errors.join('; ')}` : Messages.validationPrefix + outcome.errors.join(', ');
      throw new ApiError(422, message, 'invitation_partial', { users: outcome.users, errors: outcome.errors });
    }
    return { users: outcome.users };
  });

  app.post<IdParams>('/api/teams/:id/members/resend', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team } = await requireTeamPermission(ctx, user, teamId, Permission.INVITE_MEMBERS);
    requireVerifiedEmail(user);
    const body = parseBody(resendBody, request.body);
    return { data: await resendInvitation(ctx, { team, inviter: user, userId: body.user_id }) };
  });

  app.put<MemberParams>('/api/teams/:id/members/:memberId', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const memberId = parseMemberId(request.params.memberId);
    const { team } = await requireTeamPermission(ctx, user, teamId, Permission.EDIT_MEMBER_ROLES);
    const body = parseBody(roleBody, request.body);
    if (memberId === team.owner_id) throw new ApiError(422, OWNER_ROLE_FIXED, 'owner_protected', [`role: ${OWNER_ROLE_FIXED}`]);
    const updated = await ctx.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('team_members').select(['role', 'verified_at']).where('team_id', '=', teamId).where('user_id', '=', memberId).forUpdate().executeTakeFirst();
      if (!before) return false;
      await trx.updateTable('team_members').set({ role: body.role }).where('team_id', '=', teamId).where('user_id', '=', memberId).execute();
      // A pending invitee is not a member yet: their role change is no member event.
      if (before.verified_at && before.role !== body.role) {
        await appendMemberEvent(trx, { teamId, type: 'member.updated', userId: memberId, actorId: user.id, before: { role: before.role }, after: { role: body.role }, now: ctx.now() });
      }
      return true;
    });
    if (!updated) throw notFound();
    // A pending invitee's open link carries the new role too.
    await ctx.db.updateTable('invitations').set({ role: body.role }).where('team_id', '=', teamId).where('user_id', '=', memberId).where('accepted_at', 'is', null).execute();
    const view = memberView(await memberRows(ctx.db, teamId, { userId: memberId }).executeTakeFirstOrThrow());
    await publishMemberSaved(ctx, teamId, view);
    // What the member may follow changed with the role: subscriptions now refused end.
    await recheckSubscriptions(ctx, { teamId, userId: memberId });
    return { data: view };
  });

  app.delete<MemberParams>('/api/teams/:id/members/:memberId', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const memberId = parseMemberId(request.params.memberId);
    const { team } = await requireTeamPermission(ctx, user, teamId, Permission.REMOVE_MEMBERS);
    if (memberId === team.owner_id) throw new ApiError(422, OWNER_CANNOT_BE_REMOVED, 'owner_protected', [`user: ${OWNER_CANNOT_BE_REMOVED}`]);
    const removed = await removeMember(ctx, teamId, memberId, user.id);
    if (!removed) throw notFound();
    return { data: { id: memberId } };
  });

  app.delete<IdParams>('/api/teams/:id/leave', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team } = await requireMemberAccess(ctx, user, teamId);
    if (team.owner_id === user.id) throw new ApiError(422, OWNER_CANNOT_LEAVE, 'owner_protected', [OWNER_CANNOT_LEAVE]);
    await removeMember(ctx, teamId, user.id, user.id);
    return { data: { id: teamId } };
  });

  app.post('/api/teams/invitations/accept', async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(acceptBody, request.body);
    const accepted = await acceptInvitation(ctx, body.token, user.id);
    return { data: accepted };
  });
}

/** Removes a member or pending invitee with their open invitations; false when there was none. */
async function removeMember(ctx: AppContext, teamId: number, userId: number, actorId: number): Promise<boolean> {
  const removed = await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('invitations').where('team_id', '=', teamId).where('user_id', '=', userId).where('accepted_at', 'is', null).execute();
    const gone = await trx.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).returning(['user_id', 'role', 'verified_at']).executeTakeFirst();
    if (gone?.verified_at) await appendMemberEvent(trx, { teamId, type: 'member.removed', userId, actorId, before: { user_id: userId, role: gone.role }, after: null, now: ctx.now() });
    return gone;
  });
  if (!removed) return false;
  await publishMemberRemoved(ctx, teamId, userId);
  // Their open sockets get nothing more of this workspace (decision 0090).
  endSubscriptions(ctx.db, { teamId, userId });
  return true;
}
