import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { hashToken } from '../auth/tokens';
import type { UserRow } from '../auth/guard';
import { createUser, findUserByEmail, normalizeEmail } from '../accounts/service';
import { seatsTaken, MEMBER_LIMIT_MESSAGE } from '../workspaces/subscriptions';
import { subscriptionLimits } from '../billing/limits';
import { memberRows, memberView } from '../workspaces/views';
import { publishMemberSaved } from '../workspaces/events';
import { appendMemberEvent } from '../events/member-events';
import { authorizationRequest, client, describe, discover, exchangeCode } from './oidc';
import { clientSecretOf, readSettings, redirectUri, verifiedDomains, workspacesForDomain, type SsoRow } from './settings';
import type { SsoStartAnswer } from '../../schema/sso';

/**
 * Single sign-on with OpenID Connect (decision 0270).
 *
 * start:    the workspace (chosen, or found by the e-mail's domain) → a sign-in in flight is stored
 *           (state, nonce, PKCE verifier; 10 minutes, single use) under a random id that only the
 *           browser has, in an httpOnly cookie → the provider's authorisation URL.
 * callback: the app's /s/auth/redirect screen posts the provider's answer here with that cookie →
 *           the state must match → code exchange and ID token checks (openid-client) → the e-mail
 *           must be verified by the provider and of an allowed domain proven by DNS → the account:
 *           one that linked this provider identity (issuer + subject) itself and is a verified
 *           member or the owner, or a new account made a member → a normal session, after the
 *           account's second factor when it has one (unless the workspace enforces SSO for it).
 * link:     the same flight started by a signed-in account (password confirmed): the callback
 *           stores that account's link to the provider identity and signs nobody in.
 *
 * An existing account is never signed in by e-mail address alone, nor by a pending invitation
 * (issue #26, N1): an owner could otherwise point a provider of their own at anybody's address.
 */
export const SSO_COOKIE = 'cairn_sso';
const COOKIE_PATH = '/api/auth/sso';
export const LOGIN_TTL_MS = 10 * 60_000;

export const SsoErrors = {
  notConfigured: 'Single sign-on is not set up for this workspace or e-mail domain.',
  ambiguous: 'Several workspaces sign in this e-mail domain with single sign-on. Use the sign-in link of your workspace.',
  stateMismatch: 'This sign-in could not be matched to the one started in this browser. Please start again.',
  provider: 'The identity provider refused the sign-in.',
  failed: 'The answer of the identity provider could not be verified.',
  emailNotVerified: 'The identity provider did not confirm that your e-mail address is verified.',
  domainNotAllowed: 'Your e-mail domain is not allowed to sign in to this workspace with single sign-on.',
  notMember: 'An account with this e-mail already exists and is not a member of this workspace. Sign in with your password, or ask the workspace owner to invite you.',
  notLinked: 'An account with this e-mail already exists. Sign in with your password and link this identity provider in your security settings first.',
  linkedElsewhere: 'This identity is already linked to another account.',
  linkNotMember: 'You can link only the identity provider of a workspace you belong to.',
} as const;

/** What a finished flight did: a sign-in, a link stored, or a sign-in waiting for the second factor. */
export type FlightPurpose = 'sign-in' | 'link' | 'second-factor';

const fail = (status: number, message: string, type: string, data?: unknown) => new ApiError(status, message, type, data);

const isSecure = (ctx: AppContext, request: FastifyRequest) => request.protocol === 'https' || ctx.config.publicUrl.startsWith('https:');

function localIntended(value: string | undefined | null): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
}

const domainOf = (email: string) => normalizeEmail(email).split('@').pop() ?? '';

/** Finds the workspace's settings: by id, else by the e-mail's domain (exactly one workspace). */
async function settingsFor(ctx: AppContext, input: { teamId?: number; email?: string }): Promise<SsoRow> {
  if (input.teamId !== undefined) {
    const row = await readSettings(ctx, input.teamId);
    if (!row?.oidc_enabled || !row.oidc_issuer || !row.oidc_client_id) throw fail(422, SsoErrors.notConfigured, 'sso_not_configured');
    return row;
  }
  const rows = await workspacesForDomain(ctx, domainOf(input.email ?? ''));
  if (rows.length === 0) throw fail(422, SsoErrors.notConfigured, 'sso_not_configured');
  if (rows.length > 1) throw fail(422, SsoErrors.ambiguous, 'sso_ambiguous');
  return rows[0]!;
}

async function configOf(ctx: AppContext, row: SsoRow) {
  return discover(ctx, { issuer: row.oidc_issuer!, clientId: row.oidc_client_id!, clientSecret: clientSecretOf(ctx, row) });
}

