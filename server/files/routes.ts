import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { IMAGE_TYPES, resolveUpload, type ImageExt } from './storage';

/** GET /api/files/{folder}/{name}: uploaded files (photos), public by unguessable name. */
export function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { '*': string } }>('/api/files/*', async (request, reply) => {
    const file = resolveUpload(ctx, request.params['*']);
    if (!file) throw notFound();
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw notFound();
    const ext = file.slice(file.lastIndexOf('.') + 1) as ImageExt;
    return reply
      .type(IMAGE_TYPES[ext])
      .header('content-length', stat.size)
      .header('x-content-type-options', 'nosniff')
      // A new upload gets a new name, so a stored file never changes.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(fs.createReadStream(file));
  });
}
