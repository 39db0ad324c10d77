import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { ApiError, parseBody } from '../http/errors';
import { parseTeamId, requireMemberAccess, requireOwner, type TeamRow } from '../workspaces/access';
import { teamView, verifiedMemberCount } from '../workspaces/views';
import { publishTeamSaved } from '../workspaces/events';
import { deleteUpload, saveUpload, sniffImage } from '../files/storage';
import { Messages } from '../../schema/messages';
import { WHITELABEL_ASSETS, WhitelabelMessages, testMailBody, whitelabelBody, type WhitelabelAsset } from '../../schema/whitelabel';
import {
  ensureWhitelabelRow, linkFor, requireEligible, sealPassword, stateOf, storedWhitelabel, verificationRecord, verificationValue,
  whitelabelEligibility, whitelabelRow, type StoredWhitelabel,
} from './service';
import { SmtpFailure, sendThroughSmtp } from './mail';
import { forgetTenants, tenantCss, tenantOf } from './tenant';
import { lookupTxt } from './txt';

/**
 * White label (workspace.md §7, decision 0265; docs/api/whitelabel.md). The workspace's owner only
 * (§6: "the owner … controls SSO and white label"); changes need an eligible workspace (§6),
 * reading does not (the screen shows why not).
 *
 *   GET  /api/teams/whitelabel/{id}            the state (settings, assets, domain, SMTP without password, eligibility)
 *   PUT  /api/teams/whitelabel/{id}            {settings?, domain?, smtp?}
 *   POST /api/teams/whitelabel/{id}/assets     multipart: one image in logo | loader | logoWide, or the text field remove=<asset>
 *   POST /api/teams/whitelabel/{id}/verify     checks the domain's TXT record
 *   POST /api/teams/whitelabel/{id}/test-mail  {email}: a test mail through the workspace's SMTP server
 *   GET  /api/tenant.css                        the colours and font of the host's tenant (public)
 *   GET  /manifest.webmanifest                  on a tenant's domain: the manifest with its name, colour and logo
 */

export { setTxtResolver, type TxtResolver } from './txt';

/** Largest white-label image (a logo is small; the recommended width is 500 px). */
export const ASSET_MAX_BYTES = 2 * 1024 * 1024;

type IdParams = { Params: { id: string } };

async function ownerAccess(ctx: AppContext, request: FastifyRequest<IdParams>): Promise<TeamRow> {
  const user = await requireUser(ctx.db, request);
  const { team } = await requireMemberAccess(ctx, user, parseTeamId(request.params.id));
  requireOwner(team, user);
  return team;
}