export async function startSso(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, input: { teamId?: number; email?: string; intended?: string; linkUserId?: number }): Promise<SsoStartAnswer> {
  const row = await settingsFor(ctx, input);
  const config = await configOf(ctx, row);
  const auth = await authorizationRequest(config, redirectUri(ctx), input.email ? normalizeEmail(input.email) : null);
  const purpose: FlightPurpose = input.linkUserId ? 'link' : 'sign-in';
  await storeFlight(ctx, request, reply, { team_id: row.team_id, state: auth.state, nonce: auth.nonce, code_verifier: auth.codeVerifier, intended: localIntended(input.intended), purpose, user_id: input.linkUserId ?? null });
  return { url: auth.url, team_id: row.team_id };
}

/** Stores a flight under a random id that only this browser gets (httpOnly cookie). */
async function storeFlight(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, values: { team_id: number; state: string; nonce: string; code_verifier: string; intended: string | null; purpose: FlightPurpose; user_id: number | null }) {
  const id = crypto.randomBytes(32).toString('base64url');
  const now = ctx.now();
  // Old sign-ins nobody finished go as new ones start.
  await ctx.db.deleteFrom('sso_login_states').where('expires_at', '<', now).execute();
  await ctx.db.insertInto('sso_login_states').values({ id_hash: hashToken(id), ...values, expires_at: new Date(now.getTime() + LOGIN_TTL_MS) }).execute();
  // Lax: sent on the app's own calls after the provider's redirect; never on another site's POST.
  reply.setCookie(SSO_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: isSecure(ctx, request), path: COOKIE_PATH, maxAge: LOGIN_TTL_MS / 1000 });
  return id;
}

export type CallbackOutcome =
  | { kind: 'signed-in'; user: UserRow; teamId: number; intended: string; created: boolean }
  | { kind: 'linked'; user: UserRow; teamId: number; intended: string }
  | { kind: 'second-factor'; user: UserRow; teamId: number; intended: string };

/** `params` is the query the provider sent back to /s/auth/redirect (code, state, iss; or error). */
export async function finishSso(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): Promise<CallbackOutcome> {
  const id = request.cookies?.[SSO_COOKIE];
  reply.clearCookie(SSO_COOKIE, { httpOnly: true, sameSite: 'lax', secure: isSecure(ctx, request), path: COOKIE_PATH });
  const now = ctx.now();
  // Single use: taken out whatever happens next.
  const pending = id
    ? await ctx.db.deleteFrom('sso_login_states').where('id_hash', '=', hashToken(id)).where('expires_at', '>', now).where('purpose', '!=', 'second-factor').returningAll().executeTakeFirst()
    : undefined;
  if (!pending || typeof params.state !== 'string' || !safeEqual(params.state, pending.state)) throw fail(422, SsoErrors.stateMismatch, 'sso_state_mismatch');
  if (params.error) {
    const detail = `${params.error}${params.error_description ? `: ${params.error_description}` : ''}`.slice(0, 300);
    throw fail(422, SsoErrors.provider, 'sso_provider_error', { error: detail });
  }
  const row = await readSettings(ctx, pending.team_id);
  if (!row?.oidc_enabled || !row.oidc_issuer || !row.oidc_client_id) throw fail(422, SsoErrors.notConfigured, 'sso_not_configured');
  const config = await configOf(ctx, row);
  const callbackUrl = new URL(redirectUri(ctx));
  for (const [k, v] of Object.entries(params)) callbackUrl.searchParams.set(k, v);
  let identity;
  try {
    identity = await exchangeCode(config, callbackUrl, { state: pending.state, nonce: pending.nonce, codeVerifier: pending.code_verifier });
  } catch (error) {
    if (error instanceof client.AuthorizationResponseError) throw fail(422, SsoErrors.provider, 'sso_provider_error', { error: describe(error) });
    request.log.warn({ err: describe(error) }, 'sso code exchange failed');
    throw fail(422, SsoErrors.failed, 'sso_failed', { error: describe(error) });
  }
  const issuer = row.oidc_issuer;
  const teamId = row.team_id;
  const team = await ctx.db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow();

  if (pending.purpose === 'link') {
    // The signed-in account (password confirmed when the flight started) links this identity.
    const owner = await ctx.db.selectFrom('users').selectAll().where('id', '=', pending.user_id!).executeTakeFirst();
    if (!owner) throw fail(422, SsoErrors.stateMismatch, 'sso_state_mismatch');
    const taken = await ctx.db.selectFrom('sso_identity_links').select('user_id').where('issuer', '=', issuer).where('subject', '=', identity.subject).executeTakeFirst();
    if (taken && taken.user_id !== owner.id) throw fail(409, SsoErrors.linkedElsewhere, 'sso_linked_elsewhere');
    if (!taken) await ctx.db.insertInto('sso_identity_links').values({ user_id: owner.id, issuer, subject: identity.subject, created_at: now }).onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing()).execute();
    return { kind: 'linked', user: owner, teamId, intended: pending.intended ?? '/profile/security' };
  }

  if (!identity.email || !identity.emailVerified) throw fail(422, SsoErrors.emailNotVerified, 'sso_email_not_verified');
  const email = normalizeEmail(identity.email);
  // Only a domain the workspace proved it owns (DNS TXT) signs anyone in.
  if (!verifiedDomains(row).includes(domainOf(email))) throw fail(422, SsoErrors.domainNotAllowed, 'sso_domain_not_allowed');

  const link = await ctx.db.selectFrom('sso_identity_links').select('user_id').where('issuer', '=', issuer).where('subject', '=', identity.subject).executeTakeFirst();
  let user = link ? await ctx.db.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst() : await findUserByEmail(ctx.db, email);
  let created = false;
  if (user) {
    // An existing account signs in only through an identity it linked itself (N1); an e-mail
    // address the provider asserts is no consent, and neither is an invitation.
    if (!link) throw fail(403, SsoErrors.notLinked, 'sso_not_linked');
    const membership = await ctx.db.selectFrom('team_members').select(['verified_at']).where('team_id', '=', teamId).where('user_id', '=', user.id).executeTakeFirst();
    if (team.owner_id !== user.id && !membership?.verified_at) throw fail(403, SsoErrors.notMember, 'sso_not_member');
  } else {
    // Refused before an account is made when the workspace has no seat left.
    const limit = (await subscriptionLimits(ctx, ctx.db, team.subscription_id, now)).members;
    if ((await seatsTaken(ctx.db, teamId)) >= limit) throw fail(403, MEMBER_LIMIT_MESSAGE, 'sso_member_limit');
    user = await createUser(ctx, { email, name: identity.name?.trim() || email.split('@')[0]!, password: null, verified: true });
    created = true;
    await ctx.db.insertInto('sso_identity_links').values({ user_id: user.id, issuer, subject: identity.subject, created_at: now }).onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing()).execute();
    await addMember(ctx, team.id, team.subscription_id, user.id, now);
  }
  if (!user.email_verified_at && normalizeEmail(user.email) === email) {
    user = await ctx.db.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
  }
  const intended = pending.intended ?? `/team/${teamId}`;
  // An account with a second factor gives it here too, unless this workspace requires SSO for its
  // (proven) domain: then the provider's own sign-in is the account's way in.
  if (user.totp_enabled_at && !(row.enforce_sso && verifiedDomains(row).includes(domainOf(user.email)) && team.owner_id !== user.id)) {
    await storeFlight(ctx, request, reply, { team_id: teamId, state: '', nonce: '', code_verifier: '', intended, purpose: 'second-factor', user_id: user.id });
    return { kind: 'second-factor', user, teamId, intended };
  }
  return { kind: 'signed-in', user, teamId, intended, created };
}

