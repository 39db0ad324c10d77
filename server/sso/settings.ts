import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { secretsKey, seal, unseal } from '../secret-box';
import { oidcBody, samlBody, ssoSaveBody, ssoTestBody, type SsoView } from '../../schema/sso';
import { verificationRecord, verificationValue } from '../whitelabel/service';
import { lookupTxt } from '../whitelabel/txt';

/**
 * A workspace's single sign-on settings (decision 0270). OpenID Connect signs people in; SAML
 * settings are stored and checked (the certificate is parsed) but no SAML sign-in exists yet:
 * the screen says so.
 */
export type SsoRow = Selectable<Database['sso_settings']>;

export const SECRET_PURPOSE = 'sso.oidc.client_secret';
/** The path the provider sends people back to (shell.md §2: auth.redirect). */
export const REDIRECT_PATH = '/s/auth/redirect';

/** The bodies and the view are shared with the app: schema/sso.ts. */
export { oidcBody, samlBody, ssoSaveBody, ssoTestBody, type SsoView };

const key = (ctx: AppContext) => secretsKey(ctx.config.dataDir, ctx.config.secretsKey);
export const redirectUri = (ctx: AppContext) => new URL(REDIRECT_PATH, ctx.config.publicUrl).href;

/** Parses a PEM (or bare base64) X.509 certificate; 422 when it is not one. */
export function parseCertificate(text: string): crypto.X509Certificate {
  const body = text.includes('-----BEGIN CERTIFICATE-----') ? text : `-----BEGIN CERTIFICATE-----\n${text.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;
  try {
    return new crypto.X509Certificate(body);
  } catch {
    throw new ApiError(422, 'saml.certificate: must be an X.509 certificate (PEM)', 'validation', ['saml.certificate: must be an X.509 certificate (PEM)']);
  }
}

export async function readSettings(ctx: AppContext, teamId: number): Promise<SsoRow | undefined> {
  return ctx.db.selectFrom('sso_settings').selectAll().where('team_id', '=', teamId).executeTakeFirst();
}

/** The client secret in clear, for the code exchange; null when none is stored or it cannot be unsealed. */
export function clientSecretOf(ctx: AppContext, row: SsoRow): string | null {
  return row.oidc_client_secret ? unseal(key(ctx), row.oidc_client_secret, SECRET_PURPOSE) : null;
}

export function viewOf(ctx: AppContext, teamId: number, row: SsoRow | undefined): SsoView {
  const signIn = new URL('/auth', ctx.config.publicUrl);
  signIn.searchParams.set('workspace', String(teamId));
  let saml: SsoView['saml'] = null;
  if (row?.saml_entity_id && row.saml_sso_url && row.saml_certificate) {
    let subject: string | null = null;
    let validTo: string | null = null;
    try {
      const cert = parseCertificate(row.saml_certificate);
      subject = cert.subject.replace(/\n/g, ', ');
      validTo = new Date(cert.validTo).toISOString();
    } catch {
      // Stored before a check existed or damaged: shown without its details.
    }
    saml = { entity_id: row.saml_entity_id, sso_url: row.saml_sso_url, certificate_subject: subject, certificate_valid_to: validTo, active: false };
  }
  return {
    team_id: teamId,
    redirect_uri: redirectUri(ctx),
    sign_in_url: signIn.href,
    oidc:
      row?.oidc_issuer && row.oidc_client_id
        ? { issuer: row.oidc_issuer, client_id: row.oidc_client_id, has_client_secret: !!row.oidc_client_secret, enabled: row.oidc_enabled, enforce: row.enforce_sso, allowed_domains: row.allowed_domains as string[] }
        : null,
    domains:
      row?.oidc_issuer && row.domain_token
        ? (row.allowed_domains as string[]).map((domain) => ({ domain, record: verificationRecord(domain), value: verificationValue(row.domain_token!), verified: verifiedDomains(row).includes(domain) }))
        : [],
    saml,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/** Saves the halves the body names; answers the stored row. */
export async function saveSettings(ctx: AppContext, teamId: number, userId: number, body: z.infer<typeof ssoSaveBody>, current: SsoRow | undefined): Promise<SsoRow> {
  const now = ctx.now();
  const values: Partial<Record<keyof SsoRow, unknown>> = { updated_by: userId, updated_at: now };
  if (body.oidc === null) {
    Object.assign(values, { oidc_issuer: null, oidc_client_id: null, oidc_client_secret: null, oidc_enabled: false, enforce_sso: false, allowed_domains: JSON.stringify([]), verified_domains: JSON.stringify([]) });
  } else if (body.oidc) {
    const o = body.oidc;
    const sameIssuer = current?.oidc_issuer === o.issuer && current?.oidc_client_id === o.client_id;
    let secret = sameIssuer ? (current?.oidc_client_secret ?? null) : null;
    if (o.client_secret && o.client_secret.trim()) secret = seal(key(ctx), o.client_secret.trim(), SECRET_PURPOSE);
    if (!secret) throw new ApiError(422, 'oidc.client_secret: is required', 'validation', ['oidc.client_secret: is required']);
    Object.assign(values, {
      oidc_issuer: o.issuer,
      oidc_client_id: o.client_id,
      oidc_client_secret: secret,
      oidc_enabled: o.enabled ?? true,
      // Required only while the provider is on: a provider switched off never locks anyone out.
      enforce_sso: (o.enforce ?? false) && (o.enabled ?? true),
      allowed_domains: JSON.stringify([...new Set(o.allowed_domains)]),
      // A domain keeps its proof while it stays allowed; a new one must prove itself (N1).
      verified_domains: JSON.stringify(verifiedDomains(current).filter((d) => o.allowed_domains.includes(d))),
      domain_token: current?.domain_token ?? crypto.randomBytes(18).toString('base64url'),
    });
  }
  if (body.saml === null) {
    Object.assign(values, { saml_entity_id: null, saml_sso_url: null, saml_certificate: null });
  } else if (body.saml) {
    const cert = parseCertificate(body.saml.certificate);
    Object.assign(values, { saml_entity_id: body.saml.entity_id, saml_sso_url: body.saml.sso_url, saml_certificate: cert.toString() });
  }
  const insert = {
    team_id: teamId,
    oidc_issuer: null,
    oidc_client_id: null,
    oidc_client_secret: null,
    oidc_enabled: false,
    enforce_sso: false,
    allowed_domains: JSON.stringify([]),
    saml_entity_id: null,
    saml_sso_url: null,
    saml_certificate: null,
    ...values,
  } as never;
  return ctx.db
    .insertInto('sso_settings')
    .values(insert)
    .onConflict((oc) => oc.column('team_id').doUpdateSet(values as never))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSettings(ctx: AppContext, teamId: number): Promise<void> {
  await ctx.db.deleteFrom('sso_settings').where('team_id', '=', teamId).execute();
  await ctx.db.deleteFrom('sso_login_states').where('team_id', '=', teamId).execute();
}

/** Allowed domains whose DNS TXT record proved the workspace owns them: only these sign in or are enforced (N1). */
export function verifiedDomains(row: Pick<SsoRow, 'allowed_domains' | 'verified_domains'> | undefined): string[] {
  return ((row?.verified_domains ?? []) as string[]).filter((d) => ((row?.allowed_domains ?? []) as string[]).includes(d));
}

/** Workspaces whose enabled OpenID Connect settings allow this e-mail domain (a verified one). */
export async function workspacesForDomain(ctx: AppContext, emailDomain: string): Promise<SsoRow[]> {
  const rows = await ctx.db.selectFrom('sso_settings').selectAll().where('oidc_enabled', '=', true).where('oidc_issuer', 'is not', null).execute();
  return rows.filter((r) => verifiedDomains(r).includes(emailDomain));
}

/**
 * Looks up each allowed domain's TXT record (`_cairn-verification.<domain>`, as for white-label
 * domains) and stores the ones that hold this workspace's value. A domain that stops proving
 * itself keeps its earlier proof (a DNS hiccup must not lock members out). Answers the row and,
 * per domain still unproven, why.
 */
export async function verifySsoDomains(ctx: AppContext, teamId: number): Promise<{ row: SsoRow | undefined; problems: Record<string, string> }> {
  const row = await readSettings(ctx, teamId);
  if (!row?.oidc_issuer || !row.domain_token) return { row, problems: {} };
  const expected = verificationValue(row.domain_token);
  const verified = new Set(verifiedDomains(row));
  const problems: Record<string, string> = {};
  for (const domain of row.allowed_domains as string[]) {
    if (verified.has(domain)) continue;
    const record = verificationRecord(domain);
    try {
      const answers = (await lookupTxt(ctx, record)).map((chunks) => chunks.join(''));
      if (answers.includes(expected)) verified.add(domain);
      else problems[domain] = answers.length ? `The TXT record ${record} holds another value.` : `No TXT record ${record} was found.`;
    } catch (error) {
      const code = (error as { code?: string }).code;
      problems[domain] = code === 'ENOTFOUND' || code === 'ENODATA' ? `No TXT record ${record} was found.` : `The DNS lookup of ${record} failed (${code ?? 'error'}).`;
    }
  }
  const updated = await ctx.db
    .updateTable('sso_settings')
    .set({ verified_domains: JSON.stringify([...verified]), updated_at: ctx.now() })
    .where('team_id', '=', teamId)
    .returningAll()
    .executeTakeFirst();
  return { row: updated, problems };
}
