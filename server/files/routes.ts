import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { IMAGE_TYPES, fileStore, uploadKey, type ImageExt } from './storage';
import { attachmentRoutes } from './attachments';
import { requireUser } from '../auth/guard';
import { parseTeamId, requireMemberAccess } from '../workspaces/access';
import { storageUsed, storageUsedBySubscription } from './storage-figure';
import { storageLimitOf } from '../billing/storage-limit';

/** `attachment` with the original name (`?name=` of the link), ASCII fallback plus RFC 5987 UTF-8. */
function contentDisposition(name: string | undefined): string {
  if (!name) return 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** GET /api/files/{folder}/{name}: uploaded files (photos, attachments), public by unguessable name. */
export function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  attachmentRoutes(app, ctx);

  /** GET /api/teams/{id}/usage: the workspace's storage figure, its limit (the plan's, or the smaller per-workspace cap) and its subscription's figure, for its members. */
  app.get<{ Params: { id: string } }>('/api/teams/:id/usage', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    await requireMemberAccess(ctx, user, teamId);
    const plan = await storageLimitOf(ctx, ctx.db, teamId, ctx.now());
    const cap = ctx.config.files.workspaceStorageLimitBytes;
    // The plan's limit holds for the subscription's workspaces together (decision 0260).
    const subscriptionUsed = plan.subscriptionId === null ? null : await storageUsedBySubscription(ctx.db, plan.subscriptionId);
    return { data: { storage_used: await storageUsed(ctx.db, teamId), storage_limit: cap === null ? plan.limit : Math.min(cap, plan.limit), subscription_storage_used: subscriptionUsed } };
  });

  /**
   * The API decides (the path is an upload's and its row still exists: a file the sweep or a photo
   * change removed is gone at once, even if its bytes linger in a bucket), then the bytes are
   * streamed from the store, or — FILE_DOWNLOADS=redirect on S3 — the answer is a 302 to a signed
   * URL of a few minutes whose type and disposition are part of the signature (decision 0190).
   */
  app.get<{ Params: { '*': string }; Querystring: { name?: string } }>('/api/files/*', async (request, reply) => {
    const key = uploadKey(request.params['*']);
    if (!key) throw notFound();
    const row = await ctx.db.selectFrom('uploads').select('path').where('path', '=', key).executeTakeFirst();
    if (!row) throw notFound();
    const ext = key.slice(key.lastIndexOf('.') + 1);
    // Not an image (an attachment of any type): only ever a download, never rendered by us.
    const image = ext in IMAGE_TYPES;
    const type = image ? IMAGE_TYPES[ext as ImageExt] : 'application/octet-stream';
    const disposition = image ? undefined : contentDisposition(request.query.name);
    const store = fileStore(ctx);
    if (ctx.config.files.downloads === 'redirect') {
      const signed = await store.signedUrl(key, { contentType: type, disposition, expiresInSec: ctx.config.files.signedUrlSeconds });
      // The redirect expires before its URL does: a cached 302 never points at a dead signature.
      if (signed) return reply.header('cache-control', `private, max-age=${Math.floor(ctx.config.files.signedUrlSeconds / 2)}`).redirect(signed, 302);
    }
    const file = await store.read(key);
    if (!file) throw notFound();
    reply.type(type);
    if (disposition) reply.header('content-disposition', disposition);
    return reply
      .header('content-length', file.size)
      .header('x-content-type-options', 'nosniff')
      // A new upload gets a new name, so a stored file never changes. Private: no shared cache
      // (proxy, CDN) keeps serving a file after the sweep has removed it.
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(file.stream);
  });
}
