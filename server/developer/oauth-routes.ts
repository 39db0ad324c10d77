import type { FastifyInstance, FastifyReply } from 'fastify';
import OAuth2Server from '@node-oauth/oauth2-server';
import { z } from 'zod';
import type { AppContext } from '../context';
import { notFound, parseBody } from '../http/errors';
import { requireUser } from '../auth/guard';
import { API_ABILITIES, isApiAbility } from '../../schema/api-abilities';
import { appBody, deleteApp, findClient, listApps, registerApp, rotateAppSecret, updateApp } from './oauth-clients';
import { DEFAULT_OAUTH_SCOPE, oauthModel } from './oauth-model';
import { listAuthorisedApps, revokeAuthorisedApp } from './authorised-apps';
import '../api-docs/route-docs';

/** Lifetimes (seconds): codes are exchanged at once; access tokens are short and refreshed. */
export const OAUTH_CODE_TTL_S = 5 * 60;
export const OAUTH_ACCESS_TTL_S = 60 * 60;
export const OAUTH_REFRESH_TTL_S = 30 * 24 * 60 * 60;

/** An RFC 6749 §5.2 / §4.1.2.1 refusal: `{error, error_description}`. */
class OAuthRefusal extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Where the user agent may be sent back with the error, once the redirect URI is trusted. */
    readonly redirect?: string,
  ) {
    super(description);
  }
}

const text = (max: number) => z.string().max(max).optional();
/** The parameters of an authorisation request (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export const authorizeQuery = z.object({
  client_id: text(200),
  redirect_uri: text(2000),
  response_type: text(50).describe('Must be `code`.'),
  scope: text(200).describe(`Space-separated abilities: ${API_ABILITIES.join(', ')}; default ${DEFAULT_OAUTH_SCOPE.join(' ')}.`),
  state: text(1000),
  code_challenge: text(200).describe('BASE64URL(SHA-256(code_verifier)); required.'),
  code_challenge_method: text(20).describe('Must be `S256`.'),
});
const authorizeDecision = authorizeQuery.extend({ allowed: z.boolean({ error: 'must be true or false' }) });

export const tokenForm = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  client_id: z.string().optional().describe('With client_secret, when not sent as HTTP Basic authentication.'),
  client_secret: z.string().optional(),
});

const withError = (redirectUri: string, error: string, description: string, state?: string) => {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
};

type AuthorizeParams = z.infer<typeof authorizeQuery>;

/**
 * Checks an authorisation request before the consent screen shows it (and again when the user
 * answers). Until the client and its redirect URI are known good, a refusal must not redirect
 * (RFC 6749 §4.1.2.1); after that it carries the URI to send the user back with. PKCE with S256 is
 * required of every client here (the library would accept a request without it).
 */
async function checkAuthorizeRequest(ctx: AppContext, params: AuthorizeParams) {
  if (!params.client_id) throw new OAuthRefusal('invalid_request', 'Missing parameter: `client_id`');
  const client = await findClient(ctx.db, params.client_id);
  if (!client) throw new OAuthRefusal('invalid_client', 'Invalid client: client is invalid', 401);
  const redirectUri = params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0]! : undefined);
  if (!redirectUri) throw new OAuthRefusal('invalid_request', 'Missing parameter: `redirect_uri`');
  if (!client.redirect_uris.includes(redirectUri)) throw new OAuthRefusal('invalid_request', 'Invalid request: `redirect_uri` does not match a registered URI');
  const refuse = (error: string, description: string) => new OAuthRefusal(error, description, 400, withError(redirectUri, error, description, params.state));
  if (params.response_type !== 'code') throw refuse('unsupported_response_type', 'Unsupported response type: `response_type` must be `code`');
  if (!params.code_challenge) throw refuse('invalid_request', 'Missing parameter: `code_challenge` (PKCE is required)');
  if (params.code_challenge_method !== 'S256') throw refuse('invalid_request', 'Invalid parameter: `code_challenge_method` must be `S256`');
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge)) throw refuse('invalid_request', 'Invalid parameter: `code_challenge`');
  const scopes = params.scope ? params.scope.split(' ').filter(Boolean) : DEFAULT_OAUTH_SCOPE;
  if (!scopes.every(isApiAbility)) throw refuse('invalid_scope', 'Invalid scope: Requested scope is invalid');
  return { client, redirectUri, scopes: [...new Set(scopes)] };
}

