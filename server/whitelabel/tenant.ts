import fs from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { APP_NAME_KEY, COLOR_KEY_PREFIX, FONT_KEY, SAFE_COLOR, WHITELABEL_COLOR_NAMES, fontFamilyOf } from '../../schema/whitelabel';
import { storedWhitelabel, whitelabelEligibility } from './service';

/**
 * Tenant resolution by Host (workspace.md §6, shell.md §3; decision 0265). A request whose host is
 * a workspace's verified domain, while the workspace may use white label, belongs to that tenant:
 * `/api/app-vars` answers its tenant key, settings and app config, and the served index.html
 * carries its title, favicon, theme colour, font and colours before the app's code runs (a
 * same-origin stylesheet, `GET /api/tenant.css`, and a JSON data block the app reads; the CSP
 * allows no inline script or style). Any other host is the common app.
 */

export interface Tenant {
  teamId: number;
  key: string;
  name: string | null;
  /** The settings keys of workspace.md §3 (flat): app.name, app.customization.font, app.customization.colors.*. */
  settings: Record<string, string>;
  logo: string | null;
  loader: string | null;
  logoWide: string | null;
  /** The primary colour, or null. */
  color: string | null;
  fontUrl: string | null;
  fontFamily: string | null;
  /** Changes with every settings change (the stylesheet's cache key). */
  version: string;
}

/** How long a host's answer is reused; a change reaches every server within this. */
export const TENANT_CACHE_MS = 5_000;

const caches = new WeakMap<object, Map<string, { at: number; value: Promise<Tenant | null> }>>();

