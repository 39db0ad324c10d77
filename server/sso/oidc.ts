import * as client from 'openid-client';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { checkTargetUrl, outboundFetch, outboundRule, TargetRefused, type AddressRule } from '../outbound';

/**
 * OpenID Connect through the maintained `openid-client` library (decision 0270): discovery,
 * the authorisation URL (code flow, PKCE S256, state, nonce) and the code exchange with the ID
 * token's checks (signature against the provider's JWKS, issuer, audience, expiry, nonce).
 *
 * The issuer URL is the owner's input, and the server fetches it: like webhook targets, it must
 * resolve to a public address over https, unless SSO_ALLOW_PRIVATE_ISSUERS is set (an intranet
 * provider, tests), which also allows plain http; SSO_ALLOWED_HOSTS names single intranet hosts.
 * Every request of the library (discovery, token, JWKS, userinfo: addresses the provider's
 * document names) goes through the outbound client (customFetch), checked at each connection.
 */
export const DISCOVERY_FAILED = 'The identity provider could not be reached or did not answer with an OpenID Connect configuration.';
const TIMEOUT_S = 10;

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

/** Refuses an issuer URL the server must not fetch; answers the parsed URL. */
export async function checkIssuerUrl(ctx: AppContext, raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(422, 'oidc.issuer: must be a URL', 'validation', ['oidc.issuer: must be a URL']);
  }
  const rule = outboundRule(ctx.config, 'sso');
  const allowPrivate = rule.allowPrivate;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new ApiError(422, 'oidc.issuer: must be an https URL', 'validation', ['oidc.issuer: must be an https URL']);
  }
  try {
    await checkTargetUrl(url.toString(), rule);
  } catch (error) {
    if (error instanceof TargetRefused) throw new ApiError(422, `oidc.issuer: ${error.message}`, 'validation', [`oidc.issuer: ${error.message}`]);
    throw error;
  }
  return url;
}

/** The provider's configuration, fetched from its /.well-known/openid-configuration. */
export async function discover(ctx: AppContext, settings: OidcClientSettings): Promise<client.Configuration> {
  const url = await checkIssuerUrl(ctx, settings.issuer);
  try {
    return await client.discovery(url, settings.clientId, settings.clientSecret ?? undefined, undefined, {
      timeout: TIMEOUT_S,
      [client.customFetch]: guardedFetch(outboundRule(ctx.config, 'sso')),
      ...(url.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    throw new ApiError(422, `${DISCOVERY_FAILED} (${describe(error)})`, 'sso_discovery_failed', { cause: describe(error) });
  }
}

/** The library's fetch, through the outbound client under the SSO feature's address rule. */
function guardedFetch(rule: AddressRule): client.CustomFetch {
  return async (url, options) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Uint8Array | undefined;
    const raw = options.body as unknown;
    if (typeof raw === 'string') body = raw;
    else if (raw instanceof URLSearchParams) {
      body = raw.toString();
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (raw != null) body = new Uint8Array(await new Response(raw as BodyInit).arrayBuffer());
    return outboundFetch(rule, url, { method: options.method, headers, body, timeoutMs: TIMEOUT_S * 1000, maxBytes: 1024 * 1024, signal: options.signal ?? undefined });
  };
}

/** A short, safe description of a library or network error (no stack). */
export function describe(error: unknown): string {
  if (error instanceof client.ResponseBodyError) return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && cause.message !== error.message ? ` (${cause.message})` : '';
    return `${error.message}${detail}`.slice(0, 300);
  }
  return String(error).slice(0, 300);
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationRequest(config: client.Configuration, redirectUri: string, loginHint: string | null): Promise<AuthorizationRequest> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(loginHint ? { login_hint: loginHint } : {}),
  });
  return { url: url.href, state, nonce, codeVerifier };
}

export interface VerifiedIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * Exchanges the code (with the PKCE verifier) and checks the ID token. The e-mail comes from the ID
 * token, else from the userinfo endpoint (same subject). Throws the library's errors.
 */
export async function exchangeCode(config: client.Configuration, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<VerifiedIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  let email = typeof claims.email === 'string' ? claims.email : null;
  let verified = claims.email_verified === true;
  let name = typeof claims.name === 'string' ? claims.name : null;
  if (!email && config.serverMetadata().userinfo_endpoint) {
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    email = typeof info.email === 'string' ? info.email : null;
    verified = info.email_verified === true;
    name = name ?? (typeof info.name === 'string' ? info.name : null);
  }
  return { subject: claims.sub, email, emailVerified: verified, name };
}

export { client };