function sendRefusal(reply: FastifyReply, error: unknown) {
  if (error instanceof OAuthRefusal) {
    return reply.status(error.status).header('cache-control', 'no-store').send({ error: error.error, error_description: error.description, ...(error.redirect ? { redirect: error.redirect } : {}) });
  }
  if (error instanceof OAuth2Server.OAuthError) {
    const status = error.code >= 500 ? 500 : error.code;
    return reply.status(status).header('cache-control', 'no-store').send({ error: error.name, error_description: error.message });
  }
  throw error;
}

const idParam = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : null);

/** OAuth applications, the authorisation-code flow with PKCE, and the user's authorised apps (issue 14; decision 0145). */
export async function oauthRoutes(app: FastifyInstance, ctx: AppContext) {
  const oauth = new OAuth2Server({
    model: oauthModel(ctx),
    authorizationCodeLifetime: OAUTH_CODE_TTL_S,
    accessTokenLifetime: OAUTH_ACCESS_TTL_S,
    refreshTokenLifetime: OAUTH_REFRESH_TTL_S,
    allowEmptyState: true,
    requireClientAuthentication: { authorization_code: true, refresh_token: true },
  });

  // The developer's own apps.
  const appView = z.object({ id: z.number(), name: z.string(), client_id: z.string(), redirect_uris: z.array(z.string()), created_at: z.string(), updated_at: z.string() });
  const tag = 'OAuth apps';
  app.get('/api/me/oauth-apps', { config: { docs: { summary: 'List the OAuth apps you registered', tag, response: z.object({ data: z.array(appView) }) } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await listApps(ctx.db, user.id) };
  });
  app.post(
    '/api/me/oauth-apps',
    { config: { docs: { summary: 'Register an OAuth app', description: 'Answers the client id and the client secret; the secret is shown in this answer only.', tag, status: 201, body: appBody, response: z.object({ data: appView.extend({ client_secret: z.string() }) }) } } },
    async (request, reply) => {
      const user = await requireUser(ctx.db, request);
      const body = parseBody(appBody, request.body);
      return reply.status(201).send({ data: await registerApp(ctx.db, user.id, body, ctx.now()) });
    },
  );
  app.put<{ Params: { id: string } }>('/api/me/oauth-apps/:id', { config: { docs: { summary: 'Rename an OAuth app or change its redirect URIs', tag, body: appBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(appBody, request.body);
    const id = idParam(request.params.id);
    const updated = id === null ? null : await updateApp(ctx.db, user.id, id, body, ctx.now());
    if (!updated) throw notFound();
    return { data: updated };
  });
  app.post<{ Params: { id: string } }>('/api/me/oauth-apps/:id/secret', { config: { docs: { summary: 'Replace an OAuth app’s client secret', description: 'The old secret stops working; the new one is in this answer only.', tag } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const id = idParam(request.params.id);
    const rotated = id === null ? null : await rotateAppSecret(ctx.db, user.id, id, ctx.now());
    if (!rotated) throw notFound();
    return { data: rotated };
  });
  app.delete<{ Params: { id: string } }>('/api/me/oauth-apps/:id', { config: { docs: { summary: 'Delete an OAuth app', description: 'Every token issued to it stops working.', tag } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const id = idParam(request.params.id);
    if (id === null || !(await deleteApp(ctx.db, user.id, id))) throw notFound();
    return { message: 'App deleted.' };
  });

  // The user's side: apps they authorised.
  app.get(
    '/api/me/applications',
    { config: { docs: { summary: 'List the apps you authorised', tag: 'OAuth', response: z.object({ data: z.array(z.object({ client_id: z.string(), name: z.string(), abilities: z.array(z.string()), authorised_at: z.string(), last_used_at: z.string().nullable() })) }) } } },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      return { data: await listAuthorisedApps(ctx.db, user.id, ctx.now()) };
    },
  );
  app.delete<{ Params: { clientId: string } }>('/api/me/applications/:clientId', { config: { docs: { summary: 'Revoke an app’s access', description: 'Every token you gave the app stops working.', tag: 'OAuth' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    if (!(await revokeAuthorisedApp(ctx.db, user.id, request.params.clientId, ctx.now()))) throw notFound();
    return { message: 'Access revoked.' };
  });

  // The consent screen asks what it is about to show; the user's answer makes the code.
  app.get(
    '/api/oauth/authorize',
    {
      config: {
        docs: {
          summary: 'Check an authorisation request (for the consent screen)',
          description: 'Send the user to the app page `/oauth/authorize` with these parameters; it calls this endpoint, shows the app and the abilities it asks for, and redirects to `redirect_uri` with `code` and `state` when the user allows it.',
          tag: 'OAuth',
          query: authorizeQuery,
        },
      },
    },
    async (request, reply) => {
      await requireUser(ctx.db, request);
      try {
        const params = parseBody(authorizeQuery, request.query);
        const checked = await checkAuthorizeRequest(ctx, params);
        return { data: { client: { client_id: checked.client.client_id, name: checked.client.name }, redirect_uri: checked.redirectUri, scopes: checked.scopes, state: params.state ?? null } };
      } catch (error) {
        return sendRefusal(reply, error);
      }
    },
  );

  app.post(
    '/api/oauth/authorize',
    { config: { docs: { summary: 'Allow or deny an authorisation request', description: 'Made by the consent screen with the signed-in session. Answers `{redirect}`: the app’s redirect URI with `code` and `state`, or with `error=access_denied`.', tag: 'OAuth', body: authorizeDecision } } },
    async (request, reply) => {
      const user = await requireUser(ctx.db, request);
      const body = parseBody(authorizeDecision, request.body);
      try {
        const checked = await checkAuthorizeRequest(ctx, body);
        const libraryRequest = new OAuth2Server.Request({
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          query: {},
          body: { ...body, redirect_uri: checked.redirectUri, scope: checked.scopes.join(' '), allowed: body.allowed ? 'true' : 'false' },
        });
        const libraryResponse = new OAuth2Server.Response({ headers: {} });
        try {
          await oauth.authorize(libraryRequest, libraryResponse, { authenticateHandler: { handle: () => ({ id: user.id }) } });
        } catch (error) {
          // A denial (and any refusal after the redirect URI was trusted) still goes back to the app.
          const location = libraryResponse.get('location');
          if (location && error instanceof OAuth2Server.AccessDeniedError) return { redirect: location };
          throw error;
        }
        return { redirect: libraryResponse.get('location') };
      } catch (error) {
        return sendRefusal(reply, error);
      }
    },
  );

  // The token endpoint takes forms (RFC 6749 §4.1.3) and JSON; only this route parses forms.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post(
      '/api/oauth/token',
      {
        config: {
          docs: {
            summary: 'Exchange an authorisation code (with its PKCE verifier) or a refresh token for tokens',
            description: 'Client authentication: HTTP Basic with the client id and secret, or `client_id` and `client_secret` in the body. Answers `{access_token, token_type: "Bearer", expires_in, refresh_token, scope}`; refusals are `{error, error_description}` (RFC 6749 §5.2).',
            tag: 'OAuth',
            body: tokenForm,
            bodyType: 'application/x-www-form-urlencoded',
            auth: 'client',
          },
        },
      },
      async (request, reply) => {
        const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
        try {
          const hasBasic = /^Basic\s+/i.test(request.headers.authorization ?? '');
          // Our apps are confidential clients: PKCE is required and so is the secret.
          if (!hasBasic && !body.client_secret) throw new OAuthRefusal('invalid_client', 'Invalid client: client authentication is required');
          const libraryRequest = new OAuth2Server.Request({
            method: 'POST',
            headers: { ...(request.headers as Record<string, string>), 'content-type': 'application/x-www-form-urlencoded' },
            query: {},
            body: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : String(value)])),
          });
          const libraryResponse = new OAuth2Server.Response({ headers: {} });
          try {
            await oauth.token(libraryRequest, libraryResponse);
          } catch (error) {
            if (!(error instanceof OAuth2Server.OAuthError)) throw error;
          }
          for (const [name, value] of Object.entries(libraryResponse.headers ?? {})) reply.header(name, value);
          return reply.status(libraryResponse.status ?? 200).header('cache-control', 'no-store').send(libraryResponse.body);
        } catch (error) {
          return sendRefusal(reply, error);
        }
      },
    );
  });
}
