import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { notFound, parseBody, validation } from '../http/errors';
import { requireUser } from '../auth/guard';
import { API_ABILITIES, DEFAULT_API_ABILITIES } from '../../schema/api-abilities';
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from './api-tokens';
import '../api-docs/route-docs';

const abilitiesField = z
  .array(z.enum(API_ABILITIES, { error: `each must be one of ${API_ABILITIES.join(', ')}` }), { error: 'must be a list of abilities' })
  .min(1, 'must name at least one ability')
  .max(API_ABILITIES.length)
  .transform((list) => [...new Set(list)]);

export const createTokenBody = z
  .object({
    name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
    abilities: abilitiesField.optional().describe(`Any of ${API_ABILITIES.join(', ')}; default ${DEFAULT_API_ABILITIES.join(', ')}.`),
    expires_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).nullish().describe('When the token stops working; never when absent.'),
  })
  .strict();

const tokenView = z.object({
  id: z.number(),
  name: z.string(),
  abilities: z.array(z.enum(API_ABILITIES)),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
});

const idParam = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : null);

/** Personal access tokens: the signed-in user's own (issue 14; decision 0145). */
export function tokenRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/api/me/tokens',
    {
      config: {
        docs: {
          summary: 'Create a personal access token',
          description: 'The token value is in this answer only; it is stored hashed. Send it as `Authorization: Bearer <token>`. Needs a signed-in session (a token cannot create tokens).',
          tag: 'Tokens',
          status: 201,
          body: createTokenBody,
          response: z.object({ data: z.object({ id: z.number(), name: z.string(), token: z.string(), created_at: z.string() }) }),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(ctx.db, request);
      const body = parseBody(createTokenBody, request.body);
      const now = ctx.now();
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) throw validation(['expires_at: must be in the future']);
      const created = await createPersonalToken(ctx.db, user.id, { name: body.name, abilities: body.abilities ?? [...DEFAULT_API_ABILITIES], expiresAt }, now);
      return reply.status(201).send({ data: created });
    },
  );

  app.get(
    '/api/me/tokens',
    { config: { docs: { summary: 'List your personal access tokens', description: 'Name, abilities, last use and expiry; never the value. Revoked and expired tokens are left out.', tag: 'Tokens', response: z.object({ data: z.array(tokenView) }) } } },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      return { data: await listPersonalTokens(ctx.db, user.id, ctx.now()) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/me/tokens/:id',
    { config: { docs: { summary: 'Revoke a personal access token', description: 'It answers 401 from then on.', tag: 'Tokens' } } },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      const id = idParam(request.params.id);
      if (id === null || !(await revokePersonalToken(ctx.db, user.id, id, ctx.now()))) throw notFound();
      return { message: 'Token revoked.' };
    },
  );
}
