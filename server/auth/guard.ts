import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/types';
import { unauthenticated } from '../http/errors';
import { userIdForAccessToken } from './tokens';

export type UserRow = Selectable<Database['users']>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved lazily by requireUser / optionalUser and cached for the request. */
    authUser?: UserRow | null;
    sessionId?: number;
  }
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match ? match[1]!.trim() : null;
}

/**
 * The signed-in user, or null for an anonymous visitor (public boards, forms, documents). A token
 * that was sent but no longer works is a 401, not anonymity: answering as to a guest would show a
 * signed-in user a guest's view (no subscription, no private boards) instead of making the client
 * refresh. Logout passes `deadTokenIsAnonymous` so signing out always finishes.
 */
export async function optionalUser(db: Kysely<Database>, request: FastifyRequest, opts: { deadTokenIsAnonymous?: boolean } = {}): Promise<UserRow | null> {
  if (request.authUser !== undefined) return request.authUser;
  const token = bearerOf(request);
  let user: UserRow | null = null;
  if (token) {
    // The app's clock (tests move it); plain wall time when the request has no app context.
    const now = request.server?.ctx?.now() ?? new Date();
    const session = await userIdForAccessToken(db, token, now);
    if (session) {
      user = (await db.selectFrom('users').selectAll().where('id', '=', session.userId).executeTakeFirst()) ?? null;
      request.sessionId = session.sessionId;
    }
    if (!user && !opts.deadTokenIsAnonymous) throw unauthenticated();
  }
  request.authUser = user;
  return user;
}

/** The signed-in user; a 401 otherwise. */
export async function requireUser(db: Kysely<Database>, request: FastifyRequest): Promise<UserRow> {
  const user = await optionalUser(db, request);
  if (!user) throw unauthenticated();
  return user;
}
