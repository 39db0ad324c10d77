import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { REAUTH_WINDOW_MS } from '../../schema/constants';
import type { UserRow } from './guard';

export const REAUTH_MESSAGE = 'Please confirm your password to continue.';

/**
 * Privileged actions (deleting a workspace, changing the email, two-factor settings) need the
 * password entered within the last 30 minutes (POST /api/auth/reauthenticate). Otherwise a 401 of
 * type `reauth`, which the client turns into a visit to auth.reauthenticate; `data.intended` is the
 * path of the refused call so the screen can say what is being confirmed.
 */
export function requireRecentAuth(ctx: AppContext, request: FastifyRequest, user: UserRow): void {
  const at = user.reauthenticated_at;
  if (at && ctx.now().getTime() - new Date(at).getTime() <= REAUTH_WINDOW_MS) return;
  throw new ApiError(401, REAUTH_MESSAGE, 'reauth', { intended: request.url.split('?')[0] });
}

/**
 * Actions that send mail to other people or need a way back into the account require a verified
 * address; the message is the spec's, which sends the client to verify-email with no toast.
 */
export function requireVerifiedEmail(user: UserRow): void {
  if (!user.email_verified_at) throw new ApiError(403, Messages.emailNotVerified, 'email_not_verified');
}
