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

/** The signed-in user, or null for an anonymous visitor (public boards, forms, documents). */
export async function optionalUser(db: Kysely<Database>, request: FastifyRequest): Promise<UserRow | null> {
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
