import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { effectiveLimits, subscriptionState } from '../billing/limits';
import { WHITELABEL_ASSETS, WhitelabelMessages, type WhitelabelAsset, type WhitelabelState } from '../../schema/whitelabel';
import { secretsKey, seal, unseal } from '../secret-box';

/**
 * White label of a workspace (issue #18, workspace.md §3, §5, §6, §7; decision 0265): who may have
 * it, its stored state and the answer of GET/PUT /api/teams/whitelabel/{id}.
 */

type Db = Kysely<Database> | Transaction<Database>;
export type WhitelabelRow = Selectable<Database['team_whitelabel']>;
type TeamRow = Selectable<Database['teams']>;

/** Plans of this version and later no longer include white label by their version alone (workspace.md §6). */
export const WHITELABEL_PLAN_VERSION = 8;

/** A custom-plan deal: a plan an operator made for one customer, named `custom` or `custom-…` (docs/api/whitelabel.md). */
export const isCustomDeal = (deal: string | null | undefined) => !!deal && /^custom(-|$)/.test(deal);

/** The TXT record that proves a domain, and its expected value. */
export const verificationRecord = (domain: string) => `_cairn-verification.${domain}`;
export const verificationValue = (token: string) => `cairn-verification=${token}`;

export type Eligibility = { eligible: true; reason: 'plan_version' | 'custom_deal' | 'limit' } | { eligible: false; reason: 'not_eligible' | 'limit_exceeded' };

/**
 * workspace.md §6: white label is supported for plan versions below 8, custom-plan deals, or a
 * positive WhitelabelLimit (the effective one: BILLING=off gives the top plan's). A subscription
 * that has ended keeps none of the three. WhitelabelLimit counts the workspaces of the subscription
 * that use white label; one more than it allows is "limit_exceeded".
 */
export async function whitelabelEligibility(ctx: Pick<AppContext, 'config'>, db: Db, team: Pick<TeamRow, 'id' | 'subscription_id'>, now: Date): Promise<Eligibility> {
  const sub = team.subscription_id === null ? undefined : await db.selectFrom('subscriptions').select(['id', 'deal', 'version', 'limits', 'trial_ends_at', 'ends_at']).where('id', '=', team.subscription_id).executeTakeFirst();
  const live = sub ? !['expired', 'trial_expired'].includes(subscriptionState(sub, now)) : false;
  if (sub && live && sub.version < WHITELABEL_PLAN_VERSION) return { eligible: true, reason: 'plan_version' };
  if (sub && live && isCustomDeal(sub.deal)) return { eligible: true, reason: 'custom_deal' };
  const limit = (await effectiveLimits(ctx, db, sub ?? null, now)).WhitelabelLimit;
  if (limit <= 0) return { eligible: false, reason: 'not_eligible' };
  if (!sub) return { eligible: true, reason: 'limit' };
  const others = await db
    .selectFrom('team_whitelabel')
    .innerJoin('teams', 'teams.id', 'team_whitelabel.team_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('teams.subscription_id', '=', sub.id)
    .where('teams.id', '!=', team.id)
    .executeTakeFirstOrThrow();
  return Number(others.n) >= limit ? { eligible: false, reason: 'limit_exceeded' } : { eligible: true, reason: 'limit' };
}

/** 422 with the spec's words when the workspace may not have white label. */
export function requireEligible(e: Eligibility): void {
  if (e.eligible) return;
  if (e.reason === 'limit_exceeded') throw new ApiError(422, WhitelabelMessages.limitExceeded, 'whitelabel_limit_exceeded');
  throw new ApiError(422, WhitelabelMessages.needsLtd, 'whitelabel_not_eligible');
}

export async function whitelabelRow(db: Db, teamId: number): Promise<WhitelabelRow | undefined> {
  return db.selectFrom('team_whitelabel').selectAll().where('team_id', '=', teamId).executeTakeFirst();
}

/** The workspace's row, made on first use with its tenant key and domain token. */
export async function ensureWhitelabelRow(db: Db, teamId: number, now: Date): Promise<WhitelabelRow> {
  const existing = await whitelabelRow(db, teamId);
  if (existing) return existing;
  await db
    .insertInto('team_whitelabel')
    .values({ team_id: teamId, tenant_key: `t_${crypto.randomBytes(9).toString('base64url')}`, domain: null, domain_token: crypto.randomBytes(18).toString('base64url'), domain_verified_at: null, domain_checked_at: null, domain_problem: null, smtp: null, smtp_password: null, updated_at: now })
    .onConflict((oc) => oc.column('team_id').doNothing())
    .execute();
  return (await whitelabelRow(db, teamId))!;
}

/** teams.whitelabel_settings as stored: `{settings: {flat keys}, logo, loader, logoWide, link}`. */
export interface StoredWhitelabel {
  settings: Record<string, string>;
  logo: string | null;
  loader: string | null;
  logoWide: string | null;
  link: string | null;
}

export function storedWhitelabel(value: unknown): StoredWhitelabel {
  const raw = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const settings: Record<string, string> = {};
  if (raw.settings && typeof raw.settings === 'object') {
    for (const [k, v] of Object.entries(raw.settings as Record<string, unknown>)) if (typeof v === 'string') settings[k] = v;
  }
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const out: StoredWhitelabel = { settings, logo: null, loader: null, logoWide: null, link: text(raw.link) };
  for (const asset of WHITELABEL_ASSETS) out[asset] = text(raw[asset]);
  return out;
}

/** The address a verified domain serves the app at: this server's scheme and port (PUBLIC_URL) with the domain as host. */
export function linkFor(publicUrl: string, domain: string): string {
  const base = new URL(publicUrl);
  return `${base.protocol}//${domain}${base.port ? `:${base.port}` : ''}`;
}

export function smtpPasswordOf(ctx: Pick<AppContext, 'config'>, row: Pick<WhitelabelRow, 'smtp_password'>): string | null {
  return row.smtp_password ? unseal(secretsKey(ctx.config.dataDir, ctx.config.secretsKey), row.smtp_password) : null;
}

export function sealPassword(ctx: Pick<AppContext, 'config'>, password: string): string {
  return seal(secretsKey(ctx.config.dataDir, ctx.config.secretsKey), password);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function stateOf(team: Pick<TeamRow, 'id' | 'whitelabel_settings'>, row: WhitelabelRow | undefined, eligibility: Eligibility): WhitelabelState {
  const stored = storedWhitelabel(team.whitelabel_settings);
  return {
    workspaceId: team.id,
    eligible: eligibility.eligible,
    reason: eligibility.reason,
    tenantKey: row?.tenant_key ?? null,
    settings: stored.settings,
    logo: stored.logo,
    loader: stored.loader,
    logoWide: stored.logoWide,
    link: stored.link,
    domain: row?.domain
      ? {
          name: row.domain,
          record: verificationRecord(row.domain),
          value: verificationValue(row.domain_token),
          verified: row.domain_verified_at !== null,
          verifiedAt: iso(row.domain_verified_at),
          checkedAt: iso(row.domain_checked_at),
          problem: row.domain_problem,
        }
      : null,
    smtp: row?.smtp ? { host: row.smtp.host, port: row.smtp.port, secure: row.smtp.secure, user: row.smtp.user, from: row.smtp.from, hasPassword: !!row.smtp_password } : null,
  };
}

export type { WhitelabelAsset };