/** The flight of a sign-in waiting for its second factor (kept until the code is right or it expires). */
export async function secondFactorFlight(ctx: AppContext, request: FastifyRequest) {
  const id = request.cookies?.[SSO_COOKIE];
  if (!id) return undefined;
  return ctx.db.selectFrom('sso_login_states').selectAll().where('id_hash', '=', hashToken(id)).where('purpose', '=', 'second-factor').where('expires_at', '>', ctx.now()).executeTakeFirst();
}

export async function endFlight(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, idHash: string) {
  await ctx.db.deleteFrom('sso_login_states').where('id_hash', '=', idHash).execute();
  reply.clearCookie(SSO_COOKIE, { httpOnly: true, sameSite: 'lax', secure: isSecure(ctx, request), path: COOKIE_PATH });
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** A new account joins as a full member, within the plan's member limit (seats counted under the team's row lock). */
async function addMember(ctx: AppContext, teamId: number, subscriptionId: number | null, userId: number, now: Date) {
  const limit = (await subscriptionLimits(ctx, ctx.db, subscriptionId, now)).members;
  const seated = await ctx.db.transaction().execute(async (trx) => {
    await trx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().execute();
    if ((await seatsTaken(trx, teamId)) >= limit) return false;
    await trx.insertInto('team_members').values({ team_id: teamId, user_id: userId, role: 'full-member', verified_at: now, invited_by: null, created_at: now }).execute();
    await appendMemberEvent(trx, { teamId, type: 'member.added', userId, actorId: userId, before: null, after: { user_id: userId, role: 'full-member', invited_by: null, via: 'sso' }, now });
    return true;
  });
  if (!seated) throw fail(403, MEMBER_LIMIT_MESSAGE, 'sso_member_limit');
  await publishMember(ctx, teamId, userId);
}

async function publishMember(ctx: AppContext, teamId: number, userId: number) {
  const row = await memberRows(ctx.db, teamId, { userId }).executeTakeFirst();
  if (row) await publishMemberSaved(ctx, teamId, memberView(row));
}