export function whitelabelRoutes(app: FastifyInstance, ctx: AppContext) {
  const answer = async (teamId: number) => {
    const team = await ctx.db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow();
    return { data: stateOf(team, await whitelabelRow(ctx.db, teamId), await whitelabelEligibility(ctx, ctx.db, team, ctx.now())) };
  };

  /** Writes the stored settings and tells the members (their workspace list carries whitelabel_settings). */
  const saveStored = async (team: TeamRow, next: StoredWhitelabel, domain?: string | null) => {
    const updated = await ctx.db
      .updateTable('teams')
      .set((eb) => ({ whitelabel_settings: JSON.stringify(next), ...(domain !== undefined ? { domain } : {}), row_version: eb('row_version', '+', 1), updated_at: ctx.now() }))
      .where('id', '=', team.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.db.updateTable('team_whitelabel').set({ updated_at: ctx.now() }).where('team_id', '=', team.id).execute();
    forgetTenants(ctx);
    const { user_role: _role, ...view } = teamView(updated, 'owner', await verifiedMemberCount(ctx.db, team.id));
    await publishTeamSaved(ctx, view as never).catch(() => undefined);
    return updated;
  };

  app.get<IdParams>('/api/teams/whitelabel/:id', async (request) => {
    const team = await ownerAccess(ctx, request);
    return answer(team.id);
  });

  app.put<IdParams>('/api/teams/whitelabel/:id', async (request) => {
    const team = await ownerAccess(ctx, request);
    const body = parseBody(whitelabelBody, request.body);
    const now = ctx.now();
    requireEligible(await whitelabelEligibility(ctx, ctx.db, team, now));
    const row = await ensureWhitelabelRow(ctx.db, team.id, now);
    const stored = storedWhitelabel(team.whitelabel_settings);
    let domainColumn: string | null | undefined;

    if (body.settings) {
      for (const [key, value] of Object.entries(body.settings)) {
        if (value === null || value === undefined) delete stored.settings[key];
        else stored.settings[key] = value as string;
      }
    }
    if (body.domain !== undefined && body.domain !== row.domain) {
      if (body.domain !== null) {
        const taken = await ctx.db.selectFrom('team_whitelabel').select('team_id').where('domain', '=', body.domain).where('domain_verified_at', 'is not', null).where('team_id', '!=', team.id).executeTakeFirst();
        if (taken) throw new ApiError(422, `${Messages.validationPrefix}domain: is already used by another workspace`, 'validation', ['domain: is already used by another workspace']);
      }
      // A new domain is proven again; until then the app is not served there and nobody is sent there.
      await ctx.db.updateTable('team_whitelabel').set({ domain: body.domain, domain_verified_at: null, domain_checked_at: null, domain_problem: null, updated_at: now }).where('team_id', '=', team.id).execute();
      stored.link = null;
      domainColumn = null;
    }
    if (body.smtp !== undefined) {
      if (body.smtp === null) {
        await ctx.db.updateTable('team_whitelabel').set({ smtp: null, smtp_password: null, updated_at: now }).where('team_id', '=', team.id).execute();
      } else {
        const { password, ...smtp } = body.smtp;
        const sealed = password === undefined ? row.smtp_password : password === null || password === '' ? null : sealPassword(ctx, password);
        await ctx.db.updateTable('team_whitelabel').set({ smtp: JSON.stringify(smtp), smtp_password: sealed, updated_at: now }).where('team_id', '=', team.id).execute();
      }
    }
    await saveStored(team, stored, domainColumn);
    return answer(team.id);
  });

  app.post<IdParams>('/api/teams/whitelabel/:id/assets', async (request) => {
    const team = await ownerAccess(ctx, request);
    if (!request.isMultipart()) throw new ApiError(415, 'Send the image as multipart/form-data in the field logo, loader or logoWide.', 'bad_request');
    requireEligible(await whitelabelEligibility(ctx, ctx.db, team, ctx.now()));
    let upload: { asset: WhitelabelAsset; data: Buffer } | null = null;
    let remove: WhitelabelAsset | null = null;
    const isAsset = (name: string): name is WhitelabelAsset => (WHITELABEL_ASSETS as readonly string[]).includes(name);
    try {
      for await (const part of request.parts({ limits: { fileSize: ASSET_MAX_BYTES + 1 } })) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          if (isAsset(part.fieldname) && !upload) upload = { asset: part.fieldname, data };
        } else if (part.fieldname === 'remove' && typeof part.value === 'string' && isAsset(part.value)) {
          remove = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, Messages.fileTooLarge(ASSET_MAX_BYTES / (1024 * 1024)), 'too_large');
      if (code === 'FST_FILES_LIMIT') throw new ApiError(422, `${Messages.validationPrefix}send one image at a time`, 'validation', ['file: send one image at a time']);
      throw new ApiError(400, 'The upload could not be read.', 'bad_request');
    }
    if (!upload && !remove) throw new ApiError(422, `${Messages.validationPrefix}logo, loader or logoWide: is required`, 'validation', ['logo, loader or logoWide: is required']);
    const stored = storedWhitelabel(team.whitelabel_settings);
    const target = upload?.asset ?? remove!;
    const previous = stored[target];
    if (upload) {
      if (upload.data.length === 0) throw new ApiError(422, `${Messages.validationPrefix}${target}: is required`, 'validation', [`${target}: is required`]);
      if (upload.data.length > ASSET_MAX_BYTES) throw new ApiError(413, Messages.fileTooLarge(ASSET_MAX_BYTES / (1024 * 1024)), 'too_large');
      const ext = sniffImage(upload.data);
      if (!ext) throw new ApiError(422, `${Messages.validationPrefix}${target}: must be a PNG, JPEG, GIF or WebP image`, 'validation', [`${target}: must be a PNG, JPEG, GIF or WebP image`]);
      await ensureWhitelabelRow(ctx.db, team.id, ctx.now());
      stored[target] = await saveUpload(ctx, 'whitelabel', upload.data, ext, { teamId: team.id });
    } else {
      stored[target] = null;
    }
    await saveStored(team, stored);
    if (previous && previous !== stored[target]) await deleteUpload(ctx, previous).catch(() => undefined);
    return answer(team.id);
  });

  app.post<IdParams>('/api/teams/whitelabel/:id/verify', async (request) => {
    const team = await ownerAccess(ctx, request);
    const now = ctx.now();
    requireEligible(await whitelabelEligibility(ctx, ctx.db, team, now));
    const row = await whitelabelRow(ctx.db, team.id);
    if (!row?.domain) throw new ApiError(422, `${Messages.validationPrefix}domain: set a domain first`, 'validation', ['domain: set a domain first']);
    const record = verificationRecord(row.domain);
    const expected = verificationValue(row.domain_token);
    let problem: string | null = null;
    try {
      const answers = (await lookupTxt(ctx, record)).map((chunks) => chunks.join(''));
      if (!answers.includes(expected)) problem = answers.length ? `The TXT record ${record} holds another value.` : `No TXT record ${record} was found.`;
    } catch (error) {
      const code = (error as { code?: string }).code;
      problem = code === 'ENOTFOUND' || code === 'ENODATA' ? `No TXT record ${record} was found.` : `The DNS lookup of ${record} failed (${code ?? 'error'}).`;
    }
    if (!problem) {
      const taken = await ctx.db.selectFrom('team_whitelabel').select('team_id').where('domain', '=', row.domain).where('domain_verified_at', 'is not', null).where('team_id', '!=', team.id).executeTakeFirst();
      if (taken) problem = 'Another workspace already uses this domain.';
    }
    await ctx.db
      .updateTable('team_whitelabel')
      .set({ domain_checked_at: now, domain_problem: problem, ...(problem ? {} : { domain_verified_at: row.domain_verified_at ?? now }), updated_at: now })
      .where('team_id', '=', team.id)
      .execute();
    if (problem) {
      // A domain that stops proving itself keeps its earlier verification: DNS hiccups must not take a live domain down.
      throw new ApiError(422, `${WhitelabelMessages.domainNotVerified} ${problem}`, 'domain_not_verified', (await answer(team.id)).data);
    }
    const stored = storedWhitelabel(team.whitelabel_settings);
    stored.link = linkFor(ctx.config.publicUrl, row.domain);
    await saveStored(team, stored, row.domain);
    return answer(team.id);
  });

  app.post<IdParams>('/api/teams/whitelabel/:id/test-mail', async (request) => {
    const team = await ownerAccess(ctx, request);
    const body = parseBody(testMailBody, request.body);
    requireEligible(await whitelabelEligibility(ctx, ctx.db, team, ctx.now()));
    const row = await whitelabelRow(ctx.db, team.id);
    if (!row?.smtp) throw new ApiError(422, `${Messages.validationPrefix}smtp: set an SMTP server first`, 'validation', ['smtp: set an SMTP server first']);
    const name = storedWhitelabel(team.whitelabel_settings).settings['app.name'] ?? team.name;
    try {
      await sendThroughSmtp(ctx, row, { to: body.email, subject: `${name}: test mail`, text: `This test mail was sent through ${row.smtp.host}:${row.smtp.port} for the workspace "${team.name}". Mail of the workspace goes through this server.\n` });
    } catch (error) {
      const detail = error instanceof SmtpFailure ? error.message : 'unknown error';
      throw new ApiError(422, WhitelabelMessages.smtpError, 'smtp_error', { detail });
    }
    return { data: { sent: true, to: body.email } };
  });

  // The web app manifest on a tenant's domain: its name, theme colour and logo (installing the app there installs the brand).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.url.split('?')[0] !== '/manifest.webmanifest') return;
    const tenant = await tenantOf(ctx, request);
    if (!tenant) return;
    const base = await fs.readFile(path.join(ctx.config.webDir, 'manifest.webmanifest'), 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>, () => ({}) as Record<string, unknown>);
    const manifest = {
      ...base,
      ...(tenant.name ? { name: tenant.name, short_name: tenant.name.slice(0, 12), description: tenant.name } : {}),
      ...(tenant.color ? { theme_color: tenant.color } : {}),
      ...(tenant.logo ? { icons: [{ src: tenant.logo, sizes: 'any', purpose: 'any' }] } : {}),
    };
    await reply.header('cache-control', 'no-cache').header('vary', 'host').type('application/manifest+json').send(JSON.stringify(manifest));
    return reply;
  });

  app.get('/api/tenant.css', async (request, reply) => {
    const tenant = await tenantOf(ctx, request);
    reply.header('cache-control', 'no-cache').header('vary', 'host');
    return reply.type('text/css; charset=utf-8').send(tenantCss(tenant));
  });
}