/** The host name a request was made for, lower case, without port. */
export function requestHost(request: FastifyRequest): string {
  return (request.hostname || '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

async function lookup(ctx: AppContext, host: string): Promise<Tenant | null> {
  const row = await ctx.db
    .selectFrom('team_whitelabel')
    .innerJoin('teams', 'teams.id', 'team_whitelabel.team_id')
    .select(['teams.id', 'teams.subscription_id', 'teams.whitelabel_settings', 'team_whitelabel.tenant_key', 'team_whitelabel.updated_at'])
    .where('team_whitelabel.domain', '=', host)
    .where('team_whitelabel.domain_verified_at', 'is not', null)
    .executeTakeFirst();
  if (!row) return null;
  // A workspace whose plan no longer includes white label is served as the common app.
  if (!(await whitelabelEligibility(ctx, ctx.db, { id: row.id, subscription_id: row.subscription_id }, ctx.now())).eligible) return null;
  const stored = storedWhitelabel(row.whitelabel_settings);
  const settings = stored.settings;
  const fontUrl = settings[FONT_KEY] ?? null;
  return {
    teamId: row.id,
    key: row.tenant_key,
    name: settings[APP_NAME_KEY] ?? null,
    settings,
    logo: stored.logo,
    loader: stored.loader,
    logoWide: stored.logoWide,
    color: settings[`${COLOR_KEY_PREFIX}primary`] ?? null,
    fontUrl,
    fontFamily: fontFamilyOf(fontUrl),
    version: String(new Date(row.updated_at).getTime()),
  };
}

/** The tenant of a host, or null for the common app. Cached for TENANT_CACHE_MS per server. */
export function tenantForHost(ctx: AppContext, host: string, opts: { fresh?: boolean } = {}): Promise<Tenant | null> {
  if (!host || host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':')) return Promise.resolve(null);
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(host);
  if (!opts.fresh && hit && now - hit.at < TENANT_CACHE_MS) return hit.value;
  if (cache.size > 5_000) cache.clear();
  const value = lookup(ctx, host).catch(() => null);
  cache.set(host, { at: now, value });
  return value;
}

/** Drops this server's cached answers (after a settings change on this server). */
export function forgetTenants(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}

export const tenantOf = (ctx: AppContext, request: FastifyRequest) => tenantForHost(ctx, requestHost(request));

/**
 * The white-label part of `/api/app-vars`: `tenantKey`, `settings` (flat keys) and `appConfig`
 * (workspace.md §3: workspaceId, common, whitelabel, logo, loader, logoWide, color, name).
 * The common app keeps the operator's TENANT_KEY and no settings.
 */
export async function tenantAppVars(ctx: AppContext, request: FastifyRequest): Promise<Record<string, unknown>> {
  const tenant = await tenantOf(ctx, request);
  if (!tenant) {
    return {
      tenantKey: process.env.TENANT_KEY ?? null,
      settings: null,
      appConfig: { workspaceId: null, common: true, whitelabel: false, logo: null, loader: null, logoWide: null, color: null, name: null },
    };
  }
  return {
    tenantKey: tenant.key,
    settings: tenant.settings,
    appConfig: { workspaceId: tenant.teamId, common: false, whitelabel: true, logo: tenant.logo, loader: tenant.loader, logoWide: tenant.logoWide, color: tenant.color, name: tenant.name },
  };
}

/** The CSS custom properties of the app's colour tokens (src/ui/tokens.ts COLOR_TOKENS). */
const TOKEN_PROPERTY: Record<string, string> = {
  primary: '--color-primary', primaryContrast: '--color-primary-contrast', background: '--color-bg', surface: '--color-surface',
  surfaceRaised: '--color-surface-raised', sunken: '--color-surface-sunken', border: '--color-border', text: '--color-text',
  textMuted: '--color-text-muted', danger: '--color-danger', success: '--color-success', warning: '--color-warning', info: '--color-info',
  focus: '--color-focus', sidebar: '--color-sidebar', sidebarText: '--color-sidebar-text',
};

/** The tenant's stylesheet: its colours over both themes and its font. Values were checked on write and are checked again here. */
export function tenantCss(tenant: Tenant | null): string {
  if (!tenant) return '/* no white label on this host */\n';
  const lines: string[] = [];
  for (const name of WHITELABEL_COLOR_NAMES) {
    const value = tenant.settings[COLOR_KEY_PREFIX + name]?.trim();
    if (value && SAFE_COLOR.test(value)) lines.push(`  ${TOKEN_PROPERTY[name]}: ${value};`);
  }
  if (tenant.fontFamily) lines.push(`  --font-sans: "${tenant.fontFamily}", system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif;`);
  // html[data-tenant] outweighs theme.css's :root[data-theme='dark'], so both themes take the colours.
  return `html[data-tenant], html[data-tenant][data-theme] {\n${lines.join('\n')}\n}\n`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** index.html with the tenant's title, icons, theme colour, stylesheets and data block; the common app's file unchanged. */
export function tenantIndexHtml(html: string, tenant: Tenant): string {
  let out = html;
  if (tenant.name) {
    out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(tenant.name)}</title>`);
    out = out.replace(/<meta name="description" content="[^"]*"/, `<meta name="description" content="${escapeHtml(tenant.name)}"`);
  }
  if (tenant.logo) {
    out = out.replace(/<link rel="icon"[^>]*>/, `<link rel="icon" href="${escapeHtml(tenant.logo)}" />`);
    out = out.replace(/<link rel="apple-touch-icon"[^>]*>/, `<link rel="apple-touch-icon" href="${escapeHtml(tenant.logo)}" />`);
  }
  if (tenant.color) out = out.replace(/<meta name="theme-color" content="[^"]*"/, `<meta name="theme-color" content="${escapeHtml(tenant.color)}"`);
  out = out.replace(/<html\b/, `<html data-tenant="${escapeHtml(tenant.key)}"`);
  // The data block is not a script the browser runs (type application/json), so the CSP allows it;
  // `<` is escaped so no value can close it.
  const data = JSON.stringify({ tenantKey: tenant.key, workspaceId: tenant.teamId, name: tenant.name, logo: tenant.logo, logoWide: tenant.logoWide, loader: tenant.loader, color: tenant.color, settings: tenant.settings }).replace(/</g, '\\u003c');
  const head = [
    tenant.fontUrl ? `<link rel="stylesheet" href="${escapeHtml(tenant.fontUrl)}" />` : '',
    `<link rel="stylesheet" href="/api/tenant.css?v=${tenant.version}" />`,
    `<script id="cairn-tenant" type="application/json">${data}</script>`,
  ].filter(Boolean);
  return out.replace('</head>', `    ${head.join('\n    ')}\n  </head>`);
}

/** The CSP of a tenant page: the font stylesheet's origin for styles, and https fonts (the stylesheet names where its files are). */
export function tenantCsp(current: string, tenant: Tenant): string {
  if (!tenant.fontUrl) return current;
  const origin = new URL(tenant.fontUrl).origin;
  return current
    .split(';')
    .map((part) => {
      const directive = part.trim();
      if (directive.startsWith('style-src ')) return ` ${directive} ${origin}`;
      if (directive.startsWith('font-src ')) return ` ${directive} https:`;
      return part;
    })
    .join(';')
    .trim();
}

/**
 * Sends index.html for a tenant's host (server/app.ts asks this before sending the file).
 * Returns false for the common app, which sends the file as it is.
 */
export async function sendTenantIndex(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, indexHtml: string, status: number): Promise<boolean> {
  const tenant = await tenantOf(ctx, request);
  if (!tenant) return false;
  const html = tenantIndexHtml(await fs.readFile(indexHtml, 'utf8'), tenant);
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') reply.header('content-security-policy', tenantCsp(csp, tenant));
  await reply.status(status).type('text/html').header('cache-control', 'no-cache').header('vary', 'host').send(html);
  return true;
}
