import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { IMAGE_TYPES, resolveUpload, type ImageExt } from './storage';
import { attachmentRoutes } from './attachments';
import { requireUser } from '../auth/guard';
import { parseTeamId, requireMemberAccess } from '../workspaces/access';
import { storageUsed } from './storage-figure';

/** `attachment` with the original name (`?name=` of the link), ASCII fallback plus RFC 5987 UTF-8. */
function contentDisposition(name: string | undefined): string {
  if (!name) return 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** GET /api/files/{folder}/{name}: uploaded files (photos, attachments), public by unguessable name. */
export function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  attachmentRoutes(app, ctx);

  /** GET /api/teams/{id}/usage: the workspace's storage figure and limit, for its members. */
  app.get<{ Params: { id: string } }>('/api/teams/:id/usage', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    await requireMemberAccess(ctx, user, teamId);
    return { data: { storage_used: await storageUsed(ctx.db, teamId), storage_limit: ctx.config.files.workspaceStorageLimitBytes } };
  });

  app.get<{ Params: { '*': string }; Querystring: { name?: string } }>('/api/files/*', async (request, reply) => {
    const file = resolveUpload(ctx, request.params['*']);
    if (!file) throw notFound();
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw notFound();
    const ext = file.slice(file.lastIndexOf('.') + 1);
    // Not an image (an attachment of any type): only ever a download, never rendered by us.
    if (!(ext in IMAGE_TYPES)) {
      reply.type('application/octet-stream').header('content-disposition', contentDisposition(request.query.name));
    } else reply.type(IMAGE_TYPES[ext as ImageExt]);
    return reply
      .header('content-length', stat.size)
      .header('x-content-type-options', 'nosniff')
      // A new upload gets a new name, so a stored file never changes. Private: no shared cache
      // (proxy, CDN) keeps serving a file after the sweep has removed it.
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(fs.createReadStream(file));
  });
}
