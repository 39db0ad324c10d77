import { z } from 'zod';

/**
 * The single sign-on wire shapes (decision 0270), one definition for the server (server/sso) and
 * the app (src/api/sso.ts, the SSO settings and sign-in screens): the owner's settings, the
 * connection test, and the start of a sign-in. The server validates input with the `…Body`
 * schemas and builds its answers as the types here; tests/server/wire-shapes.test.ts parses the
 * real answers with them. The app imports the types only.
 */

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain such as example.com'));

export const oidcBody = z.object({
  issuer: z.string().trim().min(1, 'is required').max(2000),
  client_id: z.string().trim().min(1, 'is required').max(500),
  /** Left out or empty on an update: the stored secret stays. */
  client_secret: z.string().max(2000).optional(),
  enabled: z.boolean().optional(),
  /** Members of the allowed domains (not the owner) may not sign in with a password. */
  enforce: z.boolean().optional(),
  allowed_domains: z.array(domain).min(1, 'name at least one e-mail domain').max(50),
});
export type OidcInput = z.input<typeof oidcBody>;

export const samlBody = z.object({
  entity_id: z.string().trim().min(1, 'is required').max(1024),
  sso_url: z.string().trim().url('must be a URL').max(2000).refine((u) => u.startsWith('https://'), 'must be an https URL'),
  certificate: z.string().trim().min(1, 'is required').max(20_000),
});
export type SamlInput = z.input<typeof samlBody>;

/** PUT /api/{teamId}/sso. */
export const ssoSaveBody = z.object({
  /** null removes that half; left out keeps it. */
  oidc: oidcBody.nullable().optional(),
  saml: samlBody.nullable().optional(),
});
export type SsoSaveInput = z.input<typeof ssoSaveBody>;

/** POST /api/{teamId}/sso/test (without an issuer: the stored one). */
export const ssoTestBody = z.object({ issuer: z.string().trim().min(1).max(2000).optional() });

/** GET, PUT and DELETE /api/{teamId}/sso. The client secret is never answered, only whether one is stored. */
export const ssoViewSchema = z.object({
  team_id: z.number(),
  redirect_uri: z.string(),
  /** A sign-in link for this workspace's members (the /auth screen with the workspace chosen). */
  sign_in_url: z.string(),
  oidc: z.object({ issuer: z.string(), client_id: z.string(), has_client_secret: z.boolean(), enabled: z.boolean(), enforce: z.boolean(), allowed_domains: z.array(z.string()) }).nullable(),
  /** Stored and checked; no SAML sign-in exists yet (`active: false`). */
  saml: z.object({ entity_id: z.string(), sso_url: z.string(), certificate_subject: z.string().nullable(), certificate_valid_to: z.string().nullable(), active: z.literal(false) }).nullable(),
  /** Each allowed domain and the DNS TXT record that proves it: only verified ones sign in or are enforced. */
  domains: z.array(z.object({ domain: z.string(), record: z.string(), value: z.string(), verified: z.boolean() })),
  updated_at: z.string().nullable(),
});
export type SsoView = z.infer<typeof ssoViewSchema>;

/** POST /api/{teamId}/sso/test: what the issuer's discovery document says. */
export const ssoDiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().nullable(),
  token_endpoint: z.string().nullable(),
  userinfo_endpoint: z.string().nullable(),
  jwks_uri: z.string().nullable(),
  scopes_supported: z.array(z.string()),
  pkce_s256: z.boolean(),
});
export type SsoDiscovery = z.infer<typeof ssoDiscoverySchema>;

/** POST /api/auth/sso/start: by the workspace or the work e-mail's domain. */
export const ssoStartBody = z
  .object({
    email: z.string().trim().email('must be an e-mail address').max(254).optional(),
    team_id: z.number().int().positive().optional(),
    intended: z.string().max(2000).optional(),
  })
  .refine((b) => b.email !== undefined || b.team_id !== undefined, { message: 'enter your work e-mail address', path: ['email'] });
export type SsoStartInput = z.input<typeof ssoStartBody>;
/** The identity provider's URL to open. */
export const ssoStartAnswerSchema = z.object({ url: z.string(), team_id: z.number() });
export type SsoStartAnswer = z.infer<typeof ssoStartAnswerSchema>;

/** POST /api/auth/sso/callback: the query string the identity provider sent the browser back with (code, state, iss; or error). */
export const ssoCallbackBody = z.object({
  params: z.record(z.string(), z.string().max(4000)).refine((p) => Object.keys(p).length <= 20, 'too many parameters'),
  grantType: z.literal('password').optional(),
});

/** POST /api/{teamId}/sso/verify: the settings, and why each domain still unproven is not. */
export const ssoVerifyAnswerSchema = z.object({ data: ssoViewSchema, problems: z.record(z.string(), z.string()) });

/** POST /api/auth/sso/second-factor: the code that follows a sign-in of an account with two-factor on. */
export const ssoSecondFactorBody = z.object({
  totp: z.string().trim().max(20).optional(),
  recoveryCode: z.string().trim().max(64).optional(),
  grantType: z.literal('password').optional(),
});

/** POST /api/me/sso-links/start: link the signed-in account to a workspace's provider. */
export const ssoLinkStartBody = z.object({ team_id: z.number().int().positive().max(2147483647), intended: z.string().max(2000).optional() });

/** GET /api/me/sso-links: the account's links, and the providers of its workspaces it may link. */
export const ssoLinksSchema = z.object({
  links: z.array(z.object({ id: z.number(), issuer: z.string(), created_at: z.string() })),
  providers: z.array(z.object({ team_id: z.number(), team_name: z.string(), issuer: z.string(), linked: z.boolean() })),
});
export type SsoLinks = z.infer<typeof ssoLinksSchema>;
