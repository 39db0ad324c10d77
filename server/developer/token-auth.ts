import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { requiredAbility } from './abilities';
import { resolveApiToken, type ApiTokenGrant } from './api-tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token the request was made with (personal or OAuth), when it was one. */
    apiToken?: ApiTokenGrant;
  }
}

/**
 * Resolves an API token for the guard and enforces its abilities for the route being called, in
 * one place for every route (decision 0145): null for a dead token (the guard answers 401), a 403
 * when the token lacks the route's ability. The token acts as its user, so the route's own
 * permission checks still run afterwards: a token never does more than its user may.
 */
export async function authenticateApiToken(db: Kysely<Database>, request: FastifyRequest, token: string, now: Date): Promise<{ userId: number } | null> {
  const grant = await resolveApiToken(db, token, now);
  if (!grant) return null;
  const url = request.routeOptions?.url ?? request.url.split('?')[0]!;
  const needed = requiredAbility(request.method, url);
  if (needed === 'session') throw new ApiError(403, 'API tokens cannot be used for this request; sign in instead.', 'unauthorized', { required: 'session' });
  if (!grant.abilities.includes(needed)) throw new ApiError(403, `This token does not have the "${needed}" ability.`, 'unauthorized', { required: needed });
  request.apiToken = grant;
  return { userId: grant.userId };
}
