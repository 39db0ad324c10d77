import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, parseBody } from '../http/errors';
import { optionalUser, requireUser, type UserRow } from '../auth/guard';
import { issueTokens, pruneSessions, revokeAllSessions, revokeSession, rotateTokens, sessionForRefreshToken } from '../auth/tokens';
import { REAUTH_WINDOW_MS } from '../../schema/constants';
import type { AccountLimits } from './limits';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './password';
import { checkSecondFactor } from './two-factor';
import { claimInvitedUser, createUser, findUserByEmail, findUserById, normalizeEmail, profileOf } from './service';
import { acceptInvitation, findInvitation } from '../workspaces/invitations';
import { clearRefreshCookie, deliverTokens, refreshCookieOf } from './session-cookie';
import { consumeAccountToken, issueAccountToken, peekAccountToken } from './mail-tokens';
import { sendPasswordChangedNotice, sendPasswordResetMail, sendVerificationMail } from './mails';
import {
  forgotPasswordBody,
  loginBody,
  logoutBody,
  passwordOnlyBody,
  refreshBody,
  registerBody,
  resetPasswordBody,
  verifyEmailBody,
} from './validators';
import { deleteSessionDeviceTokens } from '../notifications/push';
import { ssoRequiredFor } from '../sso/enforce';
import { attributeSignup } from '../referral/service';

export const INVALID_CREDENTIALS = 'These credentials do not match our records.';
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';
export const INVALID_VERIFY_LINK = 'This verification link is invalid or has expired.';
export const INVALID_INVITATION = 'This invitation is not valid.';
export const NO_PASSWORD = 'Your account does not use a password.';
export const RESET_MAIL_SENT = 'If an account exists for that email, we have sent a password reset link.';
const DEFAULT_INTENDED = '/home';

const invalidCredentials = () => new ApiError(422, INVALID_CREDENTIALS, 'invalid_credentials');
const sessionExpired = () => new ApiError(401, SESSION_EXPIRED, 'session_expired');

