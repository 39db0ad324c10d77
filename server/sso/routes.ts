import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, parseBody } from '../http/errors';
import { requireUser } from '../auth/guard';
import { parseTeamId, requireOwner, requireTeam } from '../workspaces/access';
import { issueTokens, pruneSessions } from '../auth/tokens';
import { deliverTokens } from '../accounts/session-cookie';
import { createAccountLimits } from '../accounts/limits';
import { deleteSettings, readSettings, saveSettings, ssoSaveBody, ssoTestBody, viewOf, clientSecretOf } from './settings';
import { checkIssuerUrl, discover } from './oidc';
import { finishSso, startSso } from './login';
import { ssoCallbackBody, ssoStartBody, type SsoDiscovery } from '../../schema/sso';

/** Single sign-on: the owner's settings of a workspace, and the OpenID Connect sign-in (decision 0270). The bodies and answers are shared with the app: schema/sso.ts. */
export { ssoCallbackBody, ssoStartBody };

export function ssoRoutes(app: FastifyInstance, ctx: AppContext) {
  const tag = 'Single sign-on';
  const limits = createAccountLimits(ctx);

  async function ownerTeam(request: FastifyRequest) {
    const user = await requireUser(ctx.db, request);
    const team = await requireTeam(ctx, parseTeamId((request.params as { teamId?: string }).teamId));
    requireOwner(team, user);
    return { user, team };
  }

  app.get('/api/:teamId/sso', { config: { docs: { tag, summary: 'The workspace’s single sign-on settings (owner only)', description: 'The client secret is never answered, only whether one is stored.' } } }, async (request) => {
    const { team } = await ownerTeam(request);
    return { data: viewOf(ctx, team.id, await readSettings(ctx, team.id)) };
  });

  app.put('/api/:teamId/sso', { config: { docs: { tag, summary: 'Save single sign-on settings (owner only)', description: 'OpenID Connect (issuer, client id and secret, allowed e-mail domains) and SAML (entity id, SSO URL, certificate; stored, not active). `null` removes a half; an empty client secret keeps the stored one.', body: ssoSaveBody } } }, async (request) => {
    const { user, team } = await ownerTeam(request);
    const body = parseBody(ssoSaveBody, request.body);
    // An address the server may not fetch is refused now, not at the first sign-in.
    if (body.oidc) await checkIssuerUrl(ctx, body.oidc.issuer);
    const current = await readSettings(ctx, team.id);
    const row = await saveSettings(ctx, team.id, user.id, body, current);
    return { data: viewOf(ctx, team.id, row) };
  });

  app.delete('/api/:teamId/sso', { config: { docs: { tag, summary: 'Remove the workspace’s single sign-on settings (owner only)' } } }, async (request) => {
    const { team } = await ownerTeam(request);
    await deleteSettings(ctx, team.id);
    return { data: viewOf(ctx, team.id, undefined) };
  });

  app.post('/api/:teamId/sso/test', { config: { docs: { tag, summary: 'Test the connection to the identity provider (owner only)', description: 'Fetches the issuer’s /.well-known/openid-configuration and answers what it found, or a 422 `sso_discovery_failed` saying why.', body: ssoTestBody } } }, async (request) => {
    const { team } = await ownerTeam(request);
    const body = parseBody(ssoTestBody, request.body);
    const row = await readSettings(ctx, team.id);
    const issuer = body.issuer ?? row?.oidc_issuer;
    if (!issuer) throw new ApiError(422, 'oidc.issuer: is required', 'validation', ['oidc.issuer: is required']);
    const config = await discover(ctx, { issuer, clientId: row?.oidc_client_id ?? 'connection-test', clientSecret: row ? clientSecretOf(ctx, row) : null });
    const m = config.serverMetadata();
    const found: SsoDiscovery = {
      issuer: m.issuer,
      authorization_endpoint: m.authorization_endpoint ?? null,
      token_endpoint: m.token_endpoint ?? null,
      userinfo_endpoint: m.userinfo_endpoint ?? null,
      jwks_uri: m.jwks_uri ?? null,
      scopes_supported: m.scopes_supported ?? [],
      pkce_s256: (m.code_challenge_methods_supported ?? []).includes('S256'),
    };
    return { data: found };
  });

  app.post('/api/auth/sso/start', { config: { docs: { tag, summary: 'Start a single sign-on', description: 'By the workspace (`team_id`) or the work e-mail’s domain. Answers the identity provider’s URL to open; sets a short-lived httpOnly cookie that binds the sign-in to this browser.', body: ssoStartBody, auth: 'none' } } }, async (request, reply) => {
    const body = parseBody(ssoStartBody, request.body);
    // Each start costs a fetch of the provider's configuration: counted with the sign-in attempts.
    await limits.take(reply, ['loginPerIp', request.ip]);
    return { data: await startSso(ctx, request, reply, { teamId: body.team_id, email: body.email, intended: body.intended }) };
  });

  app.post('/api/auth/sso/callback', { config: { docs: { tag, summary: 'Finish a single sign-on', description: 'The app’s /s/auth/redirect screen posts the provider’s answer. Checks state, PKCE, the ID token, a verified e-mail of an allowed domain; answers like POST /api/auth/login (refresh token as the httpOnly cookie).', body: ssoCallbackBody, auth: 'none' } } }, async (request, reply) => {
    const body = parseBody(ssoCallbackBody, request.body);
    // Counted before anything is checked, given back on success (like a password login).
    const attempt = await limits.take(reply, ['loginPerIp', request.ip]);
    const outcome = await finishSso(ctx, request, reply, body.params);
    await attempt.giveBack();
    await pruneSessions(ctx.db, outcome.user.id, ctx.now());
    const tokens = await issueTokens(ctx.db, outcome.user.id, ctx.now());
    return { intended: outcome.intended, team_id: outcome.teamId, created: outcome.created, ...deliverTokens(ctx, reply, tokens, body.grantType === 'password') };
  });
}
