import crypto from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { hashToken } from '../auth/tokens';
import { createUser, findUserByEmail, normalizeEmail } from '../accounts/service';
import type { UserRow } from '../auth/guard';
import type { AssignableRole } from '../../schema/permissions';
import type { TeamRow } from './access';
import { seatsTaken, MEMBER_LIMIT_MESSAGE } from './subscriptions';
import { subscriptionLimits } from '../billing/limits';
import { memberRows, memberView, type MemberView } from './views';
import { publishMemberSaved } from './events';
import { appendMemberEvent } from '../events/member-events';
import { teamBaseUrl, teamMailer } from '../whitelabel/mail';

/**
 * Invitations: a pending member row (verified_at null) plus an invitation row holding the hash of
 * the token mailed as /register/invitation?token=…. Unknown emails get a pending account
 * (password_hash null) that registering through the link claims.
 *
 * For the accounts module (registering through an invitation):
 *   const invitation = await findInvitation(ctx, token)   // null: not valid
 *   … claimInvitedUser(ctx, { userId: invitation.user_id, … }) …
 *   await acceptInvitation(ctx, token, user.id)
 */

export type InvitationRow = Selectable<Database['invitations']>;

export const INVITATION_INVALID = 'This invitation is not valid.';
export const INVITATION_OTHER_ACCOUNT = 'This invitation was sent to another email address.';

const newInvitationToken = () => crypto.randomBytes(32).toString('base64url');

export function invitationLink(ctx: AppContext, token: string, base = ctx.config.publicUrl): string {
  return `${base.replace(/\/$/, '')}/register/invitation?token=${encodeURIComponent(token)}`;
}

