import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/types';
import { unauthenticated } from '../http/errors';
import { userIdForAccessToken } from './tokens';
import { isApiToken } from '../developer/api-tokens';
import { authenticateApiToken } from '../developer/token-auth';

export type UserRow = Selectable<Database['users']>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved lazily by requireUser / optionalUser and cached for the request. */
    authUser?: UserRow | null;
    sessionId?: number;
    /**
     * The live session behind the bearer token (null: none sent or dead), resolved once per
     * request. An API token (personal or OAuth; decision 0145) has a user but no session.
     */
    authSession?: { userId: number; sessionId?: number } | null;
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
    const session = await sessionOf(db, request, token);
    if (session) user = (await db.selectFrom('users').selectAll().where('id', '=', session.userId).executeTakeFirst()) ?? null;
    if (!user && !opts.deadTokenIsAnonymous) throw unauthenticated();
  }
  request.authUser = user;
  return user;
}

/**
 * The token's session, looked up once per request whichever guard asks first. API tokens carry a
 * prefix and are looked up in their own table, where their abilities are checked for the route.
 */
async function sessionOf(db: Kysely<Database>, request: FastifyRequest, token: string): Promise<{ userId: number; sessionId?: number } | null> {
  if (request.authSession === undefined) {
    // The app's clock (tests move it); plain wall time when the request has no app context.
    const now = request.server?.ctx?.now() ?? new Date();
    if (isApiToken(token)) {
      request.authSession = await authenticateApiToken(db, request, token, now);
    } else {
      const session = await userIdForAccessToken(db, token, now);
      request.authSession = session;
      if (session) request.sessionId = session.sessionId;
    }
  }
  return request.authSession;
}

/**
 * The signed-in user's id; a 401 otherwise. For hot paths that need only the id (sync writes):
 * a live session implies the user exists (sessions are deleted with their user), so the user row
 * is not read; requireUser / optionalUser still load it when something asks.
 */
export async function requireUserId(db: Kysely<Database>, request: FastifyRequest): Promise<number> {
  if (request.authUser) return request.authUser.id;
  if (request.authUser === null) throw unauthenticated();
  const token = bearerOf(request);
  const session = token ? await sessionOf(db, request, token) : null;
  if (!session) throw unauthenticated();
  return session.userId;
}

/** The signed-in user; a 401 otherwise. */
export async function requireUser(db: Kysely<Database>, request: FastifyRequest): Promise<UserRow> {
  const user = await optionalUser(db, request);
  if (!user) throw unauthenticated();
  return user;
}
