import type { AppContext } from '../context';
import type { UserRow } from '../auth/guard';

/**
 * How registration learns about invitations without importing the workspaces module (which owns
 * invitation tokens). The workspaces module installs a handler once at start-up:
 *
 *   setInvitationHandler({ resolve: (ctx, token) => ..., claimed: (ctx, token, user) => ... })
 *
 * `resolve` answers the pending user an invitation token was made for (or null when the token is
 * unknown, accepted or expired); `claimed` runs after POST /api/auth/register turned that pending
 * user into a real account (e.g. to mark the invitation accepted and the membership verified).
 */
export interface InvitationHandler {
  resolve(ctx: AppContext, token: string): Promise<{ userId: number; email: string } | null>;
  claimed?(ctx: AppContext, token: string, user: UserRow): Promise<void>;
}

let handler: InvitationHandler | null = null;

export function setInvitationHandler(next: InvitationHandler | null): void {
  handler = next;
}

export function invitationHandler(): InvitationHandler | null {
  return handler;
}