async function sendInvitationMail(ctx: AppContext, opts: { to: string; token: string; team: TeamRow; inviter: UserRow }) {
  // A white-labelled workspace's own address and SMTP server when it has them (decision 0265).
  const link = invitationLink(ctx, opts.token, await teamBaseUrl(ctx, opts.team.id));
  await (await teamMailer(ctx, opts.team.id)).send({
    to: opts.to,
    subject: `${opts.inviter.name} invited you to ${opts.team.name}`,
    text: `${opts.inviter.name} invited you to join the workspace "${opts.team.name}".\n\nAccept the invitation: ${link}\n`,
    html: `<p>${escapeHtml(opts.inviter.name)} invited you to join the workspace <b>${escapeHtml(opts.team.name)}</b>.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Stores a fresh invitation for a pending member (replacing older open ones) and mails the link. */
async function issueInvitation(ctx: AppContext, opts: { team: TeamRow; inviter: UserRow; user: UserRow; role: string; boardId: string | null }) {
  const token = newInvitationToken();
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Only the newest link works: a resend makes the earlier mail useless.
    await trx.deleteFrom('invitations').where('team_id', '=', opts.team.id).where('user_id', '=', opts.user.id).where('accepted_at', 'is', null).execute();
    await trx
      .insertInto('invitations')
      .values({ team_id: opts.team.id, user_id: opts.user.id, email: opts.user.email, role: opts.role, board_id: opts.boardId, token_hash: hashToken(token), invited_by: opts.inviter.id, created_at: now })
      .execute();
  });
  await sendInvitationMail(ctx, { to: opts.user.email, token, team: opts.team, inviter: opts.inviter });
}

export interface InvitationRequest {
  email: string;
  role: AssignableRole;
}

export interface InviteOutcome {
  users: MemberView[];
  /** One sentence per invitation that was not sent. */
  errors: string[];
}

/**
 * Invites each address in turn. Each success stands on its own (a later failure does not undo it),
 * so the caller can answer with the users added and the errors side by side.
 */
export async function inviteMembers(ctx: AppContext, opts: { team: TeamRow; inviter: UserRow; invitations: InvitationRequest[]; boardId: string | null; invalid: string[] }): Promise<InviteOutcome> {
  const users: MemberView[] = [];
  const errors: string[] = [...opts.invalid];
  // The effective limit: the top plan's with BILLING=off (decision 0240).
  const limit = (await subscriptionLimits(ctx, ctx.db, opts.team.subscription_id, ctx.now())).members;
  const seen = new Set<string>();
  for (const invitation of opts.invitations) {
    const email = normalizeEmail(invitation.email);
    if (seen.has(email)) continue; // the same address twice in one list is one invitation
    seen.add(email);
    let user = await findUserByEmail(ctx.db, email);
    const existing = user
      ? await ctx.db.selectFrom('team_members').selectAll().where('team_id', '=', opts.team.id).where('user_id', '=', user.id).executeTakeFirst()
      : undefined;
    if (existing?.verified_at) {
      errors.push(`${email}: is already a member of this workspace`);
      continue;
    }
    if (!existing && (await seatsTaken(ctx.db, opts.team.id)) >= limit) {
      errors.push(`${email}: ${MEMBER_LIMIT_MESSAGE}`);
      continue;
    }
    if (!user) user = await createUser(ctx, { email, name: email.split('@')[0]!, password: null });
    const now = ctx.now();
    if (existing) {
      // Invited again while pending: the new role applies and a fresh link goes out.
      await ctx.db.updateTable('team_members').set({ role: invitation.role, invited_by: opts.inviter.id }).where('team_id', '=', opts.team.id).where('user_id', '=', user.id).execute();
    } else {
      const userId = user.id;
      const seated = await ctx.db.transaction().execute(async (trx) => {
        // The team row lock makes concurrent invitations count seats one after the other.
        await trx.selectFrom('teams').select('id').where('id', '=', opts.team.id).forUpdate().execute();
        if ((await seatsTaken(trx, opts.team.id)) >= limit) return false;
        await trx
          .insertInto('team_members')
          .values({ team_id: opts.team.id, user_id: userId, role: invitation.role, verified_at: null, invited_by: opts.inviter.id, created_at: now })
          .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
          .execute();
        return true;
      });
      if (!seated) {
        errors.push(`${email}: ${MEMBER_LIMIT_MESSAGE}`);
        continue;
      }
    }
    await issueInvitation(ctx, { team: opts.team, inviter: opts.inviter, user, role: invitation.role, boardId: opts.boardId });
    const row = await memberRows(ctx.db, opts.team.id, { userId: user.id }).executeTakeFirstOrThrow();
    const view = memberView(row);
    users.push(view);
    await publishMemberSaved(ctx, opts.team.id, view);
  }
  return { users, errors };
}

/** Sends a new link to a pending member; 422 when the user has no pending invitation here. */
export async function resendInvitation(ctx: AppContext, opts: { team: TeamRow; inviter: UserRow; userId: number }): Promise<MemberView> {
  const row = await memberRows(ctx.db, opts.team.id, { userId: opts.userId, pending: true }).executeTakeFirst();
  if (!row) throw new ApiError(422, 'This user has no pending invitation to this workspace.', 'validation', ['user_id: has no pending invitation to this workspace']);
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', opts.userId).executeTakeFirstOrThrow();
  const last = await ctx.db.selectFrom('invitations').select(['board_id']).where('team_id', '=', opts.team.id).where('user_id', '=', opts.userId).orderBy('id', 'desc').executeTakeFirst();
  await issueInvitation(ctx, { team: opts.team, inviter: opts.inviter, user, role: row.role, boardId: last?.board_id ?? null });
  return memberView(row);
}

/** The open invitation behind a token, or null when it is unknown, used, or its workspace is gone. */
export async function findInvitation(ctx: AppContext, token: string): Promise<InvitationRow | null> {
  if (!token || token.length > 512) return null;
  const row = await ctx.db.selectFrom('invitations').selectAll().where('token_hash', '=', hashToken(token)).where('accepted_at', 'is', null).executeTakeFirst();
  return row ?? null;
}

/**
 * Accepts an invitation for the signed-in user: the pending membership becomes verified. The token
 * must be open and addressed to this user. Answers the team id and the board the invitation named.
 */
export async function acceptInvitation(ctx: AppContext, token: string, userId: number): Promise<{ team_id: number; board_id: string | null; member: MemberView }> {
  const invitation = await findInvitation(ctx, token);
  if (!invitation) throw new ApiError(422, INVITATION_INVALID, 'invitation_invalid', [`token: ${INVITATION_INVALID}`]);
  if (invitation.user_id !== userId) throw new ApiError(403, INVITATION_OTHER_ACCOUNT, 'invitation_other_account');
  const now = ctx.now();
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const marked = await trx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', invitation.id).where('accepted_at', 'is', null).returning('id').executeTakeFirst();
    if (!marked) return false; // accepted by a concurrent request
    const wasPending = await trx.selectFrom('team_members').select(['verified_at']).where('team_id', '=', invitation.team_id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
    const member = await trx
      .updateTable('team_members')
      .set({ verified_at: sql`coalesce(verified_at, ${now})` })
      .where('team_id', '=', invitation.team_id)
      .where('user_id', '=', userId)
      .returning(['user_id', 'role', 'invited_by'])
      .executeTakeFirst();
    // The member was removed after the mail went out: the link no longer admits anyone.
    if (!member) throw new ApiError(422, INVITATION_INVALID, 'invitation_invalid', [`token: ${INVITATION_INVALID}`]);
    if (wasPending && !wasPending.verified_at) {
      await appendMemberEvent(trx, { teamId: invitation.team_id, type: 'member.added', userId, actorId: userId, before: null, after: { user_id: userId, role: member.role, invited_by: member.invited_by }, now });
    }
    return true;
  });
  if (!accepted) throw new ApiError(422, INVITATION_INVALID, 'invitation_invalid', [`token: ${INVITATION_INVALID}`]);
  const row = await memberRows(ctx.db, invitation.team_id, { userId }).executeTakeFirstOrThrow();
  const member = memberView(row);
  await publishMemberSaved(ctx, invitation.team_id, member);
  return { team_id: invitation.team_id, board_id: invitation.board_id, member };
}
