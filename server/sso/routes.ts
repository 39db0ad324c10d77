import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, parseBody } from '../http/errors';
import { requireUser } from '../auth/guard';
import { parseTeamId, requireOwner, requireTeam } from '../workspaces/access';
import { issueTokens, pruneSessions } from '../auth/tokens';
import { deliverTokens } from '../accounts/session-cookie';
import { createAccountLimits } from '../accounts/limits';
import { requireRecentAuth } from '../auth/reauth';
import { checkSecondFactor, TWO_FACTOR_REQUIRED } from '../accounts/two-factor';
import { deleteSettings, readSettings, saveSettings, ssoSaveBody, ssoTestBody, verifySsoDomains, viewOf, clientSecretOf } from './settings';
import { checkIssuerUrl, discover } from './oidc';
import { endFlight, finishSso, secondFactorFlight, SsoErrors, startSso } from './login';
import { ssoCallbackBody, ssoLinkStartBody, ssoSecondFactorBody, ssoStartBody, type SsoDiscovery, type SsoLinks } from '../../schema/sso';

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

  app.post('/api/:teamId/sso/verify', { config: { docs: { tag, summary: 'Check the DNS TXT records of the allowed domains (owner only)', description: 'Each allowed domain signs people in (or is enforced) only once `_cairn-verification.<domain>` holds the value shown in the settings (as for white-label domains). Answers the settings and, per domain still unproven, why.' } } }, async (request) => {
    const { team } = await ownerTeam(request);
    const { row, problems } = await verifySsoDomains(ctx, team.id);
    return { data: viewOf(ctx, team.id, row), problems };
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
    if (outcome.kind === 'linked') return { linked: true, intended: outcome.intended, team_id: outcome.teamId };
    // The account has a second factor: the flight now waits for it (POST /api/auth/sso/second-factor).
    if (outcome.kind === 'second-factor') throw new ApiError(422, TWO_FACTOR_REQUIRED, 'two_factor_required', { sso: true });
    await pruneSessions(ctx.db, outcome.user.id, ctx.now());
    const tokens = await issueTokens(ctx.db, outcome.user.id, ctx.now());
    return { intended: outcome.intended, team_id: outcome.teamId, created: outcome.created, ...deliverTokens(ctx, reply, tokens, body.grantType === 'password') };
  });

  app.post('/api/auth/sso/second-factor', { config: { docs: { tag, summary: 'Give the second factor after a single sign-on', description: 'An account with two-factor on gives its code (or a recovery code) after the provider’s sign-in, with the same browser cookie. Answers like the callback.', body: ssoSecondFactorBody, auth: 'none' } } }, async (request, reply) => {
    const body = parseBody(ssoSecondFactorBody, request.body);
    const flight = await secondFactorFlight(ctx, request);
    if (!flight?.user_id) throw new ApiError(422, SsoErrors.stateMismatch, 'sso_state_mismatch');
    const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', flight.user_id).executeTakeFirstOrThrow();
    // The same counter as the password login's codes: guesses through either path add up.
    const attempt = await limits.take(reply, ['twoFactorPerUser', String(user.id)]);
    try {
      await checkSecondFactor(ctx, user, { totp: body.totp, recoveryCode: body.recoveryCode });
    } catch (error) {
      if (error instanceof ApiError && error.type === 'two_factor_required') await attempt.giveBack();
      throw error;
    }
    await attempt.giveBack();
    await endFlight(ctx, request, reply, flight.id_hash);
    await pruneSessions(ctx.db, user.id, ctx.now());
    const tokens = await issueTokens(ctx.db, user.id, ctx.now());
    return { intended: flight.intended ?? `/team/${flight.team_id}`, team_id: flight.team_id, created: false, ...deliverTokens(ctx, reply, tokens, body.grantType === 'password') };
  });

  app.get('/api/me/sso-links', { config: { docs: { tag, summary: 'Your links to identity providers, and the providers of your workspaces you may link' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const links = await ctx.db.selectFrom('sso_identity_links').select(['id', 'issuer', 'created_at']).where('user_id', '=', user.id).orderBy('id').execute();
    const providers = await ctx.db
      .selectFrom('sso_settings')
      .innerJoin('teams', 'teams.id', 'sso_settings.team_id')
      .leftJoin('team_members', (join) => join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', user.id))
      .select(['teams.id as team_id', 'teams.name as team_name', 'sso_settings.oidc_issuer as issuer'])
      .where('sso_settings.oidc_enabled', '=', true)
      .where('sso_settings.oidc_issuer', 'is not', null)
      .where((eb) => eb.or([eb('teams.owner_id', '=', user.id), eb('team_members.verified_at', 'is not', null)]))
      .orderBy('teams.name')
      .execute();
    const linked = new Set(links.map((l) => l.issuer));
    const answer: SsoLinks = {
      links: links.map((l) => ({ id: l.id, issuer: l.issuer, created_at: new Date(l.created_at).toISOString() })),
      providers: providers.map((p) => ({ team_id: p.team_id, team_name: p.team_name, issuer: p.issuer!, linked: linked.has(p.issuer!) })),
    };
    return { data: answer };
  });

  app.post('/api/me/sso-links/start', { config: { docs: { tag, summary: 'Link your account to a workspace’s identity provider', description: 'Needs the password confirmed within 30 minutes (POST /api/auth/reauthenticate). Answers the provider’s URL; its answer comes back through /s/auth/redirect and stores the link (issuer + subject). Only a linked account is signed in through a provider.', body: ssoLinkStartBody } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    requireRecentAuth(ctx, request, user);
    const body = parseBody(ssoLinkStartBody, request.body);
    const team = await ctx.db.selectFrom('teams').select(['id', 'owner_id']).where('id', '=', body.team_id).executeTakeFirst();
    const member = team && (await ctx.db.selectFrom('team_members').select('verified_at').where('team_id', '=', team.id).where('user_id', '=', user.id).executeTakeFirst());
    if (!team || (team.owner_id !== user.id && !member?.verified_at)) throw new ApiError(403, SsoErrors.linkNotMember, 'sso_link_not_member');
    return { data: await startSso(ctx, request, reply, { teamId: team.id, intended: body.intended ?? '/profile/security', linkUserId: user.id }) };
  });

  app.delete('/api/me/sso-links/:id', { config: { docs: { tag, summary: 'Remove a link to an identity provider' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) throw new ApiError(404, 'Not found', 'not_found');
    const gone = await ctx.db.deleteFrom('sso_identity_links').where('id', '=', id).where('user_id', '=', user.id).returning('id').executeTakeFirst();
    if (!gone) throw new ApiError(404, 'Not found', 'not_found');
    return { data: { id } };
  });
}