/** Login, registration, token refresh, logout, reauthentication, password reset, email verification. */
export function authRoutes(app: FastifyInstance, ctx: AppContext, limits: AccountLimits) {
  /** Sends a fresh verification link to the user's current address. */
  async function mailVerification(user: UserRow) {
    const token = await issueAccountToken(ctx, 'verify_email', user.id, user.email);
    await sendVerificationMail(ctx, user.email, token);
  }

  app.post('/api/auth/login', async (request, reply) => {
    const body = parseBody(loginBody, request.body);
    const email = normalizeEmail(body.email);
    const ip = request.ip;
    const pair = `${email} ${ip}`;
    // Counted as a failure before anything is checked: parallel guesses cannot all pass the limit.
    const attempt = await limits.take(reply, ['loginPerIp', ip], ['loginPerAccountAndIp', pair], ['loginPerAccount', email]);

    const user = await findUserByEmail(ctx.db, email);
    // Unknown address and pending (password-less) accounts cost a hash too and get the same answer.
    const ok = user?.password_hash ? await verifyPassword(body.password, user.password_hash) : (await verifyPassword(body.password, await decoyHash())) && false;
    if (!user || !ok) throw invalidCredentials();
    // Members whose workspace requires single sign-on sign in through its provider (decision 0270).
    const ssoRequired = await ssoRequiredFor(ctx, user);
    if (ssoRequired) {
      await attempt.giveBack();
      throw ssoRequired;
    }
    try {
      await checkSecondFactor(ctx, user, body);
    } catch (error) {
      // A wrong code stays counted; "enter your code" (none sent yet) guessed nothing.
      if (error instanceof ApiError && error.type === 'two_factor_required') await attempt.giveBack();
      throw error;
    }
    await attempt.giveBack();
    await limits.clear('loginPerAccountAndIp', pair);
    if (needsRehash(user.password_hash!)) {
      await ctx.db.updateTable('users').set({ password_hash: await hashPassword(body.password) }).where('id', '=', user.id).execute();
    }
    await pruneSessions(ctx.db, user.id, ctx.now());
    const tokens = await issueTokens(ctx.db, user.id, ctx.now());
    return { intended: body.intended ?? DEFAULT_INTENDED, ...deliverTokens(ctx, reply, tokens, body.grantType === 'password') };
  });

  app.post('/api/auth/register', async (request, reply) => {
    const body = parseBody(registerBody, request.body);
    await limits.take(reply, ['registerPerIp', request.ip]);

    let user: UserRow;
    let intended = body.intended ?? DEFAULT_INTENDED;
    let invitation: { accepted: boolean; team_id?: number; message?: string } | undefined;
    if (body.invitation) {
      // The invitation mail reached this address: registering claims the pending account made for it.
      const open = await findInvitation(ctx, body.invitation);
      if (!open || normalizeEmail(open.email) !== normalizeEmail(body.email)) {
        throw new ApiError(422, INVALID_INVITATION, 'invitation_invalid', [`invitation: ${INVALID_INVITATION}`]);
      }
      user = await claimInvitedUser(ctx, { userId: open.user_id, name: body.name, password: body.password, locale: body.locale, source: body.source });
      try {
        const accepted = await acceptInvitation(ctx, body.invitation, user.id);
        invitation = { accepted: true, team_id: accepted.team_id };
        intended = accepted.board_id ? `/b/${accepted.board_id}` : `/team/${accepted.team_id}`;
      } catch (error) {
        // The account exists now; only the membership went away meanwhile (removed, or accepted twice).
        if (!(error instanceof ApiError)) throw error;
        invitation = { accepted: false, message: error.message };
      }
    } else {
      user = await createUser(ctx, { email: body.email, name: body.name, password: body.password, locale: body.locale, source: body.source });
      await mailVerification(user);
    }
    // The referral link the person came through, if any (decision 0260).
    await attributeSignup(ctx.db, user.id, body.referral, ctx.now(), request.ip);
    const tokens = await issueTokens(ctx.db, user.id, ctx.now());
    reply.status(201);
    return { intended, user: profileOf(user), ...(invitation ? { invitation } : {}), ...deliverTokens(ctx, reply, tokens, body.grantType === 'password') };
  });

  app.post('/api/auth/refresh', async (request, reply) => {
    const body = parseBody(refreshBody, request.body);
    const fromBody = body.refresh_token;
    const token = fromBody ?? refreshCookieOf(request);
    if (!token) throw sessionExpired();
    const rotated = await rotateTokens(ctx.db, token, ctx.now());
    if (rotated.kind !== 'rotated') {
      // A retired token came back: rotateTokens revoked its whole session (decision 0093).
      if (fromBody === undefined) clearRefreshCookie(ctx, reply);
      throw sessionExpired();
    }
    return deliverTokens(ctx, reply, rotated.tokens, fromBody !== undefined);
  });

  // Logout always succeeds for the caller: it ends whichever session the bearer token or the
  // refresh token (body or cookie) names, clears the cookie, and says where to go.
  app.post('/api/auth/logout', async (request, reply) => {
    const body = parseBody(logoutBody, request.body);
    const now = ctx.now();
    // The session's push subscriptions go with it (workspace.md §4: device tokens removed on logout).
    if (await optionalUser(ctx.db, request, { deadTokenIsAnonymous: true })) {
      await revokeSession(ctx.db, request.sessionId!, now);
      await deleteSessionDeviceTokens(ctx.db, request.sessionId!);
    }
    const refresh = body.refresh_token ?? refreshCookieOf(request);
    const byRefresh = refresh ? await sessionForRefreshToken(ctx.db, refresh, now) : null;
    if (byRefresh) {
      await revokeSession(ctx.db, byRefresh.sessionId, now);
      await deleteSessionDeviceTokens(ctx.db, byRefresh.sessionId);
    }
    clearRefreshCookie(ctx, reply);
    return { redirect: '/login' };
  });

  app.post('/api/auth/reauthenticate', async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(passwordOnlyBody, request.body);
    const key = String(user.id);
    const attempt = await limits.take(reply, ['reauthPerUser', key]);
    if (!user.password_hash) {
      await attempt.giveBack();
      throw new ApiError(422, NO_PASSWORD, 'no_password');
    }
    if (!(await verifyPassword(body.password, user.password_hash))) {
      throw new ApiError(422, 'The password is incorrect.', 'validation', ['password: The password is incorrect.']);
    }
    await limits.clear('reauthPerUser', key);
    const now = ctx.now();
    await ctx.db.updateTable('users').set({ reauthenticated_at: now }).where('id', '=', user.id).execute();
    return { reauthenticated_at: now.toISOString(), valid_until: new Date(now.getTime() + REAUTH_WINDOW_MS).toISOString() };
  });

  // Always the same answer, whether or not the address has an account (no enumeration).
  app.post('/api/auth/forgot-password', async (request, reply) => {
    const body = parseBody(forgotPasswordBody, request.body);
    const email = normalizeEmail(body.email);
    await limits.take(reply, ['resetMailPerIp', request.ip], ['resetMailPerAccount', email]);
    const user = await findUserByEmail(ctx.db, email);
    if (user) {
      const token = await issueAccountToken(ctx, 'password_reset', user.id, user.email);
      await sendPasswordResetMail(ctx, user.email, token);
    }
    return { message: RESET_MAIL_SENT };
  });

  app.post('/api/auth/reset-password', async (request, reply) => {
    const body = parseBody(resetPasswordBody, request.body);
    const ip = request.ip;
    // Counted before the link is looked up; only a successful reset gives it back.
    const attempt = await limits.take(reply, ['resetAttemptPerIp', ip]);
    const refuse = () => new ApiError(422, INVALID_RESET_LINK, 'invalid_token', [`token: ${INVALID_RESET_LINK}`]);
    // The link carries the address; a token presented with another address is refused unused.
    const peek = await peekAccountToken(ctx, 'password_reset', body.token);
    if (!peek || normalizeEmail(peek.email) !== normalizeEmail(body.email)) throw refuse();
    const used = await consumeAccountToken(ctx, 'password_reset', body.token);
    if (!used) throw refuse();
    const user = await findUserById(ctx.db, used.userId);
    if (!user || normalizeEmail(user.email) !== normalizeEmail(used.email)) throw refuse();

    const now = ctx.now();
    await ctx.db
      .updateTable('users')
      // The mail reached the address, so it is verified; any privileged window closes.
      .set({ password_hash: await hashPassword(body.password), email_verified_at: user.email_verified_at ?? now, reauthenticated_at: null, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(ctx.db, user.id, now);
    await attempt.giveBack();
    await limits.clear('loginPerAccount', normalizeEmail(user.email));
    await sendPasswordChangedNotice(ctx, user.email);
    return { message: 'Your password has been reset. Please sign in.', redirect: '/login' };
  });

  // Public: the link may be opened in a browser where the user is not signed in.
  app.post('/api/auth/verify-email', async (request) => {
    const body = parseBody(verifyEmailBody, request.body);
    const used = await consumeAccountToken(ctx, 'verify_email', body.token);
    const user = used ? await findUserById(ctx.db, used.userId) : undefined;
    // A link for an address the account no longer has (changed since) verifies nothing.
    if (!used || !user || normalizeEmail(user.email) !== normalizeEmail(used.email)) {
      throw new ApiError(422, INVALID_VERIFY_LINK, 'invalid_token', [`token: ${INVALID_VERIFY_LINK}`]);
    }
    if (!user.email_verified_at) {
      await ctx.db.updateTable('users').set({ email_verified_at: ctx.now(), updated_at: ctx.now() }).where('id', '=', user.id).execute();
    }
    return { message: 'Your email address is verified.', email_verified: true };
  });

  app.post('/api/auth/verify-email/resend', async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    if (user.email_verified_at) throw new ApiError(422, 'Your email address is already verified.', 'already_verified');
    const key = String(user.id);
    await limits.take(reply, ['verifyMailPerUser', key]);
    await mailVerification(user);
    return { message: `We have sent a new verification link to ${user.email}.` };
  });
}
